/**
 * The shell tool. Every call asks a person (kind 'shell', design §3), after the policy has had
 * its say: catastrophic commands and indirect execution are refused before anyone is asked;
 * destructive ones carry a warning. The command runs in the platform's shell with a time limit,
 * in a process group of its own that is killed whole on timeout or interrupt.
 */
import { z } from 'zod';
import { t } from '../support/i18n/index.js';
import { formatBytes } from '../support/text.js';
import { runCommand } from './shell-run.js';
import { type Tool, ToolError } from './types.js';

export const MAX_OUTPUT_BYTES = 100 * 1024;
export const DEFAULT_TIMEOUT_S = 30;

const schema = z.object({
  command: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('The command line to run, exactly as it would be typed.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(300)
    .default(DEFAULT_TIMEOUT_S)
    .describe('Seconds before the command is stopped (1-300, default 30).'),
});

/**
 * Control characters (escape sequences could hide part of a command in the prompt) and bidi
 * overrides are shown as visible escapes, so the person approves exactly what will run.
 */
export function visible(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => {
      const code = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${code}`;
    },
  );
}

function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // The API key is zhi's own secret; a command has no business reading it.
  delete env.ZHI_API_KEY;
  return env;
}

const shell: Tool<typeof schema> = {
  name: 'shell',
  description: [
    "Run a command in the user's shell (/bin/sh on macOS and Linux, cmd.exe on Windows) in the current directory.",
    'The user is asked to approve every command, so explain first what it does and why. With no one to ask, it is denied.',
    'Refused outright: commands that could destroy the system or personal files (rm -rf /, formatting disks, fork bombs),',
    'and indirect execution (eval, sh -c, bash -c, python -c, node -e, piping into a shell, powershell -Command).',
    'Prefer the dedicated tools (file_read, file_list, file_write) for reading and writing files.',
    `Output (stdout and stderr) is capped at ${formatBytes(MAX_OUTPUT_BYTES)}; the exit code is reported.`,
    'Standard input is empty, so interactive commands get no input.',
  ].join(' '),
  schema,
  kind: 'shell',
  // 100 KB of output plus the exit-code and marker lines.
  maxResultBytes: MAX_OUTPUT_BYTES + 4096,
  label: (args) => {
    const line = visible(args.command.split('\n')[0] ?? '');
    return line.length > 60 ? `${line.slice(0, 57)}…` : line;
  },
  preview: (args, ctx) => {
    const lines = [`$ ${visible(args.command)}`];
    if (ctx) lines.push(t('shell.preview.cwd', { cwd: ctx.cwd }));
    if (args.timeout !== DEFAULT_TIMEOUT_S) lines.push(t('shell.preview.timeout', { seconds: args.timeout }));
    return lines.join('\n');
  },
  async assess(args, ctx) {
    // Loaded on first use: the parser is not needed to start a chat.
    const { assessCommand, describeVerdict } = await import('./shell-policy.js');
    return describeVerdict(assessCommand(args.command, { cwd: ctx.cwd }));
  },
  async execute(args, ctx) {
    // The renderers show the elapsed time while this runs.
    const result = await runCommand(args.command, {
      cwd: ctx.cwd,
      timeoutMs: args.timeout * 1000,
      signal: ctx.signal,
      maxBytes: MAX_OUTPUT_BYTES,
      env: childEnv(),
    });
    if (result.spawnError) throw new ToolError(`The shell could not be started: ${result.spawnError}`);
    if (result.aborted)
      throw new ToolError('Interrupted by the user; the command and everything it started were stopped.');

    const parts: string[] = [];
    const seconds = (result.durationMs / 1000).toFixed(1);
    if (result.timedOut) {
      parts.push(
        `The command did not finish within ${args.timeout} s and was stopped (its whole process group was killed). ` +
          'Output until then is below. If it needs longer, run it again with a larger timeout (at most 300).',
      );
    } else if (result.exitCode !== null) {
      parts.push(`Exit code: ${result.exitCode} (${seconds} s)`);
    } else {
      parts.push(`The command was ended by signal ${result.signal ?? 'unknown'} (${seconds} s)`);
    }
    if (result.stdout) parts.push(`stdout:\n${result.stdout.replace(/\n$/, '')}`);
    if (result.stderr) parts.push(`stderr:\n${result.stderr.replace(/\n$/, '')}`);
    if (!result.stdout && !result.stderr) parts.push('(no output)');
    if (result.leftovers && !result.timedOut) {
      parts.push('Processes the command left running in the background were stopped when it ended.');
    }
    if (result.droppedBytes > 0) {
      parts.push(
        `[output truncated: kept the first ${formatBytes(MAX_OUTPUT_BYTES)} of ${formatBytes(result.totalBytes)}. ` +
          'Narrow the command (grep, head, tail) to see a specific part.]',
      );
    }
    return { content: parts.join('\n\n'), isError: result.timedOut };
  },
};

export default shell;
