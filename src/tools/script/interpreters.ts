/**
 * The interpreters run_script runs code with (python3, node), found as zhi finds other programs
 * (tools/find-program.ts: a variable names one, else PATH), and what a failed script's error says
 * is missing (a Python package, a Node module), so the person is told what to install.
 */
import { installKind } from '../../support/install.js';
import { findProgram } from '../find-program.js';

export const LANGUAGES = ['python', 'node'] as const;
export type ScriptLanguage = (typeof LANGUAGES)[number];

interface Interpreter {
  /** The file extension of its scripts. */
  ext: string;
  /** How the person and the model know it. */
  shown: string;
  /** The environment variable that names it (or `off`), as for ffmpeg and LibreOffice. */
  env: string;
  names: string[];
  /** Options before the script: Python writes no `__pycache__` beside it. */
  options: string[];
}

const WIN = process.platform === 'win32';

export const INTERPRETERS: Record<ScriptLanguage, Interpreter> = {
  python: {
    ext: 'py',
    shown: 'Python 3',
    env: 'ZHI_PYTHON',
    names: WIN ? ['python.exe', 'python3.exe', 'py.exe'] : ['python3', 'python'],
    options: ['-B'],
  },
  node: { ext: 'mjs', shown: 'Node.js', env: 'ZHI_NODE', names: WIN ? ['node.exe'] : ['node'], options: [] },
};

/**
 * Where the interpreter is, or undefined. Node is also the one running zhi (not in the standalone
 * executable, whose own program is zhi).
 */
export function findInterpreter(language: ScriptLanguage): string | undefined {
  const spec = INTERPRETERS[language];
  let found = findProgram({ env: spec.env, names: spec.names });
  // Windows' python.exe in WindowsApps is a stub that opens the Microsoft Store: no Python at all.
  if (WIN && found && /[\\/]WindowsApps[\\/]/i.test(found) && !process.env[spec.env]) found = undefined;
  if (found || language !== 'node' || process.env[spec.env] === 'off') return found;
  return installKind() === 'exe' ? undefined : process.execPath;
}

/** A module the script could not import, read from its error output; undefined when none. */
export function missingModule(language: ScriptLanguage, stderr: string): string | undefined {
  const m =
    language === 'python'
      ? /ModuleNotFoundError: No module named '([^']+)'/.exec(stderr)
      : /Cannot find (?:module|package) '([^']+)'/.exec(stderr);
  const name = m?.[1];
  // `docx.shared` is the package `docx`; `@scope/pkg/sub` is `@scope/pkg`.
  if (!name || name.startsWith('.') || name.startsWith('/')) return undefined;
  if (language === 'python') return name.split('.')[0];
  return name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
}

/** What the person installs for a missing module (Python's import names that differ from pip's). */
export function installName(language: ScriptLanguage, module: string): string {
  if (language === 'node') return module;
  const pip: Record<string, string> = {
    docx: 'python-docx',
    pptx: 'python-pptx',
    PIL: 'pillow',
    yaml: 'pyyaml',
    fitz: 'pymupdf',
    cv2: 'opencv-python',
    bs4: 'beautifulsoup4',
  };
  return pip[module] ?? module;
}

/** A word for the platform's shell: single quotes for sh, double for cmd.exe. */
export function shellWord(word: string): string {
  if (WIN) return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
