import { MessageAccumulator } from '../../llm/accumulate.js';
import { abortedError } from '../../llm/errors.js';
import { type ChunkJson, readWhole } from '../../llm/response.js';
import type { ChatRequest, LlmClient, StreamEvent } from '../../llm/types.js';

/**
 * Stands in for the model to learn the first request a skill run would send, without sending
 * it: the request is kept and the call ends as if interrupted. The Batch API submits exactly that
 * request, and `--dry-run` measures it.
 */
export class CapturingClient implements LlmClient {
  request: ChatRequest | undefined;

  async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    this.request ??= req;
    yield { type: 'error', error: abortedError(), partial: { role: 'assistant', content: '' } };
  }
}

/**
 * A model whose first answer is already known (a Batch API result): the first call replays it,
 * its usage marked as batch (half price); every later call — the run's remaining tool turns —
 * goes to the real client.
 */
export class PrimedClient implements LlmClient {
  private used = false;

  constructor(
    private readonly inner: LlmClient,
    private readonly first: ChunkJson,
  ) {}

  async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    if (this.used) {
      yield* this.inner.stream(req);
      return;
    }
    this.used = true;
    for (const ev of readWhole(this.first, new MessageAccumulator(), req.model)) {
      if ((ev.type === 'done' || ev.type === 'error') && ev.usage)
        yield { ...ev, usage: { ...ev.usage, batch: true } };
      else yield ev;
    }
  }
}
