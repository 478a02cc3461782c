/**
 * The shell tool. Every call asks a person (kind 'shell', design §3), after the policy has had
 * its say: catastrophic commands, indirect execution and commands holding control characters are
 * refused before anyone is asked; destructive ones carry a warning. The approval says which
 * sandbox applies and offers to widen it for this one command. The command runs in the OS sandbox
 * (sandbox.ts) with a time limit, and everything it started is stopped on timeout or interrupt.
 */
import { relative } from 'node:path';
import { z } from 'zod';
import { pushAll } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { controlsIn, hasControl, visible } from '../../support/sanitize.js';
import { formatBytes } from '../../support/text.js';
import { displayPath } from '../paths.js';
import {
  type Assessment,
  type ShellSettings,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolResult,
} from '../types.js';
import { MAX_OUTPUT_BYTES, SHELL_TOOL } from './entry.js';
import { commandEnv } from './env.js';
import { commandPreview } from './preview.js';
import { BLOCKED, PROBE, sandboxRefusedWrite } from './read-only.js';
import {
  networkOffered,
  runSandboxed,
  type SandboxedResult,
  type SandboxState,
  sandboxSoon,
} from './sandbox.js';
import { LIMITS } from './sandbox-args.js';
import type { BundledScript } from './targets.js';

export { visible } from '../../support/sanitize.js';

/** The grants of the approval's extra choices. */
export const GRANT_WRITE_CWD = 'write-cwd';
export const GRANT_NETWORK = 'network';

export const DEFAULT_TIMEOUT_S = 30;

const schema = z.object({
  command: z.string().trim().min(1).max(20_000),
  timeout: z.number().int().min(1).max(300).default(DEFAULT_TIMEOUT_S).describe('Seconds.'),
});

/** Where nothing is configured: the sandbox where there is one, no extra environment names. */
const DEFAULT_SETTINGS: ShellSettings = { sandbox: 'auto', envNames: [] };

/** The shell tool under this run's `shell_sandbox` and `shell_env` (decided once at start). */
export function createShellTool(settings: ShellSettings = DEFAULT_SETTINGS): Tool<typeof schema> {
  return {
    ...shell,
    async assess(args, ctx) {
      // The sandbox probe (a child process, once per process) runs while the grammar loads.
      const sandbox = sandboxSoon(settings.sandbox);
      const verdict = await assessLine(args.command, ctx);
      if (verdict.refuse) return verdict;
      const shown = verdict.bundled ? bundledLines(verdict.bundled, ctx) : undefined;
      const full = shown?.folded
        ? [...(commandPreview(args.command).full ?? [args.command]), ...shown.all]
        : commandPreview(args.command).full;
      const standing = verdict.warning ? undefined : await standingFor(args.command);
      return {
        ...verdict,
        ...sandboxSummary(await sandbox, ctx),
        ...(full ? { full: full.join('\n') } : {}),
        ...(standing ? { standing } : {}),
        ...(shown ? { shows: shown.lines } : {}),
      };
    },
    execute: (args, ctx) => execute(args, ctx, settings),
  };
}

const shell: Omit<Tool<typeof schema>, 'execute'> = {
  name: SHELL_TOOL.name,
  traits: SHELL_TOOL.traits,
  description: [
    'Run a command (sh; cmd.exe on Windows) here, no input. The user approves each: say what and why first.',
    'Destructive and indirect (eval, sh -c, pipe into a shell) commands are refused. Files: use file_*.',
    `Output ≤ ${formatBytes(MAX_OUTPUT_BYTES)}.`,
  ].join(' '),
  schema,
  kind: 'shell',
  label: (args) => {
    const line = visible(args.command.split('\n')[0] ?? '');
    return line.length > 60 ? `${line.slice(0, 57)}…` : line;
  },
  preview: (args, ctx) => {
    const lines = [...commandPreview(args.command).shown];
    if (ctx) lines.push(t('shell.preview.cwd', { cwd: ctx.cwd }));
    if (args.timeout !== DEFAULT_TIMEOUT_S) lines.push(t('shell.preview.timeout', { seconds: args.timeout }));
    return lines.join('\n');
  },
};

/** The policy's verdict on a command line (refusal, warning), before the sandbox is named. */
async function assessLine(
  command: string,
  ctx: ToolContext,
): Promise<Assessment & { bundled?: BundledScript[] }> {
  // A control character could make the command look different on the screen from what runs.
  if (hasControl(command)) {
    const shown = controlsIn(command).join(' ');
    return { refuse: t('shell.refuse.control', { shown }) };
  }
  // Loaded on first use: the parser is not needed to start a chat.
  const [{ assessCommand, describeVerdict }, { loadBashParser }, { isElevated }] = await Promise.all([
    import('./policy.js'),
    import('./tree.js'),
    import('./elevation.js'),
  ]);
  try {
    await loadBashParser();
  } catch (err) {
    throw new ToolError(
      `The shell's command parser could not be loaded (${(err as Error).message}), so no command can be checked or run. Tell the user their installation of zhi looks incomplete and should be reinstalled.`,
      { key: 'install.assetMissing', params: { name: 'tree-sitter-bash' } },
    );
  }
  const elevated = await isElevated();
  const skillFolders = ctx.extraReadable ?? [];
  const verdict = assessCommand(command, { cwd: ctx.cwd, outputDir: ctx.outputDir, elevated, skillFolders });
  return { ...describeVerdict(verdict), ...(verdict.bundled ? { bundled: verdict.bundled } : {}) };
}

