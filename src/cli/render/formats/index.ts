/**
 * The output formats of `--output-format`, one entry each: the consumer of a run's events
 * (one-shot, pipe, `zhi run`), loaded when a run needs it, and how a subcommand that prints data
 * (`zhi sessions`, `zhi usage`, `zhi skill list`, `zhi batch`) prints it. The format is looked up
 * here once; nothing else compares format names.
 */
import type { OutputFormat } from '../../args.js';
import type { AppContext } from '../../context.js';
import type { ConsumerOptions, RunConsumer } from './consumer.js';

export type { ConsumerOptions, RunConsumer } from './consumer.js';

export interface OutputFormatEntry {
  /** The consumer of a run's events in this format. */
  consumer(o: ConsumerOptions): Promise<RunConsumer>;
  /** Data (lists, reports, an error that ends the program) printed for people, or as JSON on stdout. */
  data: 'text' | 'json';
  /** On a colour terminal, `zhi -c` is drawn like chat (the REPL's renderer) instead. */
  drawnLikeChat: boolean;
}

export const OUTPUT_FORMATS: Record<OutputFormat, OutputFormatEntry> = {
  text: {
    consumer: async (o) => new (await import('./text.js')).TextPrinter(o),
    data: 'text',
    drawnLikeChat: true,
  },
  json: {
    consumer: async (o) => new (await import('./json.js')).JsonPrinter(o),
    data: 'json',
    drawnLikeChat: false,
  },
  'stream-json': {
    consumer: async (o) => new (await import('./stream-json.js')).StreamJsonPrinter(o),
    data: 'json',
    drawnLikeChat: false,
  },
};

/** The consumer of this invocation's format (or `format`), on its streams and flags. */
export function runConsumer(
  ctx: AppContext,
  format: OutputFormat = ctx.args.flags.outputFormat,
  streams: Pick<ConsumerOptions, 'stdout' | 'stderr' | 'stdoutIsTTY' | 'stderrIsTTY' | 'out' | 'err'> = {
    out: ctx.out,
    err: ctx.err,
    stdoutIsTTY: ctx.stdoutIsTTY,
    stderrIsTTY: ctx.stderrIsTTY,
  },
): Promise<RunConsumer> {
  return OUTPUT_FORMATS[format].consumer({
    ...streams,
    verbose: ctx.args.flags.verbose,
    debug: ctx.args.flags.debug,
    cwd: ctx.cwd,
  });
}

/** Does this format print data as JSON (subcommands' lists and reports, a fatal error)? */
export function dataAsJson(format: OutputFormat): boolean {
  return OUTPUT_FORMATS[format].data === 'json';
}
