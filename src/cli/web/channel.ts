/**
 * One stream of events (a conversation's, a skill run's) for any number of tabs, as Server-Sent
 * Events. The current run's events are kept, so a tab that opens late or reconnects draws the
 * run from its start (or, with `Last-Event-ID`, from after the last event it had); a tab that
 * closes only leaves the set of listeners — the run never hears of it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactDeep } from '../../support/redact.js';

interface Sent {
  id: number;
  event: string;
  data: string;
}

/** Every channel with a listener gets a comment line this often (proxies and browsers keep it open). */
export const PING_MS = 15_000;

/**
 * Events are written to the tabs at most this often, several in one write. A streamed answer
 * arrives as a delta every 10–20 ms; a write per delta cost the server more CPU than the terminal
 * spends drawing the same answer (a system call and a chunk of HTTP framing each), and a page
 * draws one frame per 16 ms anyway.
 */
export const FLUSH_MS = 32;

export class EventChannel {
  private kept: Sent[] = [];
  private nextId = 1;
  private readonly clients = new Set<ServerResponse>();
  /** Events not yet written to the tabs, as SSE text. */
  private pending = '';
  private timer: NodeJS.Timeout | undefined;

  /** A new run: what the last one said is dropped (its session file keeps it). */
  startRun(runId: string): void {
    this.kept = [];
    this.emit('run_start', { runId });
  }

  /** Send an event to every listener and keep it for those who come later. Strings are redacted. */
  emit(event: string, data: unknown): void {
    const sent: Sent = { id: this.nextId++, event, data: JSON.stringify(redactDeep(data)) };
    this.kept.push(sent);
    if (!this.clients.size) return;
    this.pending += frame(sent);
    // The end of a run is written at once: a client waiting for it should not wait a frame.
    if (event === 'run_end') this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Write what is pending to every tab, in one write each. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending;
    this.pending = '';
    if (text) for (const res of this.clients) write(res, text);
  }

  /** Listeners now (tests, and the approvals, which wait for a person). */
  get listeners(): number {
    return this.clients.size;
  }

  /** Answer a GET …/events: the kept events (after Last-Event-ID when it is one of them), then live ones. */
  attach(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // What the others have not been sent yet goes to them first, so the new tab's catch-up from
    // `kept` (which holds it) is not followed by it a second time.
    this.flush();
    const last = Number(req.headers['last-event-id']);
    const resumable = Number.isInteger(last) && this.kept.some((e) => e.id === last);
    let text = 'retry: 2000\n\n';
    for (const sent of this.kept) if (!resumable || sent.id > last) text += frame(sent);
    write(res, text);
    this.clients.add(res);
    const drop = () => this.clients.delete(res);
    req.on('close', drop);
    res.on('close', drop);
  }

  ping(): void {
    this.flush();
    for (const res of this.clients) res.write(': ping\n\n');
  }

  /** The server stops: every stream ends. */
  close(): void {
    this.flush();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}

function frame(sent: Sent): string {
  return `id: ${sent.id}\nevent: ${sent.event}\ndata: ${sent.data}\n\n`;
}

function write(res: ServerResponse, text: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(text);
}
