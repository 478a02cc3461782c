/**
 * How far V8 lets its heap grow over what is live. By default the old generation grows to up to
 * four times what was live at the last full collection when collecting looks cheap, and the young
 * generation doubles whenever much survives a scavenge (on Node 24 up to tens of MB). Work that
 * allocates a lot per piece and keeps little of it (a long document's parts: each part's text,
 * request and answer are garbage once its result is on disk) then holds several times what it
 * uses: a 30 MB document peaked at 2.2–2.6 MB of memory per MB of text on Node 20 and 6.5 on
 * Node 24. Letting the old generation grow by half, and the young one not at all, keeps the peak
 * near what is live (0.6–0.9 MB per MB on Node 20, 1.1–1.3 on Node 22 and 24) for about the same
 * CPU: more collections, each of a smaller heap.
 *
 * V8 reads both flags each time it sizes a space, so setting them mid-run applies from the next
 * collection (the sizes themselves, fixed at start, cannot be changed later). They are
 * process-wide and stay set: a later long document in the same REPL wants them too.
 */
import { setFlagsFromString } from 'node:v8';

let tight = false;

/** From now on, keep the heap close to what is live (see above). Once per process. */
export function keepHeapTight(): void {
  if (tight) return;
  tight = true;
  setFlagsFromString('--heap-growing-percent=50');
  setFlagsFromString('--semi-space-growth-factor=1');
}
