// A skill run as the page draws it, from its events: per-file rows of a folder run, the counts,
// the money spent, a batch job's state, the end summary; a run on one input draws like a chat.
import { Thread } from './thread.js';
import type { Counts, RunEvent } from './types.js';

export interface FileRow {
  file: string;
  status: string;
  reason?: string;
  outputs?: string[];
  cost?: number;
}

export interface BatchState {
  id: string;
  phase: string;
  status: string;
  total?: number;
  completed?: number;
  failed?: number;
}

export type FolderEnd = Extract<RunEvent, { type: 'folder_end' }>;

export class RunProgress {
  files = new Map<string, FileRow>();
  counts: Counts | undefined;
  spent = 0;
  currency = 'CNY';
  batch: BatchState | undefined;
  paused = false;
  end: FolderEnd | undefined;
  step = '';
  running = false;
  readonly thread = new Thread();

  reset(): void {
    this.files.clear();
    this.counts = undefined;
    this.spent = 0;
    this.batch = undefined;
    this.paused = false;
    this.end = undefined;
    this.step = '';
    this.running = true;
    this.thread.start();
  }

  apply(ev: RunEvent): void {
    const inner = ev.type === 'nested' ? ev.event : ev;
    switch (inner.type) {
      case 'folder_start':
        this.counts = inner.counts;
        this.currency = inner.currency;
        return;
      case 'folder_file': {
        const row = this.files.get(inner.file) ?? { file: inner.file, status: inner.status };
        // A long document's part or a retry keeps the row's state; 'cleaned' is housekeeping.
        if (inner.status !== 'part' && inner.status !== 'cleaned') row.status = inner.status;
        if (inner.reason) row.reason = inner.reason;
        if (inner.outputs) row.outputs = inner.outputs;
        if (inner.cost !== undefined) row.cost = inner.cost;
        this.files.set(inner.file, row);
        this.counts = inner.counts;
        this.spent = inner.spent;
        return;
      }
      case 'folder_batch':
        this.batch = { ...inner };
        return;
      case 'folder_wait':
        this.paused = inner.phase === 'paused';
        return;
      case 'folder_end':
        this.end = inner;
        this.counts = inner.counts;
        this.spent = inner.spent;
        this.currency = inner.currency;
        return;
      case 'skill_step':
        this.step = `[${inner.index}/${inner.total}] ${inner.label}`;
        return;
      default:
        if (ev.type !== 'nested') this.thread.apply(ev);
        if (ev.type === 'done') this.running = false;
        return;
    }
  }

  get isFolder(): boolean {
    return this.counts !== undefined;
  }
}
