/**
 * A small index of saved sessions (`index.ndjson` in the sessions folder): one line per session
 * with what a listing shows (id, title, model, kind, folder, cost, updated…) and the size and
 * modification time of its file when the line was written. It is a cache, never the truth: an
 * entry is used only while its file still has that size and time, so an index that is missing,
 * stale, half-written or raced by two processes costs a re-read of the files that changed,
 * never a wrong answer. Sessions add their line when they close; listings add lines for files
 * they had to read and rewrite the file when it has grown much longer than the sessions it lists.
 *
 * A session also adds a "live" line when it starts writing (size -1): until its closing line,
 * it may change at any moment. `--continue` relies on that to open one file instead of all of
 * them (newestIndexed): a closed session's line is taken as it is, a live one is read.
 * `zhi sessions` does the same when the folder has not changed since the index was written (no
 * file added, removed or replaced): a closed session's line is taken without a stat of its file,
 * and only the sessions it shows are checked (verifyEntry). Checking 5,000 files cost more than
 * everything else the listing does.
 */
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { basename, join, sep } from 'node:path';
import { summariseSession } from './listing-summary.js';
import type { SessionSummary } from './store.js';

export const INDEX_FILE = 'index.ndjson';
const VERSION = 1;

/** A listing's summary plus the file state it was read from. */
export interface IndexEntry extends SessionSummary {
  size: number;
  mtimeMs: number;
  /** Written to since its last closing line (or never closed: a crash). */
  live?: boolean;
  /** Taken from the index without checking its file (see verifyEntry); never stored. */
  unchecked?: boolean;
}

function indexPath(dir: string): string {
  return join(dir, INDEX_FILE);
}

/** The entries of the index file by id (the last line of an id wins); empty when unreadable. */
function readIndex(dir: string): { entries: Map<string, IndexEntry>; lines: number } {
  const entries = new Map<string, IndexEntry>();
  let text: string;
  try {
    text = readFileSync(indexPath(dir), 'utf8');
  } catch {
    return { entries, lines: 0 };
  }
  const lines = text.split('\n');
  if (!lines[0]?.startsWith(`{"v":${VERSION}`)) return { entries, lines: 0 };
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw) continue;
    try {
      const e = JSON.parse(raw) as IndexEntry;
      if (typeof e.id === 'string' && typeof e.size === 'number') entries.set(e.id, e);
    } catch {
      // A half-written line (a crash mid-append): that session is read from its file.
    }
  }
  return { entries, lines: lines.length };
}

/** One index line; the file path is not stored (it follows from the folder and the id). */
function serialise(e: IndexEntry): string {
  const { file: _file, unchecked: _unchecked, ...rest } = e;
  return `${JSON.stringify(rest)}\n`;
}

/**
 * Every session in `dir`, from the index where it is fresh and from the file where it is not.
 * Brings the index up to date as a side effect (best effort: a read-only folder still lists).
 * With `trust`, a closed session's line is taken without checking its file while the folder is
 * unchanged since the index was written: such entries are `unchecked`, and a caller checks those
 * it shows (verifyEntry).
 */
export function indexedSessions(dir: string, o: { trust?: boolean } = {}): IndexEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const { entries, lines } = readIndex(dir);
  const trust = o.trust === true && lines > 0 && folderUnchanged(dir);
  const out: IndexEntry[] = [];
  const fresh: IndexEntry[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl') || name === INDEX_FILE) continue;
    // Not join(): a plain name in a folder, thousands of times (join normalises each path again).
    const file = `${dir}${sep}${name}`;
    const id = name.slice(0, -'.jsonl'.length);
    const known = entries.get(id);
    if (trust && known && !known.live && known.size >= 0) {
      known.file = file;
      known.unchecked = true;
      out.push(known);
      continue;
    }
    let st: { size: number; mtimeMs: number; mtime: Date };
    try {
      st = statSync(file);
    } catch {
      continue;
    }
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) {
      known.file = file;
      out.push(known);
      continue;
    }
    const entry = readEntry(file, st);
    if (!entry) continue;
    // Still open elsewhere (or never closed): stays live until its session closes.
    if (known?.live) entry.live = true;
    out.push(entry);
    fresh.push(entry);
  }
  // Rewrite when the index has grown well past the sessions it lists (updates and deletions).
  if (lines > 2 * out.length + 50) rewriteIndex(dir, out);
  else if (fresh.length) appendIndex(dir, fresh);
  else if (o.trust && !trust && lines > 0) touchIndex(dir);
  return out;
}

/**
 * Whether nothing was added to, removed from or renamed in the folder since the index was last
 * written (a folder's time changes with its entries, not with a file's content). Equal times
 * (a coarse clock) count as changed.
 */
