/**
 * Commands that replace or delete files without a word like rm in them (`cp -f`, `curl -o`,
 * `unzip -o`, `git reset --hard`): warned about before the question.
 */
import type { MessageKey, Params } from '../../support/i18n/index.js';
import type { Finding } from './findings.js';
import { showWord } from './parse.js';
import { DELETING_SUBCOMMANDS, EMPTY_SOURCES } from './rules.js';

/** Commands that replace or delete files without a word like rm in them. */
export function checkOverwrites(name: string, args: string[], lower: string[], out: Finding[]): undefined {
  const warn = (rule: string, key: MessageKey, params: Params) => {
    out.push({ level: 'warn', rule, key, params });
    return undefined;
  };
  const ops = operands(args);
  const target = ops[ops.length - 1];
  const force = args.some((a) => a === '--force' || /^-[a-zA-Z]*f/.test(a));
  if (name === 'cp' || name === 'ln' || name === 'install') {
    const empties = ops.some((o) => EMPTY_SOURCES.has(o.toLowerCase()));
    const dotfile = target !== undefined && /(^|\/)\.[^/.][^/]*$/.test(target);
    if ((force || empties || dotfile || name === 'install') && target)
      return warn('overwrite', 'shell.warn.overwrite', { target: showWord(target) });
    return undefined;
  }
  if ((name === 'copy' || name === 'xcopy') && lower.includes('/y'))
    return warn('overwrite', 'shell.warn.overwrite', { target: showWord(target ?? name) });
  if (name === 'curl') {
    const out = outputOf(args, 'o', ['--output']);
    if (out) return warn('overwrite', 'shell.warn.overwrite', { target: showWord(out) });
    if (args.some((a) => a === '--remote-name' || /^-[a-zA-Z]*O/.test(a)))
      return warn('overwrite', 'shell.warn.overwrite', { target: 'curl -O' });
    return undefined;
  }
  if (name === 'wget') {
    const out = outputOf(args, 'O', ['--output-document']);
    if (out && out !== '-') return warn('overwrite', 'shell.warn.overwrite', { target: showWord(out) });
    return undefined;
  }
  if (name === 'unzip' && args.some((a) => /^-[a-zA-Z]*o/.test(a)))
    return warn('overwrite', 'shell.warn.overwrite', { target: 'unzip -o' });
  const sub = DELETING_SUBCOMMANDS[name];
  if (sub && args.some((a) => sub.test(a))) return warn('delete', 'shell.warn.delete', { program: name });
  return undefined;
}

/** The file a `-o file` / `-so file` / `--output file` / `--output=file` option names. */
function outputOf(args: string[], letter: string, long: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (long.includes(a)) return args[i + 1];
    const eq = long.find((l) => a.startsWith(`${l}=`));
    if (eq) return a.slice(eq.length + 1);
    if (/^-[a-zA-Z]+$/.test(a) && a.includes(letter)) {
      const rest = a.slice(a.indexOf(letter) + 1);
      return rest || args[i + 1];
    }
  }
  return undefined;
}

/** Arguments that are not options (everything after `--` counts). */
export function operands(args: string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') {
      ended = true;
      continue;
    }
    if (!ended && a.startsWith('-') && a !== '-') continue;
    out.push(a);
  }
  return out;
}

export function checkGit(args: string[], out: Finding[]): undefined {
  // Skip global options such as `-C dir` and `-c key=value`.
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-'))
    i += ['-C', '-c', '--git-dir', '--work-tree'].includes(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  const has = (...flags: string[]) => rest.some((a) => flags.includes(a));
  let command: string | undefined;
  if (sub === 'reset' && has('--hard', '--merge', '--keep')) command = 'git reset --hard';
  else if (sub === 'clean' && rest.some((a) => /^-[a-zA-Z]*[fdxX]/.test(a) || a === '--force'))
    command = 'git clean';
  else if (sub === 'checkout' && (has('--', '.', '-f', '--force') || rest.length === 0))
    command = 'git checkout';
  else if (sub === 'restore') command = 'git restore';
  else if (sub === 'push' && rest.some((a) => a === '-f' || a.startsWith('--force') || a.startsWith('+'))) {
    command = 'git push --force';
  } else if (
    sub === 'push' &&
    rest.some((a) => ['-d', '--delete', '--mirror', '--prune'].includes(a) || /^:[^:]/.test(a))
  ) {
    command = 'git push --delete';
  } else if (sub === 'branch' && has('-D', '--delete', '-d')) command = 'git branch -D';
  else if (sub === 'stash' && (rest[0] === 'drop' || rest[0] === 'clear')) command = `git stash ${rest[0]}`;
  else if (sub === 'rm') command = 'git rm';
  if (command) out.push({ level: 'warn', rule: 'git', key: 'shell.warn.git', params: { command } });
  return undefined;
}
