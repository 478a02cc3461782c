import type { Theme } from './theme.js';
import type { Span } from './wrap.js';

/**
 * A small syntax highlighter for code blocks in answers: comments, strings, numbers, keywords
 * and keys for the languages people meet in documents and scripts. Deliberately tiny (no
 * grammar engine, no dependency): it colours, it never changes the text, and unknown languages
 * pass through plain. Loaded only with the Markdown renderer.
 */
type Kind = 'comment' | 'string' | 'number' | 'keyword' | 'key' | 'tag' | 'variable';

interface Rule {
  re: RegExp;
  kind: Kind;
}

interface Grammar {
  rules: Rule[];
  keywords?: Set<string>;
  caseInsensitive?: boolean;
}

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const NUMBER: Rule = { re: /\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b/y, kind: 'number' };
const DQ: Rule = { re: /"(?:[^"\\\n]|\\.)*"?/y, kind: 'string' };
const SQ: Rule = { re: /'(?:[^'\\\n]|\\.)*'?/y, kind: 'string' };
const BT: Rule = { re: /`(?:[^`\\]|\\.)*`?/y, kind: 'string' };
const SLASH_COMMENT: Rule = { re: /\/\/[^\n]*/y, kind: 'comment' };
const BLOCK_COMMENT: Rule = { re: /\/\*[\s\S]*?(?:\*\/|$)/y, kind: 'comment' };
const HASH_COMMENT: Rule = { re: /#[^\n]*/y, kind: 'comment' };

const C_LIKE_KEYWORDS = words(`
  abstract as async await break case catch class const continue default defer delete do else enum export
  extends false final finally fn for from func function go if impl implements import in instanceof interface
  let match mod module mut namespace new nil null package private protected pub public readonly return
  self static struct super switch this throw throws trait true try type typeof undefined use var void
  where while with yield bool boolean int long float double char string number any unknown never`);

const GRAMMARS: Record<string, Grammar> = {
  c: { rules: [SLASH_COMMENT, BLOCK_COMMENT, DQ, SQ, BT, NUMBER], keywords: C_LIKE_KEYWORDS },
  python: {
    rules: [
      HASH_COMMENT,
      { re: /"""[\s\S]*?(?:"""|$)/y, kind: 'string' },
      { re: /'''[\s\S]*?(?:'''|$)/y, kind: 'string' },
      DQ,
      SQ,
      NUMBER,
    ],
    keywords: words(`and as assert async await break class continue def del elif else except False finally
      for from global if import in is lambda None nonlocal not or pass raise return True try while with yield
      self print`),
  },
  shell: {
    rules: [HASH_COMMENT, DQ, SQ, { re: /\$\{[^}\n]*\}|\$\w+/y, kind: 'variable' }, NUMBER],
    keywords: words(`if then else elif fi for while until do done case esac in function return export local
      echo cd sudo set unset source alias exit`),
  },
  sql: {
    rules: [{ re: /--[^\n]*/y, kind: 'comment' }, BLOCK_COMMENT, SQ, DQ, NUMBER],
    keywords: words(`select from where and or not insert into values update set delete create table drop alter
      index view join left right inner outer full on group by order having limit offset as distinct union all
      case when then else end null is in like between exists primary key foreign references default count sum
      avg min max asc desc with`),
    caseInsensitive: true,
  },
  json: {
    rules: [{ re: /"(?:[^"\\\n]|\\.)*"(?=\s*:)/y, kind: 'key' }, DQ, NUMBER],
    keywords: words('true false null'),
  },
  yaml: {
    rules: [HASH_COMMENT, { re: /[\w.-][\w .-]*(?=:(?:\s|$))/y, kind: 'key' }, DQ, SQ, NUMBER],
    keywords: words('true false null yes no on off'),
  },
  markup: {
    rules: [
      { re: /<!--[\s\S]*?(?:-->|$)/y, kind: 'comment' },
      { re: /<\/?[A-Za-z][\w:-]*/y, kind: 'tag' },
      { re: /\/?>/y, kind: 'tag' },
      DQ,
      SQ,
    ],
  },
  css: {
    rules: [BLOCK_COMMENT, DQ, SQ, { re: /[\w-]+(?=\s*:)/y, kind: 'key' }, NUMBER],
  },
};

const ALIASES: Record<string, string> = {
  js: 'c',
  javascript: 'c',
  jsx: 'c',
  ts: 'c',
  typescript: 'c',
  tsx: 'c',
  mjs: 'c',
  java: 'c',
  c: 'c',
  cpp: 'c',
  'c++': 'c',
  h: 'c',
  cs: 'c',
  csharp: 'c',
  go: 'c',
  golang: 'c',
  rust: 'c',
  rs: 'c',
  swift: 'c',
  kotlin: 'c',
  kt: 'c',
  php: 'c',
  scala: 'c',
  dart: 'c',
  py: 'python',
  python: 'python',
  python3: 'python',
  rb: 'python',
  ruby: 'python',
  r: 'python',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  shell: 'shell',
  console: 'shell',
  powershell: 'shell',
  ps1: 'shell',
  bat: 'shell',
  cmd: 'shell',
  dockerfile: 'shell',
  makefile: 'shell',
  sql: 'sql',
  mysql: 'sql',
  postgresql: 'sql',
  sqlite: 'sql',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'yaml',
  ini: 'yaml',
  properties: 'yaml',
  html: 'markup',
  xml: 'markup',
  svg: 'markup',
  vue: 'markup',
  css: 'css',
  scss: 'css',
  less: 'css',
};

export function grammarFor(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  return ALIASES[lang.trim().toLowerCase().split(/\s/)[0] ?? ''];
}

const IDENT = /[A-Za-z_$][\w$]*/y;

/** Highlight `code` in `lang`; returns one list of spans per source line. */
export function highlight(code: string, lang: string | undefined, theme: Theme): Span[][] {
  const name = grammarFor(lang);
  const grammar = name ? GRAMMARS[name] : undefined;
  if (!grammar || !theme.enabled) return code.split('\n').map((line) => [{ text: line }]);
  const paint: Record<Kind, (s: string) => string> = {
    comment: theme.gray,
    string: theme.green,
    number: theme.yellow,
    keyword: theme.magenta,
    key: theme.cyan,
    tag: theme.blue,
    variable: theme.cyan,
  };
  const spans: Span[] = [];
  let plain = '';
  const flush = () => {
    if (plain) spans.push({ text: plain });
    plain = '';
  };
  let i = 0;
  outer: while (i < code.length) {
    for (const rule of grammar.rules) {
      rule.re.lastIndex = i;
      const m = rule.re.exec(code);
      if (m && m[0].length > 0) {
        flush();
        spans.push({ text: m[0], paint: paint[rule.kind] });
        i += m[0].length;
        continue outer;
      }
    }
    IDENT.lastIndex = i;
    const id = IDENT.exec(code);
    if (id) {
      const word = grammar.caseInsensitive ? id[0].toLowerCase() : id[0];
      if (grammar.keywords?.has(word)) {
        flush();
        spans.push({ text: id[0], paint: paint.keyword });
      } else plain += id[0];
      i += id[0].length;
      continue;
    }
    plain += code[i];
    i += 1;
  }
  flush();
  return splitLines(spans);
}

/** Split spans at newlines into lines (a multi-line comment becomes one span per line). */
function splitLines(spans: Span[]): Span[][] {
  const lines: Span[][] = [[]];
  for (const s of spans) {
    const parts = s.text.split('\n');
    parts.forEach((part, k) => {
      if (k > 0) lines.push([]);
      if (part) lines[lines.length - 1]!.push({ text: part, paint: s.paint });
    });
  }
  return lines;
}
