/**
 * Options that hand a program code to run — `tar --checkpoint-action=exec=…`, `git -c
 * alias.x='!…'`, `sed 's/…/…/e'`, `ssh -o ProxyCommand=…`, `less +!…`, `schtasks /tr …` — are
 * indirect execution: the code cannot be checked before it runs, so the command is refused. The
 * option names live in shell-rules.ts.
 */

import type { Finding } from './findings.js';
import { isStdinScript, refuse } from './findings.js';
import { isDynamic } from './parse.js';
import { CODE_OPTIONS, GIT_CODE_KEYS, SSH_CODE_KEYS } from './rules.js';

/**
 * The value of `--opt value`, `--opt=value` or `-Xvalue` options named in `names`, among the
 * arguments before `end` (a value may still be the word at `end`).
 */
export function optionValues(
  args: string[],
  names: string[],
  end = args.length,
): { flag: string; value: string }[] {
  const found: { flag: string; value: string }[] = [];
  for (let i = 0; i < end && i < args.length; i++) {
    const a = args[i]!;
    for (const n of names) {
      const lower = n.startsWith('/') ? a.toLowerCase() : a;
      if (lower === n) found.push({ flag: n, value: args[i + 1] ?? '' });
      else if (n.startsWith('--') && lower.startsWith(`${n}=`))
        found.push({ flag: n, value: a.slice(n.length + 1) });
      else if (/^-[A-Za-z]$/.test(n) && a.startsWith(n) && a.length > 2 && !a.startsWith('--')) {
        found.push({ flag: n, value: a.slice(2) });
      }
    }
  }
  return found;
}

/**
 * Options that hand the program code to run: `tar --checkpoint-action=exec=…`, `git -c
 * alias.x='!…'`, `sed 's/…/…/e'`, `ssh -o ProxyCommand=…`, `less +!…`, `schtasks /tr …`.
 */
export function checkCodeOptions(prog: string, args: string[]): Finding | undefined {
  const inline = (flag: string) => refuse('inline-code', 'shell.refuse.inline', { program: prog, flag });
  const names = CODE_OPTIONS[prog];
  if (names?.length) {
    const hit = optionValues(args, names)[0];
    // tar's `-F` and `-I` are also ordinary letters in a cluster (`-xIf`): the option form is enough.
    if (hit) return inline(hit.flag);
  }
  if (prog === 'git') {
    const bad = optionValues(args, ['-c']).find((o) => GIT_CODE_KEYS.some((re) => re.test(o.value)));
    if (bad) return inline(`-c ${bad.value.split('=')[0]}`);
  }
  if (prog === 'ssh' || prog === 'scp' || prog === 'sftp') {
    const bad = optionValues(args, ['-o']).find((o) => SSH_CODE_KEYS.test(o.value));
    if (bad) return inline(`-o ${bad.value.split(/[=\s]/)[0]}`);
  }
  if (['less', 'more', 'vim', 'vi', 'nvim', 'view', 'ex'].includes(prog)) {
    const bad = args.find((a) => a.startsWith('+') && a.includes('!'));
    if (bad) return inline('+!');
  }
  if (prog === 'sed' || prog === 'gsed') {
    const scripts = optionValues(args, ['-e', '--expression']).map((o) => o.value);
    if (!scripts.length) {
      const first = args.find((a, i) => !a.startsWith('-') && !['-f', '--file'].includes(args[i - 1] ?? ''));
      if (first) scripts.push(first);
    }
    if (scripts.some(sedRunsCode)) return inline('e');
    const file = optionValues(args, ['-f', '--file'])[0];
    if (file && (isStdinScript(file.value) || isDynamic(file.value)))
      return refuse('piped-code', 'shell.refuse.piped', { program: prog });
  }
  if (prog === 'wmic' && args.some((a) => a.toLowerCase() === 'create')) return inline('call create');
  return undefined;
}

/** A sed script with the `e` command or an `s///e` flag runs shell commands. */
export function sedRunsCode(script: string): boolean {
  // `e command` (optionally after an address), or a substitution whose flags include `e`.
  if (/(^|[;\n{}]|[0-9$/]|\s)\s*e(\s|;|$)/.test(script)) return true;
  const m = /(?:^|[;\n{}\s0-9$])s(.)/.exec(script);
  if (!m) return false;
  const d = m[1]!;
  const parts = script.slice(m.index + m[0].length).split(d);
  const flags = parts[2] ?? '';
  return /^[gpiImM0-9w]*e/.test(flags);
}
