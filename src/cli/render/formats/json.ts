import type { AgentResult, RunEvent } from '../../../agent/events.js';
import type { UsageTracker } from '../../../llm/usage.js';
import { screenSafe } from '../../../support/sanitize.js';
import { errorJson, formatError } from '../error.js';
import { type ConsumerOptions, type RunConsumer, RunFacts } from './consumer.js';

/**
 * What the two JSON formats share: the run's facts, the final document on stdout (each format
 * writes it its own way) and, when the run failed, the error's panel on stderr as a person reads it.
 */
export abstract class JsonConsumer implements RunConsumer {
  protected readonly stdout: NodeJS.WritableStream;
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
    const error = result.error ?? this.facts.lastError;
    const failed = error !== undefined && result.stopReason !== 'answer';
    const doc = failed
      ? errorJson(error)
      : resultJson(result, usage, this.facts.answeredBy ?? model, durationMs);
    this.stdout.write(this.documentText(doc));
    if (failed) this.stderr.write(formatError(error, this.o.err, { debug: this.o.debug }));
  }

  /** The final document (the result, or the error's JSON shape) as this format writes it on stdout. */
  protected abstract documentText(doc: object): string;
}

/**
 * `--output-format json`: nothing while the run goes, then one JSON document on stdout (the
 * answer, model, usage, cost, files), or the error's JSON shape (and its panel on stderr).
 */
export class JsonPrinter extends JsonConsumer {
  protected documentText(doc: object): string {
    return `${screenSafe(JSON.stringify(doc, null, 2))}\n`;
  }
}

function resultJson(result: AgentResult, usage: UsageTracker, model: string, durationMs: number) {
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
