/**
 * Script files a command runs (`bash run.sh`, `source ./x.sh`, `./zhi-output/run.sh`): what they
 * do is not on the command line. A file in the output folder was written by the model, so running
 * it is refused; a shell script elsewhere is read and its lines checked like the command's own; a
 * shell script that cannot be read, or that the same line writes first, is refused. A script of an
 * Agent Skill's folder (a folder the sandbox shows read-only) is not checked line by line — real
 * skills' scripts use variables as programs (`$SED_INPLACE`) and name their own files twice — but
 * collected, so the approval shows it whole and the person decides.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { optionValues } from './code-options.js';
import type { Finding } from './findings.js';
import { refuse } from './findings.js';
import { isDynamic, programName, showWord } from './parse.js';
import { runsShellScript, scriptOperand } from './programs.js';
import { absolutePaths, type PathContext } from './targets.js';

/** Larger scripts are not read (and so refused when a shell is asked to run them). */
const MAX_SCRIPT_BYTES = 256 * 1024;

export interface ScriptVerdict {
  finding?: Finding;
  /** The script's text, to be checked as command lines of their own. */
  content?: string;
}

/** What running the program word `program` with `args` means for the script files it runs. */
export function checkScript(program: string, args: string[], ctx: PathContext): ScriptVerdict {
  const name = programName(program);
  if (name === 'make' || name === 'gmake') return checkMakefile(args, ctx);
  const module = moduleOperand(name, args);
  if (module !== undefined && !isDynamic(module)) {
    // `python3 -m zhi-output.tool` runs zhi-output/tool.py (or the package's __main__.py).
    const file = module.replace(/\./g, '/');
    const placed = whereWritten(file, absolutePaths(file, ctx)[0], ctx, 1);
    if (placed.finding) return placed;
  }
  const operand = scriptOperand(name, args);
  // `./run.sh`, `zhi-output/x`, `run.bat`: the program itself is a file given by its path (cmd.exe
  // runs a batch file of the current folder by its name alone).
  const batch = /\.(bat|cmd)$/i.test(program);
  const direct = operand === undefined && (/[/\\]/.test(program) || batch) && !isDynamic(program);
  const file = direct ? program : operand;
  if (file === undefined || isDynamic(file)) return {};
  const path = absolutePaths(file, ctx)[0];
  if (path !== undefined && inSkillFolder(path, ctx)) {
    const text = readScript(path);
    ctx.bundled?.push({ file, path, ...(text !== undefined ? { text } : {}) });
    return {};
  }
  const placed = whereWritten(file, path, ctx, 1);
  if (placed.finding) return placed;
  if (!direct && !runsShellScript(name)) return {};
  if (path === undefined) return direct ? {} : unseen(file);
  const text = readScript(path);
  if (text === undefined) return direct ? {} : unseen(file);
  // A file run directly is a shell script when its first line names a shell (or names nothing).
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  if (direct && !batch && first.startsWith('#!') && !/\b(ba|da|z|k|mk|a)?sh\b/.test(first)) return {};
  return { content: text };
}

/** The module `python -m` runs (`-m mod`, `-mmod`, `-Im mod`), or undefined: read as Python reads options. */
export function moduleOperand(name: string, args: string[]): string | undefined {
  if (!/^(python|pypy)[0-9.]*[mw]?$/.test(name)) return undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-W' || a === '-X') {
      i++;
      continue;
    }
    const m = /^-[A-Za-z]*?m(.*)$/.exec(a);
    if (m && !a.startsWith('--')) return m[1] || args[i + 1];
    // The first word that is not an option is the script (or `-c`'s code): no module.
    if (!a.startsWith('-') || /^-[A-Za-z]*c/.test(a)) return undefined;
  }
  return undefined;
}

function inSkillFolder(path: string, ctx: PathContext): boolean {
  const p = posix.normalize(path);
  return (ctx.skillFolders ?? []).some((f) => p.startsWith(`${posix.normalize(f).replace(/\/$/, '')}/`));
}

function unseen(file: string): ScriptVerdict {
  return { finding: refuse('script-file', 'shell.refuse.scriptUnseen', { file: showWord(file) }) };
}

/**
 * A file in the output folder (written during this work), or one the same line names elsewhere
 * (`curl … > x.sh && sh x.sh`: written first): its content is not what can be read now.
 * `uses` is how often the command itself names the file.
 */
function whereWritten(file: string, path: string | undefined, ctx: PathContext, uses: number): ScriptVerdict {
  if (path === undefined) return {};
  const output = posix.normalize(ctx.output ?? posix.join(ctx.cwd, 'zhi-output'));
  if (path === output || path.startsWith(`${output}/`))
    return { finding: refuse('output-script', 'shell.refuse.outputScript', { file: showWord(file) }) };
  const base = posix.basename(path);
  const named = (ctx.lineWords ?? []).filter((w) => posix.basename(w.replace(/\\/g, '/')) === base).length;
  return named > uses ? unseen(file) : {};
}

/** `make -f zhi-output/Makefile`, `make -C zhi-output`, `echo … > Makefile && make`. */
function checkMakefile(args: string[], ctx: PathContext): ScriptVerdict {
  const dir =
    optionValues(args, ['-C', '--directory'])
      .map((o) => o.value)
      .pop() ?? '.';
  const given = optionValues(args, ['-f', '--file', '--makefile']).map((o) => o.value);
  for (const file of given.length ? given : ['Makefile', 'makefile', 'GNUmakefile']) {
    const inDir = posix.isAbsolute(file) || file.startsWith('~') ? file : posix.join(dir, file);
    const path = isDynamic(inDir) ? undefined : absolutePaths(inDir, ctx)[0];
    const placed = whereWritten(inDir, path, ctx, given.length ? 1 : 0);
    if (placed.finding) return placed;
  }
  return {};
}

function readScript(path: string): string | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_SCRIPT_BYTES) return undefined;
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(st.size);
      const n = readSync(fd, buf, 0, st.size, 0);
      const text = buf.subarray(0, n).toString('utf8');
      return text.includes('\0') ? undefined : text;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
