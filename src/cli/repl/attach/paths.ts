import { isAbsolute, resolve, win32 } from 'node:path';

/**
 * Find the files a message refers to — typed or dragged into the terminal — in every form
 * terminals produce: quoted ('…', "…", “…”), with backslash-escaped spaces (`My\ File.pdf`),
 * relative (`docs/a.md`, `./a.md`, `a.md`), absolute, `~/…`, `file://` URIs, and Windows paths
 * (`C:\Users\…`, `"C:\My Files\a.docx"`, also tried as /mnt/c/… under WSL). Glued punctuation
 * and CJK text around a path (`请总结/home/me/a.pdf，谢谢`) are tolerated. Only paths that name an
 * existing file count. Pure apart from the injected `isFile`.
 */
export interface PathMatch {
  /** The text as it appears in the message. */
  raw: string;
  /** Absolute path of the file. */
  path: string;
  start: number;
  end: number;
}

export interface DetectOptions {
  cwd: string;
  home: string;
  isFile: (path: string) => boolean;
  /** Try C:\… as /mnt/c/… too (Linux). Default: process.platform === 'linux'. */
  wsl?: boolean;
}

interface Word {
  raw: string;
  value: string;
  start: number;
  end: number;
  quoted: boolean;
}

const QUOTES: Record<string, string> = { "'": "'", '"': '"', '“': '”', '‘': '’', '「': '」', '『': '』' };
const WINDOWS_ABS = /^(?:[A-Za-z]:[\\/]|\\\\[^\\]+\\)/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const TRAILING = /[,.;:!?，。；：！？、)）」』】>\]'"”’…]+$/;
/** Punctuation glued before a path, and the `@` of an `@path` mention. */
const LEADING = /^[(（「『【<[\]'"“‘@]+/;
const HAS_EXT = /\.[A-Za-z0-9]{1,8}$/;
/** Characters a shell escapes with a backslash; before anything else a backslash separates folders. */
const ESCAPED = /[\s\\'"()&;[\]{}$`!*?#~<>|]/;
const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/** Split into words: quoted strings, and runs without (unescaped) whitespace. */
export function words(text: string): Word[] {
  const out: Word[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const close = QUOTES[ch];
    if (close) {
      const end = text.indexOf(close, i + 1);
      if (end > i + 1 && !text.slice(i + 1, end).includes('\n')) {
        out.push({
          raw: text.slice(i, end + 1),
          value: text.slice(i + 1, end),
          start: i,
          end: end + 1,
          quoted: true,
        });
        i = end + 1;
        continue;
      }
    }
    const start = i;
    const windows = WINDOWS_ABS.test(text.slice(i, i + 4));
    let value = '';
    while (i < text.length && !/\s/.test(text[i]!)) {
      // `My\ File.pdf` escapes a space; `.\notes.txt` and `zhi-output\清单.csv` are Windows paths.
      if (text[i] === '\\' && !windows && i + 1 < text.length && ESCAPED.test(text[i + 1]!)) {
        value += text[i + 1];
        i += 2;
        continue;
      }
      value += text[i];
      i++;
    }
    out.push({ raw: text.slice(start, i), value, start, end: i, quoted: false });
  }
  return out;
}

export function looksLikePath(w: Word): boolean {
  const v = w.value;
  if (!v || (URL_LIKE.test(v) && !v.toLowerCase().startsWith('file://'))) return false;
  if (w.quoted) return v.includes('/') || v.includes('\\') || HAS_EXT.test(v.replace(TRAILING, ''));
  if (v.includes('/') || v.includes('\\') || v.startsWith('~') || HAS_EXT.test(v.replace(TRAILING, '')))
    return true;
  // A file name inside Chinese text: 帮我总结report.docx的要点
  return CJK.test(v) && /\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9])/.test(v);
}

/** A spelling of (part of) a word to check on disk, and where it sits in the word. */
export interface Candidate {
  text: string;
  from: number;
  to: number;
}

const CJK_PUNCT = /[，。；：！？、（）「」『』【】《》“”‘’…]/;
const PATH_START = /~\/|\.{1,2}\/|\/|[A-Za-z]:[\\/]/g;
const EXT_END = /\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9])/g;

