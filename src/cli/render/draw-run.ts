/**
 * A run drawn the way chat is drawn, wherever it happens (a REPL message, a `/run`, `zhi -c` in a
 * terminal): the answer as Markdown on stdout, tool lines and progress on stderr, one closing line.
 */
import type { AgentResult, RunEvent } from '../../agent/events.js';
import type { UsageTracker } from '../../llm/usage.js';
import type { AppContext } from '../context.js';
import { pump } from '../interrupt.js';
import type { ReplRenderer } from './repl-renderer.js';

export interface RunStreams {
  /** Where the answer goes. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /** Where progress, tool lines and the closing line go. */
  stderr: (s: string) => void;
}

/** Both streams are a colour terminal that can move the cursor: a run is drawn as the REPL draws it. */
export function richTerminal(ctx: AppContext): boolean {
  return ctx.stdoutIsTTY && ctx.stderrIsTTY && ctx.out.enabled && ctx.err.enabled && ctx.env.TERM !== 'dumb';
}

let rendererModule: Promise<typeof import('./repl-renderer.js')> | undefined;
/** The Markdown renderer (marked): loaded after the prompt shows, never before. */
export function loadRenderer(): Promise<typeof import('./repl-renderer.js')> {
  rendererModule ??= import('./repl-renderer.js');
  return rendererModule;
}

/**
 * The renderer for these streams: rich on a colour terminal that can move the cursor, plain on
 * one that cannot (blocks printed once, as without colour), pipe when stdout is not a terminal.
 */
export async function runRenderer(
  ctx: AppContext,
  streams: RunStreams,
  o: { verbose: () => boolean; animate?: boolean; oneShot?: boolean },
): Promise<ReplRenderer> {
  const { ReplRenderer } = await loadRenderer();
  const { stdout } = streams;
  const drawable = ctx.out.enabled && ctx.err.enabled && ctx.env.TERM !== 'dumb';
  return new ReplRenderer({
    mode: stdout.isTTY ? (drawable ? 'rich' : 'plain') : 'pipe',
    term: {
      write: (s) => stdout.write(s),
      columns: () => stdout.columns || 80,
      rows: () => stdout.rows || 24,
    },
    out: ctx.out,
    err: ctx.err,
    stderr: streams.stderr,
    verbose: o.verbose,
    debug: ctx.args.flags.debug,
    cwd: ctx.cwd,
    ...(o.animate !== undefined ? { animate: o.animate } : {}),
    ...(o.oneShot ? { oneShot: true } : {}),
  });
}

/** Draw every event of a run, then its closing line (`usage`: the run's, once it ended). */
export async function drawRun(
  renderer: ReplRenderer,
  run: AsyncGenerator<RunEvent, AgentResult>,
  usage: () => UsageTracker,
  started = Date.now(),
): Promise<AgentResult> {
  try {
    const result = await pump(run, (ev) => renderer.handle(ev));
    renderer.finish(result, usage(), Date.now() - started);
    return result;
  } catch (err) {
    renderer.dispose();
    throw err;
  }
}
