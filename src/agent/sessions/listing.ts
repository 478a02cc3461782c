/**
 * Finding saved sessions: listing them from the index (index-file.ts: only files that changed
 * since it was written are read), searching only the files whose title does not already match,
 * resolving an id or prefix, and deleting one.
 */
import { readFile, rm } from 'node:fs/promises';
import { byCodePoint } from '../../support/arrays.js';
import { searchable } from '../../support/graphemes.js';
import { messageText, type SessionKind } from './format.js';
import { type IndexEntry, indexedSessions, newestIndexed, verifyEntry } from './index-file.js';
import { summariseSession, tryParse } from './listing-summary.js';
import { mtimeIso, type SessionSummary, sessionDataDir, sessionFile } from './store.js';

export { summariseSession };

/** Whether the title, id or skill of a session contains `query` (no file read needed). */
function summaryMatches(summary: SessionSummary, q: string): boolean {
  return (
    searchable(summary.title).includes(q) ||
    summary.id.includes(q) ||
    searchable(summary.skill ?? '').includes(q)
  );
}

function textMatches(text: string, q: string): boolean {
  for (const raw of text.split('\n')) {
    if (
      !raw.startsWith('{"type":"message","role":"user"') &&
      !raw.startsWith('{"type":"message","role":"assistant"')
    ) {
      continue;
    }
    const line = tryParse(raw);
    if (line?.type === 'message' && searchable(messageText(line.message)).includes(q)) return true;
  }
  return false;
}

export interface ListOptions {
  /** Only sessions whose text contains this. */
  query?: string;
  /** Only sessions started in this folder. */
  cwd?: string;
  kinds?: SessionKind[];
  /**
   * Only the newest `shown` sessions will be shown: the others may come from the index without a
   * check of their file (index-file.ts) — their number and order are still those of the folder.
   */
  shown?: number;
}

/** Sessions, most recently used first. Unreadable files are skipped. */
export async function listSessions(dir: string, opts: ListOptions = {}): Promise<SessionSummary[]> {
  return (await listSessionsCounting(dir, opts, [])).found;
}

/**
 * The sessions `listSessions` gives, and how many sessions of the `other` kinds the same filters
 * find, in one pass over the folder and its index (`zhi sessions` says how many skill runs it
 * left out: a second listing read the 5,000-line index twice).
 */
export async function listSessionsCounting(
  dir: string,
  opts: ListOptions,
  other: SessionKind[],
): Promise<{ found: SessionSummary[]; others: number }> {
  const q = searchable(opts.query?.trim() ?? '');
  const out: IndexEntry[] = [];
  let others = 0;
  // A search reads the files whose title does not match: their index lines are checked too.
  for (const entry of indexedSessions(dir, { trust: opts.shown !== undefined && !q })) {
    if (opts.cwd && entry.cwd !== opts.cwd) continue;
    const listed = !opts.kinds || opts.kinds.includes(entry.kind);
    if (!listed && !other.includes(entry.kind)) continue;
    if (q && !summaryMatches(entry, q)) {
      // Only sessions whose title does not match are searched, one file at a time.
      const text = await readFile(entry.file, 'utf8').catch(() => '');
      if (!textMatches(text, q)) continue;
    }
    if (listed) out.push(entry);
    else others++;
  }
  sortNewestFirst(out);
  if (opts.shown !== undefined) checkNewest(dir, out, opts.shown);
  // The entries themselves (an IndexEntry is a summary with the index's fields besides): copying
  // thousands of them without those fields cost more than sorting them.
  return { found: out, others };
}

const sortNewestFirst = (list: IndexEntry[]) =>
  list.sort((a, b) => byCodePoint(b.updated, a.updated) || byCodePoint(b.id, a.id));

/**
 * Check the files of the first `n` entries against their index lines; a changed one is re-read
 * (it can only have moved up), a gone one dropped, until the first `n` are all checked.
 */
function checkNewest(dir: string, list: IndexEntry[], n: number): void {
  for (let i = 0; i < Math.min(n, list.length); ) {
    const entry = list[i]!;
    const now = verifyEntry(dir, entry);
    const same = now !== undefined && now.size === entry.size && now.mtimeMs === entry.mtimeMs;
    if (now) list[i] = now;
    else list.splice(i, 1);
    if (same) i++;
    else {
      sortNewestFirst(list);
      i = 0;
    }
  }
}

/** The summary without the index's own fields. */
function summaryOf(entry: IndexEntry): SessionSummary {
  const { size: _size, mtimeMs: _mtime, live: _live, unchecked: _unchecked, ...s } = entry;
  return s;
}

export type FindResult = { found: SessionSummary } | { none: true } | { ambiguous: SessionSummary[] };

/** A session by its id, a unique prefix of it, or a unique part of it (the short random tail). */
export async function findSession(dir: string, query: string): Promise<FindResult> {
  const q = query.trim().replace(/\.jsonl$/, '');
  if (/^[\w-]+$/.test(q)) {
    // The whole id: read just that file.
    const file = sessionFile(dir, q);
    const data = await readFile(file).catch(() => undefined);
    const s = data && summariseSession(data, file);
    if (s) return { found: { ...s, updated: await mtimeIso(file, s.updated) } };
  }
  const all = await listSessions(dir);
  const exact = all.find((s) => s.id === q);
  if (exact) return { found: exact };
  for (const test of [(s: SessionSummary) => s.id.startsWith(q), (s: SessionSummary) => s.id.includes(q)]) {
    const hits = q ? all.filter(test) : [];
    if (hits.length === 1) return { found: hits[0]! };
    if (hits.length > 1) return { ambiguous: hits };
  }
  return { none: true };
}

/**
 * The most recently used conversation started in `cwd` (skill runs are not conversations).
 * From the index when it can tell (one file opened, not thousands), else from a listing.
 */
export async function latestSession(dir: string, cwd: string): Promise<SessionSummary | undefined> {
  const isConversation = (s: SessionSummary) =>
    s.cwd === cwd && (s.kind === 'repl' || s.kind === 'oneshot') && s.turns > 0;
  const newest = newestIndexed(dir, isConversation);
  if (newest !== 'unsure') return newest && summaryOf(newest);
  return (await listSessions(dir, { cwd, kinds: ['repl', 'oneshot'] })).filter((s) => s.turns > 0)[0];
}

export async function deleteSession(dir: string, id: string): Promise<void> {
  await rm(sessionFile(dir, id), { force: true });
  await rm(sessionDataDir(dir, id), { recursive: true, force: true });
}