/** The spellings of a word worth checking on disk, most literal first. */
export function candidates(value: string): Candidate[] {
  const out: Candidate[] = [];
  const add = (text: string, from: number, to: number) => {
    if (text && !out.some((c) => c.text === text)) out.push({ text, from, to });
  };
  if (value.toLowerCase().startsWith('file://')) {
    try {
      let v = decodeURIComponent(new URL(value).pathname);
      if (/^\/[A-Za-z]:\//.test(v)) v = v.slice(1);
      add(v, 0, value.length);
    } catch {
      // not a valid URI
    }
    return out;
  }
  add(value, 0, value.length);
  const lead = LEADING.exec(value)?.[0].length ?? 0;
  const stripped = value.replace(TRAILING, '').slice(lead);
  add(stripped, lead, lead + stripped.length);
  if (!CJK.test(value)) return out;
  // A path glued to Chinese text (请总结/home/li/a.pdf，谢谢 · 帮我看看report.docx的要点): cut the word
  // at CJK punctuation, then try every start where a path may begin and every end after an extension.
  let offset = 0;
  for (const seg of value.split(CJK_PUNCT)) {
    const starts = new Set<number>([0]);
    for (const m of seg.matchAll(PATH_START)) starts.add(m.index);
    for (let i = 1; i < seg.length; i++) if (CJK.test(seg[i - 1]!) && !CJK.test(seg[i]!)) starts.add(i);
    // A Chinese file name glued to Chinese text (把报告.md…): any start, when the text is short.
    if (seg.length <= 80 && EXT_END.test(seg)) for (let i = 1; i < seg.length; i++) starts.add(i);
    EXT_END.lastIndex = 0;
    const ends = new Set<number>([seg.length]);
    for (const m of seg.matchAll(EXT_END)) ends.add(m.index + m[0].length);
    for (const a of [...starts].sort((x, y) => x - y)) {
      for (const b of [...ends].sort((x, y) => y - x)) {
        if (b <= a) continue;
        const text = seg.slice(a, b);
        if (HAS_EXT.test(text) || text.includes('/')) add(text, offset + a, offset + b);
      }
    }
    offset += seg.length + 1;
  }
  return out;
}

function toAbsolute(p: string, o: DetectOptions): string[] {
  if (WINDOWS_ABS.test(p)) {
    const out = [win32.normalize(p)];
    const wsl = o.wsl ?? process.platform === 'linux';
    const drive = /^([A-Za-z]):[\\/](.*)$/.exec(p);
    if (wsl && drive) out.push(`/mnt/${drive[1]!.toLowerCase()}/${drive[2]!.replace(/\\/g, '/')}`);
    return out;
  }
  if (p === '~' || p.startsWith('~/')) return [resolve(o.home, p.slice(2))];
  const out = [isAbsolute(p) ? resolve(p) : resolve(o.cwd, p)];
  // A relative Windows path (.\notes.txt, zhi-output\清单.csv) typed on macOS or Linux.
  if (p.includes('\\')) out.push(resolve(o.cwd, p.replace(/\\/g, '/')));
  return out;
}

export function detectPaths(text: string, o: DetectOptions): PathMatch[] {
  const found: PathMatch[] = [];
  const seen = new Set<string>();
  for (const w of words(text)) {
    if (!looksLikePath(w)) continue;
    // Point at just the path when the word is written as it reads (no quotes or escapes).
    const exact = !w.quoted && w.raw === w.value;
    const taken: Candidate[] = [];
    for (const c of candidates(w.value)) {
      if (taken.some((x) => c.from < x.to && x.from < c.to)) continue;
      const abs = toAbsolute(c.text, o).find((p) => safeIsFile(o, p));
      if (!abs) continue;
      taken.push(c);
      if (seen.has(abs)) continue;
      seen.add(abs);
      const start = exact ? w.start + c.from : w.start;
      const end = exact ? w.start + c.to : w.end;
      found.push({ raw: text.slice(start, end), path: abs, start, end });
      if (!exact) break;
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function safeIsFile(o: DetectOptions, p: string): boolean {
  try {
    return o.isFile(p);
  } catch {
    return false;
  }
}