function folderUnchanged(dir: string): boolean {
  const folder = statOrUndefined(dir);
  const index = statOrUndefined(indexPath(dir));
  return Boolean(folder && index && folder.mtimeMs < index.mtimeMs);
}

/** Every file was just checked against the index: it is as new as the folder again. */
function touchIndex(dir: string): void {
  try {
    const now = new Date();
    utimesSync(indexPath(dir), now, now);
  } catch {
    // Best effort: the next listing checks every file again.
  }
}

/**
 * An entry as its file is now: itself when the file still has the size and time of the index
 * line, re-read when it changed, undefined when it is gone or unreadable.
 */
export function verifyEntry(dir: string, entry: IndexEntry): IndexEntry | undefined {
  if (!entry.unchecked) return entry;
  const file = join(dir, `${entry.id}.jsonl`);
  const st = statOrUndefined(file);
  if (!st) return undefined;
  if (st.size === entry.size && st.mtimeMs === entry.mtimeMs) return { ...entry, file, unchecked: false };
  const read = readEntry(file, st);
  if (read) appendIndex(dir, [read]);
  return read;
}

function readEntry(file: string, st: { size: number; mtimeMs: number; mtime: Date }): IndexEntry | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const s = summariseSession(data, file);
  if (!s) return undefined;
  // Size as read: a session being written may have grown since the stat.
  return {
    ...s,
    updated: st.mtime.toISOString(),
    size: data.length === st.size ? st.size : -1,
    mtimeMs: st.mtimeMs,
  };
}

/**
 * The newest session `keep` accepts (by last write, then id, as listings sort), reading the
 * index and as few files as it can: the ones the index does not know or knows as live, and the
 * winner (its size and time must still match). `undefined`: none; `'unsure'`: the index cannot
 * tell (missing, too many unknown files, the winner changed) — list the sessions instead.
 */
export function newestIndexed(
  dir: string,
  keep: (s: IndexEntry) => boolean,
): IndexEntry | undefined | 'unsure' {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 'unsure';
  }
  const { entries, lines } = readIndex(dir);
  if (!lines) return 'unsure';
  let best: IndexEntry | undefined;
  const better = (e: IndexEntry) =>
    !best || e.updated > best.updated || (e.updated === best.updated && e.id > best.id);
  const doubtful: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const known = entries.get(name.slice(0, -'.jsonl'.length));
    if (!known || known.live || known.size < 0) doubtful.push(name);
    else if (keep(known) && better(known)) best = known;
  }
  // Many files the index does not know (written behind zhi's back): a listing rebuilds it.
  if (doubtful.length > 20) return 'unsure';
  if (best) {
    const file = join(dir, `${best.id}.jsonl`);
    const st = statOrUndefined(file);
    if (!st || st.size !== best.size || st.mtimeMs !== best.mtimeMs) return 'unsure';
    best = { ...best, file };
  }
  for (const name of doubtful) {
    const file = join(dir, name);
    const st = statOrUndefined(file);
    const entry = st && readEntry(file, st);
    if (entry && keep(entry) && better(entry)) best = entry;
  }
  return best;
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** A session started writing to `file`: until it closes, the index must not be trusted for it. */
export function noteLive(dir: string, file: string): void {
  const name = basename(file);
  if (!name.endsWith('.jsonl')) return;
  appendIndex(dir, [{ id: name.slice(0, -'.jsonl'.length), size: -1, mtimeMs: 0, live: true } as IndexEntry]);
}

/** Add the current state of one session file to the index (called when a session closes). */
export function noteSession(dir: string, file: string): void {
  try {
    const st = statSync(file);
    const entry = readEntry(file, st);
    if (entry) appendIndex(dir, [entry]);
  } catch {
    // The index is a cache: failing to update it only makes the next listing read this file.
  }
}

function appendIndex(dir: string, entries: IndexEntry[]): void {
  try {
    const path = indexPath(dir);
    const fd = openSync(path, 'a', 0o600);
    try {
      const body = entries.map(serialise).join('');
      // A new (or emptied) index starts with its version line.
      const head = statSync(path).size === 0 ? `{"v":${VERSION}}\n` : '';
      writeSync(fd, head + body);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort, as above.
  }
}

function rewriteIndex(dir: string, entries: IndexEntry[]): void {
  const tmp = join(dir, `.${INDEX_FILE}.${process.pid}.tmp`);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, `{"v":${VERSION}}\n${entries.map(serialise).join('')}`);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, indexPath(dir));
  } catch {
    // Best effort, as above.
  }
}