/**
 * "Always allow" for the session, offered only for a command the policy has nothing to say about
 * (prefix.ts says which lines qualify and what prefix they give). The parser is loaded by now.
 */
async function standingFor(command: string): Promise<Assessment['standing']> {
  const { commandPrefix } = await import('./prefix.js');
  const prefix = commandPrefix(command);
  if (!prefix) return undefined;
  const label = prefix.exact
    ? t('shell.choice.alwaysExact', { command: prefix.shown })
    : t('shell.choice.alwaysPrefix', { prefix: prefix.shown });
  return { key: prefix.key, label };
}

type ShellArgs = z.infer<typeof schema>;

async function execute(args: ShellArgs, ctx: ToolContext, settings: ShellSettings): Promise<ToolResult> {
  const granted = ctx.granted ?? [];
  // The renderers show the elapsed time while this runs.
  const options = {
    cwd: ctx.cwd,
    outputDir: ctx.outputDir,
    allowWriteCwd: granted.includes(GRANT_WRITE_CWD),
    allowNetwork: granted.includes(GRANT_NETWORK),
    ...(ctx.extraReadable?.length ? { extraReadable: [...ctx.extraReadable] } : {}),
    timeoutMs: args.timeout * 1000,
    signal: ctx.signal,
    maxBytes: MAX_OUTPUT_BYTES,
    env: commandEnv(process.env, settings.envNames),
    mode: settings.sandbox,
  };
  const result = await runSandboxed(args.command, options);
  if (result.spawnError) throw new ToolError(`The shell could not be started: ${result.spawnError}`);
  // Only a restricted token that could not be set up gets here (a Job Object alone falls back).
  if (result.helperError)
    throw new ToolError(
      `The command did not run: the restricted token of shell_sandbox: restricted could not be set up (${result.helperError}). The person can set shell_sandbox to auto to run commands without it.`,
    );
  if (result.aborted)
    throw new ToolError(
      result.stopFailed
        ? 'Interrupted by the user; the command was stopped, but some processes it started could not be confirmed stopped and may still be running.'
        : 'Interrupted by the user; the command and everything it started were stopped.',
    );
  // A command that failed is a failed call: the person sees ✗, never ✓ above its error.
  const failed = result.timedOut || result.exitCode !== 0;
  // The sandbox's refusal, recognised by its cause in any language, is said in zhi's own words.
  const blocked =
    failed &&
    result.sandbox.kind !== 'none' &&
    (await sandboxRefusedWrite(`${result.stdout}\n${result.stderr}`, options.env, async () => {
      const probe = await runSandboxed(PROBE, {
        ...options,
        timeoutMs: 5000,
        allowWriteCwd: false,
        allowNetwork: false,
      });
      return `${probe.stdout}\n${probe.stderr}`;
    }));
  return { content: resultText(result, args, ctx, blocked), isError: failed };
}

/** Lines of a bundled script shown in the approval before `v` shows the rest. */
const SHOWN_SCRIPT_LINES = 40;

/**
 * A skill's scripts the command runs, as the approval shows them: each file's name and line
 * count, then its lines (the first 40; `v` shows all). The text is the file's now, and the skill's
 * folder is read-only inside the sandbox, so it is what runs.
 */
function bundledLines(
  scripts: readonly BundledScript[],
  ctx: Pick<ToolContext, 'cwd'>,
): { lines: string[]; all: string[]; folded: boolean } {
  const lines: string[] = [];
  const all: string[] = [];
  let folded = false;
  for (const s of scripts) {
    const file = displayPath(ctx.cwd, s.path);
    if (s.text === undefined) {
      const line = t('shell.bundled.unreadable', { file });
      lines.push(line);
      all.push(line);
      continue;
    }
    const text = s.text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    const header = t('shell.bundled.header', { file, lines: text.length });
    const body = text.map((l) => `  │ ${l}`);
    pushAll(lines, [header, ...body.slice(0, SHOWN_SCRIPT_LINES)]);
    pushAll(all, [header, ...body]);
    if (body.length > SHOWN_SCRIPT_LINES) {
      folded = true;
      lines.push(t('shell.bundled.more', { count: body.length - SHOWN_SCRIPT_LINES }));
    }
  }
  return { lines, all, folded };
}

