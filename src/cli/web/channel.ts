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

export class EventChannel {
  private kept: Sent[] = [];
  private nextId = 1;
  private readonly clients = new Set<ServerResponse>();

  /** A new run: what the last one said is dropped (its session file keeps it). */
  startRun(runId: string): void {
    this.kept = [];
    this.emit('run_start', { runId });
  }

  /** Send an event to every listener and keep it for those who come later. Strings are redacted. */
  emit(event: string, data: unknown): void {
    const sent: Sent = { id: this.nextId++, event, data: JSON.stringify(redactDeep(data)) };
    this.kept.push(sent);
    for (const res of this.clients) write(res, sent);
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
    res.write('retry: 2000\n\n');
    const last = Number(req.headers['last-event-id']);
    const resumable = Number.isInteger(last) && this.kept.some((e) => e.id === last);
    for (const sent of this.kept) if (!resumable || sent.id > last) write(res, sent);
    this.clients.add(res);
    const drop = () => this.clients.delete(res);
    req.on('close', drop);
    res.on('close', drop);
  }

  ping(): void {
    for (const res of this.clients) res.write(': ping\n\n');
  }

  /** The server stops: every stream ends. */
  close(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}

function write(res: ServerResponse, sent: Sent): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(`id: ${sent.id}\nevent: ${sent.event}\ndata: ${sent.data}\n\n`);
}
