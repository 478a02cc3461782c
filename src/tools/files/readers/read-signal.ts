/**
 * The Ctrl+C of the read under way, for the readers deep inside it (a zip part's stream, a big
 * XML part parsed in slices) without threading a signal through every reader: readDocument runs
 * the read in `withReadSignal`, and what it calls asks `readSignal()`. Parsing in slices gives
 * the event loop a turn between them, so the key press (or SIGINT) is seen while a big part is
 * read, and the read stops at the next slice.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DocumentError } from './types.js';

const current = new AsyncLocalStorage<AbortSignal>();

export function withReadSignal<T>(signal: AbortSignal | undefined, read: () => Promise<T>): Promise<T> {
  return signal ? current.run(signal, read) : read();
}

export function readSignal(): AbortSignal | undefined {
  return current.getStore();
}

export function interrupted(): DocumentError {
  return new DocumentError('unreadable', 'Interrupted.');
}

/** Stop here when the read was interrupted. */
export function checkRead(): void {
  if (current.getStore()?.aborted) throw interrupted();
}

/** Give the event loop a turn (a key press, a signal), then stop when the read was interrupted. */
export async function yieldRead(): Promise<void> {
  await nextTurn();
  checkRead();
}