/** For the model: how the command ended, its output, and what the sandbox allowed. */
function resultText(result: SandboxedResult, args: ShellArgs, ctx: ToolContext, blocked: boolean): string {
  const granted = ctx.granted ?? [];
  const parts: string[] = [];
  const seconds = (result.durationMs / 1000).toFixed(1);
  if (result.timedOut) {
    parts.push(
      `The command did not finish within ${args.timeout} s and was stopped${result.stopFailed ? '' : ', with everything it started'}. ` +
        'Output until then is below. If it needs longer, run it again with a larger timeout (at most 300).',
    );
  } else if (result.tooManyProcesses) {
    parts.push(
      `The command was stopped, with everything it started: it ran more than ${LIMITS.processes} processes at once (the sandbox's limit).`,
    );
  } else if (result.exitCode !== null) {
    parts.push(`Exit code: ${result.exitCode} (${seconds} s)`);
  } else {
    parts.push(`The command was ended by signal ${result.signal ?? 'unknown'} (${seconds} s)`);
  }
  if (result.stdout) parts.push(`stdout:\n${result.stdout.replace(/\n$/, '')}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr.replace(/\n$/, '')}`);
  if (!result.stdout && !result.stderr) parts.push('(no output)');
  if (result.stopFailed) {
    parts.push(
      'Some processes the command started could not be confirmed stopped and may still be running; ask the person to check Task Manager.',
    );
  } else if (result.leftovers && !result.timedOut) {
    parts.push('Processes the command left running in the background were stopped when it ended.');
  }
  if (blocked) parts.push(BLOCKED);
  if (result.egressRefused?.length) {
    const shown = result.egressRefused.slice(0, 5).join('\n');
    parts.push(`The network filter refused (only public internet addresses are reachable):\n${shown}`);
  }
  parts.push(sandboxNote(result.sandbox, ctx, granted));
  if (result.droppedBytes > 0) {
    parts.push(
      `[output truncated: kept the first ${formatBytes(MAX_OUTPUT_BYTES)} of ${formatBytes(result.totalBytes)}. ` +
        'Narrow the command (grep, head, tail) to see a specific part.]',
    );
  }
  return parts.join('\n\n');
}

/** The output folder as the person knows it: `zhi-output/` when it is inside the current folder. */
function outputShown(ctx: Pick<ToolContext, 'cwd' | 'outputDir'>): string {
  const rel = relative(ctx.cwd, ctx.outputDir);
  return rel && !rel.startsWith('..') && !rel.startsWith('/') ? `${rel}/` : ctx.outputDir;
}

/** The approval's last line, and the choices that widen the sandbox for this one command. */
export function sandboxSummary(state: SandboxState, ctx: Pick<ToolContext, 'cwd' | 'outputDir'>): Assessment {
  if (state.kind === 'none') {
    const key = state.reason === 'off' ? 'shell.sandbox.noneOff' : 'shell.sandbox.none';
    return { summary: { text: t(key), risky: true } };
  }
  const on = state.kind === 'seatbelt' ? 'shell.sandbox.onMac' : 'shell.sandbox.on';
  // On Linux the network is the filtering proxy's (net-bridge.ts); macOS can only allow it whole.
  const network = state.kind === 'bwrap' ? 'shell.choice.networkFiltered' : 'shell.choice.network';
  return {
    summary: { text: t(on, { dir: outputShown(ctx) }), risky: false },
    choices: [
      { key: 'w', label: t('shell.choice.writeCwd'), grant: GRANT_WRITE_CWD },
      ...(networkOffered(state) ? [{ key: 'i', label: t(network), grant: GRANT_NETWORK }] : []),
    ],
  };
}

/** For the model: what the sandbox allowed, so a "Read-only file system" makes sense to it. */
function sandboxNote(state: SandboxState, ctx: ToolContext, granted: readonly string[]): string {
  if (state.kind === 'none') return 'It ran without a sandbox.';
  const dirs = [outputShown(ctx), ...(granted.includes(GRANT_WRITE_CWD) ? [ctx.cwd] : [])].join(' and ');
  const allowed = granted.includes(GRANT_NETWORK) && networkOffered(state);
  const linux = state.kind === 'bwrap';
  const net = !allowed
    ? 'no network'
    : linux
      ? 'the internet only through a filtering proxy (HTTP_PROXY/HTTPS_PROXY are set; local, private and metadata addresses are refused with 403)'
      : 'the network';
  const seen = linux
    ? 'only the current folder, system folders and installed programs exist (no home folder, /var/tmp, /srv, /opt, /mnt or /run)'
    : 'the home folder outside the current folder is hidden';
  const limits = linux
    ? `; limits: /tmp ${formatBytes(LIMITS.tmpBytes)}, files ${formatBytes(LIMITS.fileBytes)}, ${LIMITS.processes} processes`
    : '';
  return (
    `It ran in a sandbox: it could create new files only under ${dirs} (and a private /tmp), with ${net}; ` +
    `files already there cannot be changed or deleted, ${seen}, ` +
    `secret files (keys, .env, histories) read as empty, and only a few environment variables are set${limits}. ` +
    'Writing elsewhere fails (the system says the file system is read-only). Write results as new files in the output folder, ' +
    'or the person can allow writing in the current folder or the network when approving the command.'
  );
}

/** The tool with the defaults (tests; a run gets `createShellTool(settings)` from the table). */
export default createShellTool();
