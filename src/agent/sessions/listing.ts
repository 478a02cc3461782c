/**
 * Finding saved sessions: listing and searching them cheaply (a byte search over the files
 * instead of parsing every line), resolving an id or prefix, and deleting one.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { searchable } from '../../support/graphemes.js';
import { messageText, type SessionEvent, type SessionHeader, type SessionKind } from './format.js';
import { mtimeIso, type SessionSummary, sessionDataDir, sessionFile, titleFrom } from './store.js';

const MARK = {
  user: Buffer.from('\n{"type":"message","role":"user"'),
  title: Buffer.from('\n{"type":"title"'),
  usage: Buffer.from('\n{"type":"usage"'),
  model: Buffer.from('\n{"type":"model"'),
  compaction: Buffer.from('\n{"type":"compaction"'),
};

/** Each line (without its newline) that starts with `mark` (which begins with the newline before it). */
function* linesStarting(buf: Buffer, mark: Buffer): Generator<string> {
  let at = buf.indexOf(mark);
  while (at >= 0) {
    const end = buf.indexOf(10, at + 1);
    yield buf.toString('utf8', at + 1, end < 0 ? buf.length : end);
    if (end < 0) return;
    at = buf.indexOf(mark, end);
  }
}

/**
 * A listing's view of one file. It finds the lines it needs by their prefix with a byte search
 * and parses only those (a long session is mostly message text it never needs to decode).
 */
export function summariseSession(data: Buffer | string, file = ''): SessionSummary | undefined {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const newline = buf.indexOf(10);
  let header: SessionHeader;
  try {
    header = JSON.parse(buf.toString('utf8', 0, newline < 0 ? buf.length : newline)) as SessionHeader;
  } catch {
    return undefined;
  }
  if (header?.type !== 'session') return undefined;
  const s: SessionSummary = {
    id: header.id,
    file,
    kind: header.kind,
    ...(header.skill ? { skill: header.skill } : {}),
    cwd: header.cwd,
    created: header.created,
    updated: header.created,
    title: '',
    model: header.model,
    turns: 0,
    cost: 0,
    currency: header.currency,
    covered: false,
    tokens: 0,
    compactions: 0,
  };
  for (const raw of linesStarting(buf, MARK.title)) {
    const line = tryParse(raw);
    if (line?.type === 'title') s.title = line.title;
    break;
  }
  for (const raw of linesStarting(buf, MARK.user)) {
    s.turns += 1;
    if (s.title || s.turns > 1) continue;
    const line = tryParse(raw);
    if (line?.type === 'message') s.title = titleFrom(messageText(line.message));
  }
  for (const raw of linesStarting(buf, MARK.usage)) {
    const line = tryParse(raw);
    if (line?.type !== 'usage') continue;
    s.cost += line.cost;
    s.tokens += line.usage.totalTokens;
    s.covered ||= line.covered;
  }
  for (const raw of linesStarting(buf, MARK.model)) {
    const line = tryParse(raw);
    if (line?.type === 'model') s.model = line.model;
  }
  for (const _ of linesStarting(buf, MARK.compaction)) s.compactions += 1;
  return s;
}

function tryParse(raw: string): SessionEvent | undefined {
  try {
    return JSON.parse(raw) as SessionEvent;
  } catch {
    return undefined;
  }
}

/** Whether any user or assistant text of the session contains `query` (case- and width-insensitive). */
export function sessionMatches(text: string, summary: SessionSummary, query: string): boolean {
  const q = searchable(query.trim());
  if (!q) return true;
  if (
    searchable(summary.title).includes(q) ||
    summary.id.includes(q) ||
    searchable(summary.skill ?? '').includes(q)
  ) {
    return true;
  }
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
}

/** Sessions, most recently used first. Unreadable files are skipped. */
export async function listSessions(dir: string, opts: ListOptions = {}): Promise<SessionSummary[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: SessionSummary[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const file = join(dir, name);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch {
      continue;
    }
    const s = summariseSession(data, file);
    if (!s) continue;
    if (opts.cwd && s.cwd !== opts.cwd) continue;
    if (opts.kinds && !opts.kinds.includes(s.kind)) continue;
    if (opts.query && !sessionMatches(data.toString('utf8'), s, opts.query)) continue;
    s.updated = await mtimeIso(file, s.updated);
    out.push(s);
  }
  return out.sort((a, b) => b.updated.localeCompare(a.updated) || b.id.localeCompare(a.id));
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

/** The most recently used conversation started in `cwd` (skill runs are not conversations). */
export async function latestSession(dir: string, cwd: string): Promise<SessionSummary | undefined> {
  return (await listSessions(dir, { cwd, kinds: ['repl', 'oneshot'] })).filter((s) => s.turns > 0)[0];
}

export async function deleteSession(dir: string, id: string): Promise<void> {
  await rm(sessionFile(dir, id), { force: true });
  await rm(sessionDataDir(dir, id), { recursive: true, force: true });
}
