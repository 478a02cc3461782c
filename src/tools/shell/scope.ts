/**
 * The shell limited to some programs, for skills whose `allowed-tools` says `Bash(python3:*)`:
 * every command of the line (pipes, `&&`, substitutions included) must start with one of the
 * allowed prefixes. Anything else is refused before anyone is asked; what is allowed still asks,
 * as every shell command does.
 */

import { pushAll } from '../../support/arrays.js';
import type { AnyTool, Assessment } from '../types.js';
import { isDynamic, parseLine, programName, showWord } from './parse.js';

/** The first command of a line that falls outside the scopes, or undefined when all fit. */
export function outsideScopes(line: string, scopes: readonly string[]): string | undefined {
  const dialect = process.platform === 'win32' ? 'windows' : 'posix';
  const wanted = scopes.map((s) => s.trim().split(/\s+/));
  const pending = [line];
  for (let guard = 0; pending.length && guard < 50; guard++) {
    const parsed = parseLine(pending.shift()!, dialect);
    pushAll(pending, parsed.substitutions);
    if (parsed.functions.length) return parsed.functions[0]!.name;
    for (const cmd of parsed.commands) {
      if (!cmd.words.length) continue;
      const fits = wanted.some(
        (prefix) =>
          prefix.length <= cmd.words.length &&
          prefix.every((w, i) =>
            i === 0
              ? !isDynamic(cmd.words[0]!) && programName(cmd.words[0]!) === programName(w)
              : cmd.words[i] === w,
          ),
      );
      if (!fits) return cmd.words.map(showWord).join(' ');
    }
  }
  return pending.length ? line : undefined;
}

/** The shell tool, offered and allowed only for commands that start with one of `scopes`. */
export function scopedShell(shell: AnyTool, scopes: readonly string[]): AnyTool {
  const list = scopes.join(', ');
  return {
    ...shell,
    description: `${shell.description} In this skill only commands that start with ${list} may run; others are refused.`,
    async assess(args: { command: string }, ctx): Promise<Assessment> {
      const outside = outsideScopes(args.command, scopes);
      if (outside !== undefined) {
        return { refuse: `this skill may run only commands that start with ${list}; "${outside}" does not.` };
      }
      return (await shell.assess?.(args, ctx)) ?? {};
    },
  };
}
