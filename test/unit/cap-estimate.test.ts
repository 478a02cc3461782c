import { describe, expect, it } from 'vitest';
import { CapEstimate } from '../../src/agent/folder/cap-estimate.js';

/** An estimate on a clock the test moves. */
function clocked() {
  let now = 0;
  const learned: number[] = [];
  const est = new CapEstimate(
    (n) => learned.push(n),
    () => now,
  );
  return { est, learned, at: (t: number) => (now = t) };
}

describe('CapEstimate', () => {
  it('learns the cap from a burst, whatever order the refused calls were in', () => {
    const { est, learned, at } = clocked();
    const spans = Array.from({ length: 16 }, () => est.begin());
    // The API took the odd ones (they reached it first) and refused the even ones.
    at(1);
    for (let i = 0; i < 16; i += 2) est.end(spans[i]!, 'refused');
    expect(learned).toEqual([]); // the accepted calls are still running
    at(50);
    for (let i = 1; i < 16; i += 2) est.end(spans[i]!, 'accepted');
    expect(learned.length).toBe(8);
    expect(new Set(learned)).toEqual(new Set([8]));
  });

  it('a refusal read late (a busy event loop) counts the most calls at one moment, not all that came and went', () => {
    const { est, learned, at } = clocked();
    const first = Array.from({ length: 8 }, () => est.begin());
    at(1);
    const refused = est.begin();
    at(50);
    for (const s of first) est.end(s, 'accepted');
    const next = Array.from({ length: 8 }, () => est.begin());
    at(60);
    est.end(refused, 'refused'); // read only now: sixteen accepted calls overlapped it, eight at once
    at(100);
    for (const s of next) est.end(s, 'accepted');
    expect(learned).toEqual([8]);
  });

  it('calls answered but not yet read when others are sent make the bound looser, never lower', () => {
    const { est, learned, at } = clocked();
    const first = Array.from({ length: 8 }, () => est.begin());
    at(1);
    const refused = est.begin();
    at(45);
    const next = Array.from({ length: 8 }, () => est.begin());
    at(50);
    for (const s of first) est.end(s, 'accepted');
    at(60);
    est.end(refused, 'refused');
    at(100);
    for (const s of next) est.end(s, 'accepted');
    expect(learned).toEqual([16]);
  });

  it('a retry after its backoff overlaps only what runs once it is sent', () => {
    const { est, learned, at } = clocked();
    const long = Array.from({ length: 4 }, () => est.begin());
    at(1);
    const a = est.begin();
    est.end(a, 'refused');
    const retry = est.begin(101); // the client sends it again 100 ms later
    at(40);
    for (const s of long) est.end(s, 'accepted');
    expect(learned).toEqual([4]);
    at(101);
    const other = est.begin();
    at(102);
    est.end(retry, 'refused');
    at(150);
    est.end(other, 'accepted');
    // Only `other` overlapped the retry: the four long calls had ended before it was sent.
    expect(learned).toEqual([4, 1]);
  });

  it('a refusal with nothing of ours in flight (another client on the key) means one at a time', () => {
    const { est, learned } = clocked();
    est.end(est.begin(), 'refused');
    expect(learned).toEqual([1]);
  });

  it('calls turned away for other reasons teach nothing', () => {
    const { est, learned, at } = clocked();
    const a = est.begin();
    const b = est.begin();
    at(5);
    est.end(a, 'turned-away');
    est.end(b, 'accepted');
    expect(learned).toEqual([]);
  });
});
