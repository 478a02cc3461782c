import { abortedError } from '../../llm/errors.js';
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
