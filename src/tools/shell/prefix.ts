/**
 * "Always allow" for the session, for a shell command the policy had nothing to say about: the
 * key a later command must share to run without a question. The rule, like Codex's prefix rules
 * (argv tokens matched from the left, whole words only) and Claude Code's `git status:*`:
 *
 * - only a line that is one simple command made of plain words qualifies: no `;`, `&&`, `||`,
 *   pipes, `&`, redirections, substitutions, variables, globs in braces, comments, newlines or
 *   leading assignments; anything else is asked every time;
 * - a program known for subcommands (git, npm, cargo, docker…) gives the program and its
 *   subcommand (`git status`), and for a subcommand that runs something (`npm run build`,
 *   `cargo run`, `uv run pytest`) the next word too;
 * - a program that runs code or other programs (sh, python, node, env, xargs, sudo, find, sed,
 *   awk…) and a program given by a path (`./build.sh`) give the whole command: only that exact
 *   command runs again unasked;
 * - any other program gives the program alone (`ls`, `cat`, `wc`, `pytest`);
 * - a prefix carries the command's operands (every later word but a bare option like `-la` or
 *   `--short`): options may differ, files may not, so `cat README.md` never covers
 *   `cat /srv/other/settings.py` and `git status` never covers `git status ../other`.
 *
 * A later command runs unasked only when its own key is the same and the policy again has no
 * warning about it, so `git status` never covers `git push`, and `ls` never covers `ls; rm -rf ~`.
 */
import { shellStandingKey, showWords } from '../standing.js';
import { programName } from './parse.js';
import { RUNNERS } from './rules.js';
import { parseBash, UnparsableError } from './tree.js';

export interface CommandPrefix {
  /** Compared with a later command's key. */
  key: string;
  /** What the person is shown: the prefix, or the whole command when `exact`. */
  shown: string;
  /** Only this exact command (its words) is covered. */
  exact: boolean;
}

// Letters, digits, spaces and the punctuation of options, paths and versions; quotes for
// words with spaces. Everything a shell gives a meaning to beyond words is left out.
const PLAIN_LINE = /^[A-Za-z0-9 _\-./:=,@+%*'"]+$/;
// `%` is cmd.exe's variable mark and `*` a glob: plain only where no grammar reads them.
const CMD_SPECIAL = /%/;
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9:_-]*$/;

/** Programs whose first word is a subcommand: the subcommand is part of the prefix. */
const WITH_SUBCOMMANDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'gh',
  'glab',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'pipenv',
  'conda',
  'dotnet',
  'mvn',
  'gradle',
  'brew',
  'apt',
  'apt-get',
  'make',
  'just',
  'terraform',
  'rustup',
  'deno',
  'composer',
  'bundle',
  'rake',
  'hg',
  'svn',
  'systemctl',
  'zhi',
]);

/** Subcommands that run a script, package or program: the word after them joins the prefix. */
const RUNS_NEXT = new Set(['run', 'run-script', 'exec', 'x', 'dlx', 'tool', 'test-script']);

/** Programs that run code or other programs: only the exact command is covered. */
const EXACT_ONLY = new Set([
  ...RUNNERS,
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'ash',
  'python',
  'python2',
  'python3',
  'py',
  'pypy',
  'pypy3',
  'npx',
  'bunx',
  'pnpx',
  'uvx',
  'pipx',
  'java',
  'dotnet-script',
  'r',
  'gdb',
  'lldb',
  'vim',
  'vi',
  'nvim',
  'emacs',
  'less',
  'more',
  'man',
  'crontab',
  'at',
  'curl',
  'wget',
]);

/**
 * The prefix a standing approval of this command would cover, or undefined when the command is
 * not plain enough to be allowed by prefix. The bash parser must be loaded (tree.ts).
 */
export function commandPrefix(
  line: string,
  platform: NodeJS.Platform = process.platform,
): CommandPrefix | undefined {
  const text = line.trim();
  if (!text || !PLAIN_LINE.test(text)) return undefined;
  if (platform === 'win32' && CMD_SPECIAL.test(text)) return undefined;
  let words: string[];
  try {
    const parsed = parseBash(text);
    const [only] = parsed.commands;
    if (parsed.commands.length !== 1 || parsed.substitutions.length || parsed.functions.length)
      return undefined;
    if (!only || only.redirects.length || only.assignments.length || only.piped) return undefined;
    words = only.words;
  } catch (err) {
    if (err instanceof UnparsableError) return undefined;
    throw err;
  }
  const [first, second, third] = words;
  if (!first || words.some((w) => !w || /[\u0000-\u001f]/.test(w))) return undefined;
  const program = programName(first);
  if (/[/\\]/.test(first)) return exact(words);
  if (!WITH_SUBCOMMANDS.has(program)) return EXACT_ONLY.has(program) ? exact(words) : prefix(words, 1);
  // `git -C dir status`: options before the subcommand could point it anywhere.
  if (second === undefined) return exact(words);
  if (!SUBCOMMAND.test(second)) return exact(words);
  if (!RUNS_NEXT.has(second.toLowerCase())) return prefix(words, 2);
  if (third === undefined || !SUBCOMMAND.test(third)) return exact(words);
  return prefix(words, 3);
}

/** A bare option: no value attached, so it names no file (`-la`, `--short`, `-5`). */
const BARE_OPTION = /^--?[A-Za-z0-9][A-Za-z0-9-]*$/;

/** The first `length` words as the prefix, with the operands of the rest. */
function prefix(words: string[], length: number): CommandPrefix {
  const head = words.slice(0, length);
  const operands = words.slice(length).filter((w) => !BARE_OPTION.test(w));
  const shown = operands.length ? `${showWords(head)} … ${showWords(operands)}` : showWords(head);
  return { key: shellStandingKey(head, false, operands), shown, exact: false };
}

function exact(words: string[]): CommandPrefix {
  return { key: shellStandingKey(words, true), shown: showWords(words), exact: true };
}
