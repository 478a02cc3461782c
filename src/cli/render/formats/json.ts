import type { AgentResult, RunEvent } from '../../../agent/events.js';
import type { UsageTracker } from '../../../llm/usage.js';
import { errorJson, formatError } from '../error.js';
import { type ConsumerOptions, type RunConsumer, RunFacts } from './consumer.js';

/**
 * `--output-format json`: nothing while the run goes, then one JSON document on stdout (the
 * answer, model, usage, cost, files), or the error's JSON shape (and its panel on stderr).
 */
export class JsonPrinter implements RunConsumer {
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;
  private readonly facts = new RunFacts();

  constructor(private readonly o: ConsumerOptions) {
    this.stdout = o.stdout ?? process.stdout;
    this.stderr = o.stderr ?? process.stderr;
  }

  get skillModel(): string | undefined {
    return this.facts.skillModel;
  }

  handle(ev: RunEvent): void {
    this.facts.note(ev);
  }

  finish(result: AgentResult, usage: UsageTracker, model: string, durationMs: number): void {
    const doc = finalDocument(this.facts, result, usage, model, durationMs);
    this.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    reportFailure(this.facts, result, this.stderr, this.o);
  }
}

/** The run's result as JSON, or its error's JSON shape when it did not end with an answer. */
export function finalDocument(
  facts: RunFacts,
  result: AgentResult,
  usage: UsageTracker,
  model: string,
  durationMs: number,
) {
  const error = result.error ?? facts.lastError;
  return error && result.stopReason !== 'answer'
    ? errorJson(error)
    : resultJson(result, usage, facts.answeredBy ?? model, durationMs);
}

/** A run that failed also says so on stderr, as a person reads it. */
export function reportFailure(
  facts: RunFacts,
  result: AgentResult,
  stderr: NodeJS.WritableStream,
  o: ConsumerOptions,
): void {
  const error = result.error ?? facts.lastError;
  if (error && result.stopReason !== 'answer') stderr.write(formatError(error, o.err, { debug: o.debug }));
}

export function resultJson(result: AgentResult, usage: UsageTracker, model: string, durationMs: number) {
  const total = usage.total();
  const cost = usage.cost();
  return {
    response: result.text,
    model,
    usage: {
      prompt_tokens: total.promptTokens,
      completion_tokens: total.completionTokens,
      total_tokens: total.totalTokens,
      cached_tokens: total.cachedTokens,
      reasoning_tokens: total.reasoningTokens,
    },
    cost: { amount: Number(cost.amount.toFixed(6)), currency: cost.currency, covered_by_plan: cost.covered },
    files_written: result.filesWritten.map((f) => f.path),
    tool_calls: result.toolCalls,
    turns: result.turns,
    duration_ms: Math.round(durationMs),
    ...(result.truncated ? { truncated: true } : {}),
  };
}
