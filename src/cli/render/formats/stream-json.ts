import { isFolderEvent, type RunEvent } from '../../../agent/events.js';
import { exhaustive } from '../../../support/exhaustive.js';
import { screenSafe } from '../../../support/sanitize.js';
import { errorJson } from '../error.js';
import { JsonConsumer } from './json.js';

/**
 * `--output-format stream-json`: every event as one JSON line on stdout as it happens (nested
 * text deltas left out: the nested run's message carries its text), then a `result` line.
 */
export class StreamJsonPrinter extends JsonConsumer {
  override handle(ev: RunEvent): void {
    super.handle(ev);
    if (isDelta(ev) && ev.type === 'nested') return;
    this.stdout.write(`${screenSafe(JSON.stringify(streamJsonEvent(ev)))}\n`);
  }

  protected documentText(doc: object): string {
    return `${screenSafe(JSON.stringify({ type: 'result', ...doc }))}\n`;
  }
}

export function isDelta(ev: RunEvent): boolean {
  const inner = ev.type === 'nested' ? ev.event : ev;
  return inner.type === 'text_delta' || inner.type === 'thinking_delta';
}

/**
 * One stream-json line: errors as their JSON shape, nested events with their chain. The web
 * server's event stream sends the same objects (cli/web/conversations.ts).
 */
export function streamJsonEvent(ev: RunEvent): unknown {
  if (isFolderEvent(ev)) return ev;
  switch (ev.type) {
    case 'nested':
      return { type: 'nested', chain: ev.chain, event: streamJsonEvent(ev.event) };
    case 'error':
      return { type: 'error', ...errorJson(ev.error) };
    case 'done': {
      const { error, ...rest } = ev.result;
      return { type: 'done', result: { ...rest, ...(error ? errorJson(error) : {}) } };
    }
    case 'turn_start':
    case 'text_delta':
    case 'thinking_delta':
    case 'retry':
    case 'message':
    case 'tool_start':
    case 'permission':
    case 'tool_end':
    case 'progress':
    case 'usage':
    case 'warning':
    case 'user':
    case 'skill_start':
    case 'skill_step':
    case 'skill_kept':
    case 'skill_ocr':
    case 'skill_asr':
    case 'tool_call_writing':
      return ev;
    default:
      return exhaustive(ev);
  }
}
