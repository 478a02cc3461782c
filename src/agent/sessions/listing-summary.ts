/**
 * What a listing shows about one session file, read cheaply: a byte search finds the few lines
 * it needs and only those are parsed.
 */
import { messageText, type SessionEvent, type SessionHeader } from './format.js';
import { type SessionSummary, summaryOf, titleFrom } from './store.js';

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
  const s = summaryOf(header, file);
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

export function tryParse(raw: string): SessionEvent | undefined {
  try {
    return JSON.parse(raw) as SessionEvent;
  } catch {
    return undefined;
  }
}
