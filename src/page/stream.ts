// A run's events as Server-Sent Events (docs/web-api.md): `run` (one RunEvent), `approval`,
// `approval_done`, `run_start`, `run_end`, `note`. EventSource reconnects by itself and sends
// Last-Event-ID; the server then replays the current run from its start, which `run_start`
// announces, so a listener resets what it drew of that run and draws it again.
import type { Approval, RunEvent } from './types.js';

export interface StreamHandlers {
  event(ev: RunEvent): void;
  runStart?(runId: string): void;
  runEnd?(runId: string, result: unknown): void;
  approval?(a: Approval): void;
  approvalDone?(id: string, answer: string): void;
  /** A line the server says about the run (an attachment read: "Attached notes.md (text, 31 B)"). */
  note?(text: string): void;
  /** The connection dropped (true) or came back (false). */
  offline?(down: boolean): void;
}

export function openStream(url: string, h: StreamHandlers): () => void {
  const source = new EventSource(url);
  const on = (name: string, fn: (data: unknown) => void) =>
    source.addEventListener(name, (e) => {
      const data = parse((e as MessageEvent<string>).data);
      if (data !== undefined) fn(data);
    });
  on('run', (d) => h.event(d as RunEvent));
  on('run_start', (d) => h.runStart?.((d as { runId: string }).runId));
  on('run_end', (d) => h.runEnd?.((d as { runId: string }).runId, (d as { result?: unknown }).result));
  on('approval', (d) => h.approval?.(d as Approval));
  on('approval_done', (d) => h.approvalDone?.((d as { id: string }).id, (d as { answer: string }).answer));
  on('note', (d) => h.note?.((d as { text: string }).text));
  source.onerror = () => h.offline?.(true);
  source.onopen = () => h.offline?.(false);
  return () => source.close();
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
