/**
 * Shell words for the shell policy: a command line becomes a list of simple commands (words,
 * redirections, whether a pipe feeds it), with every command substitution (`$(…)`, backticks,
 * `<(…)`, `>(…)`) lifted out so the policy can check it as a command of its own. Word splitting
 * and quoting are done by `shell-quote`, a real shell-word parser; this file adds what it does
 * not model: substitutions inside double quotes, backticks, comments, newlines as separators,
 * and function definitions (fork bombs).
 */
import { type ParseEntry, parse } from 'shell-quote';
import { pushAll } from '../../support/arrays.js';

/** Marks a variable in a parsed word: `\u0001NAME\u0002`. Substitutions become `ZHISUB<n>` variables. */
export const VAR_START = '\u0001';
export const VAR_END = '\u0002';
export const SUB_PREFIX = 'ZHISUB';

export interface Redirect {
  op: string;
  target: string;
}

export interface SimpleCommand {
  /** Words after leading assignments and reserved words; words[0] is the program. */
  words: string[];
  redirects: Redirect[];
  /** A pipe (`|` or `|&`) feeds this command's standard input. */
  piped: boolean;
  /** Variables assigned before the program (`D=/ cmd`), or on their own (`D=/`). */
  assignments: [name: string, value: string][];
}

export interface ParsedLine {
  commands: SimpleCommand[];
  /** Bodies of command substitutions, to be checked as commands themselves. */
  substitutions: string[];
  /** Names of shell functions defined on the line, with the commands of their bodies. */
  functions: { name: string; body: SimpleCommand[] }[];
}

export type Dialect = 'posix' | 'windows';

/**
 * Lift substitutions out (replacing each with a `$ZHISUB<n>` variable), drop comments, and turn
 * unquoted newlines into `;`. Single-quoted text is left alone: nothing is substituted there.
 */
export function liftSubstitutions(line: string): { text: string; substitutions: string[] } {
  return new Lifter(line).run();
}

interface Heredoc {
  delim: string;
  /** An unquoted delimiter: the body's substitutions run. */
  expands: boolean;
  /** `<<-`: leading tabs are stripped from the body and its delimiter line. */
  tabs: boolean;
}

/**
 * The scanner behind liftSubstitutions: one character (or construct) per step. Each step method
 * returns true when it consumed the text at `i`; a character no step takes is copied as it is.
 */
class Lifter {
  private readonly subs: string[] = [];
  private readonly heredocs: Heredoc[] = [];
  private out = '';
  private i = 0;
  private quote: '' | "'" | '"' | "$'" = '';

  constructor(private readonly line: string) {}

  run(): { text: string; substitutions: string[] } {
    const { line } = this;
    while (this.i < line.length) {
      const c = line[this.i]!;
      const taken =
        this.inSingleQuotes(c) ||
        this.escape(c) ||
        this.closeDoubleQuotes(c) ||
        this.unquoted(c) ||
        this.commandSubstitution(c);
      if (!taken) {
        this.out += c;
        this.i++;
      }
    }
    return { text: this.out, substitutions: this.subs };
  }

  /** `'…'` and `$'…'`: copied as they are (in `$'…'` a backslash escapes the next character). */
  private inSingleQuotes(c: string): boolean {
    if (this.quote === "'") {
      this.out += c;
      if (c === "'") this.quote = '';
      this.i++;
      return true;
    }
    if (this.quote !== "$'") return false;
    this.out += c;
    if (c === '\\' && this.i + 1 < this.line.length) {
      this.out += this.line[this.i + 1];
      this.i += 2;
      return true;
    }
    if (c === "'") this.quote = '';
    this.i++;
    return true;
  }

  private escape(c: string): boolean {
    if (c !== '\\' || this.i + 1 >= this.line.length) return false;
    // A backslash-newline joins lines; any other escaped character stays as it is.
    if (this.line[this.i + 1] !== '\n') this.out += c + this.line[this.i + 1];
    this.i += 2;
    return true;
  }

  private closeDoubleQuotes(c: string): boolean {
    if (this.quote !== '"' || c !== '"') return false;
    this.quote = '';
    this.out += c;
    this.i++;
    return true;
  }

  /** Quotes opening, comments, here-documents, newlines and process substitutions. */
  private unquoted(c: string): boolean {
    if (this.quote) return false;
    const { line, i } = this;
    // An opening quote is copied like any character.
    if (c === "'" || c === '"') {
      this.quote = c;
      return false;
    }
    if (c === '$' && line[i + 1] === "'") {
      this.quote = "$'";
      this.out += "$'";
      this.i += 2;
      return true;
    }
    if (c === '#' && this.atWordStart()) {
      while (this.i < line.length && line[this.i] !== '\n') this.i++;
      return true;
    }
    if (c === '<' && line[i + 1] === '<' && line[i + 2] !== '<') return this.heredoc();
    if (c === '\n' || c === '\r') {
      this.out += ' ; ';
      this.i++;
      this.heredocBodies();
      return true;
    }
    if ((c === '<' || c === '>') && line[i + 1] === '(') {
      const end = closing(line, i + 2);
      // `>(cmd)` reads what is written to it: check it as if a pipe fed it.
      this.lift(c === '>' ? `: | ${line.slice(i + 2, end)}` : line.slice(i + 2, end), end + 1, ' ');
      return true;
    }
    return false;
  }

  private atWordStart(): boolean {
    return this.out === '' || /[\s;&|()<>]$/.test(this.out);
  }

  /** A here-document: remember its delimiter; its body starts on the next line. */
  private heredoc(): boolean {
    const m = /^<<(-?)[ \t]*(?:'([^']*)'|"([^"]*)"|\\?([^\s;&|<>()]+))/.exec(this.line.slice(this.i));
    if (!m) return false;
    this.heredocs.push({
      delim: m[2] ?? m[3] ?? m[4] ?? '',
      expands: m[4] !== undefined && !m[0].includes('\\'),
      tabs: m[1] === '-',
    });
    this.out += `${m[0]} `;
    this.i += m[0].length;
    return true;
  }

  /** Here-document bodies are data, not commands; only their substitutions run. */
  private heredocBodies(): void {
    const { line } = this;
    for (const doc of this.heredocs.splice(0)) {
      while (this.i < line.length) {
        const eol = line.indexOf('\n', this.i);
        const text = line.slice(this.i, eol < 0 ? line.length : eol);
        this.i = eol < 0 ? line.length : eol + 1;
        if ((doc.tabs ? text.replace(/^\t+/, '') : text).replace(/\r$/, '') === doc.delim) break;
        if (doc.expands) pushAll(this.subs, liftSubstitutions(text.replace(/[\\'"]/g, ' ')).substitutions);
      }
    }
  }

  /** `$(…)` (and `$((…))`) and backticks work unquoted and inside double quotes. */
  private commandSubstitution(c: string): boolean {
    const { line, i } = this;
    if (c === '$' && line[i + 1] === '(') {
      const end = closing(line, i + 2);
      this.lift(line.slice(i + 2, end), end + 1);
      return true;
    }
    if (c !== '`') return false;
    let j = i + 1;
    let body = '';
    while (j < line.length && line[j] !== '`') {
      if (line[j] === '\\' && j + 1 < line.length) {
        body += line[j + 1];
        j += 2;
        continue;
      }
      body += line[j];
      j++;
    }
    this.lift(body, j + 1);
    return true;
  }

  /** Replace a substitution with its `$ZHISUB<n>` variable and go on at `next`. */
  private lift(body: string, next: number, pad = ''): void {
    this.subs.push(body);
    this.out += `${pad}$${SUB_PREFIX}${this.subs.length - 1}${pad}`;
    this.i = next;
  }
}

/** Index of the `)` closing a group opened just before `start`, honouring quotes and nesting. */
function closing(s: string, start: number): number {
  let depth = 1;
  let quote = '';
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '\\') i++;
    else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return s.length;
}

const SEPARATORS = new Set([';', '&&', '||', '|', '|&', '&', ';;', '(', ')']);
const REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<', '<<', '<<<', '<&', '<>']);
const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
  '{',
  '}',
  'esac',
]);

type Token = { word: string; glob: boolean } | { op: string };

function tokens(text: string, dialect: Dialect): Token[] {
  const env = (key: string) => `${VAR_START}${key}${VAR_END}`;
  const entries = parse(text, env, dialect === 'windows' ? { escape: '^' } : undefined) as (
    | ParseEntry
    | string
  )[];
  const out: Token[] = [];
  for (const e of entries) {
    if (typeof e === 'string') out.push({ word: e, glob: false });
    else if ('comment' in e) continue;
    else if (e.op === 'glob') out.push({ word: (e as { pattern: string }).pattern, glob: true });
    else out.push({ op: e.op });
  }
  return out;
}

/** Split a lifted line into simple commands and function definitions. */
export function splitCommands(text: string, dialect: Dialect): Pick<ParsedLine, 'commands' | 'functions'> {
  const toks = tokens(text, dialect);
  const functions: ParsedLine['functions'] = [];
  // Function definitions: `name ( )` or `function name`; the body is the next group.
  for (let i = 0; i < toks.length; i++) {
    const a = toks[i]!;
    const b = toks[i + 1];
    const c = toks[i + 2];
    let name: string | undefined;
    let bodyStart = -1;
    if ('word' in a && b && 'op' in b && b.op === '(' && c && 'op' in c && c.op === ')') {
      name = a.word === 'function' ? undefined : a.word;
      bodyStart = i + 3;
    } else if ('word' in a && a.word === 'function' && b && 'word' in b) {
      name = b.word;
      bodyStart = i + 2;
      const d = toks[i + 2];
      const e = toks[i + 3];
      if (d && 'op' in d && d.op === '(' && e && 'op' in e && e.op === ')') bodyStart = i + 4;
    }
    if (name === undefined) continue;
    const end = groupEnd(toks, bodyStart);
    functions.push({ name, body: simpleCommands(toks.slice(bodyStart, end)) });
  }
  return { commands: simpleCommands(toks), functions };
}

/** End (exclusive) of the `{ … }` or `( … )` group starting at `start`. */
function groupEnd(toks: Token[], start: number): number {
  const first = toks[start];
  if (!first) return start;
  const brace = 'word' in first && first.word === '{';
  let depth = 0;
  for (let i = start; i < toks.length; i++) {
    const t = toks[i]!;
    const open = brace ? 'word' in t && t.word === '{' : 'op' in t && t.op === '(';
    const close = brace ? 'word' in t && t.word === '}' : 'op' in t && t.op === ')';
    if (open) depth++;
    else if (close && --depth === 0) return i + 1;
  }
  return toks.length;
}

function simpleCommands(toks: Token[]): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let cur: SimpleCommand = { words: [], redirects: [], piped: false, assignments: [] };
  let started = false;
  const flush = (pipedNext: boolean) => {
    if (cur.words.length || cur.redirects.length || cur.assignments.length) out.push(cur);
    cur = { words: [], redirects: [], piped: pipedNext, assignments: [] };
    started = false;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if ('op' in t) {
      if (REDIRECTS.has(t.op)) {
        const next = toks[i + 1];
        if (next && 'word' in next) {
          // `2>file`: shell-quote leaves the descriptor number as a word of its own.
          const last = cur.words[cur.words.length - 1];
          if (last !== undefined && /^\d$/.test(last) && started) cur.words.pop();
          cur.redirects.push({ op: t.op, target: next.word });
          i++;
        } else cur.redirects.push({ op: t.op, target: '' });
        continue;
      }
      if (SEPARATORS.has(t.op)) {
        flush(t.op === '|' || t.op === '|&');
        continue;
      }
      continue;
    }
    if (!started) {
      if (RESERVED.has(t.word)) continue;
      // Leading assignments (`LANG=C sort`) are not the program.
      const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(t.word);
      if (assign) {
        cur.assignments.push([assign[1]!, assign[2]!]);
        continue;
      }
      started = true;
    }
    cur.words.push(t.word);
  }
  flush(false);
  // `for x in a b c` and `case … in` lists are values, not commands.
  return out.filter((c) => !['for', 'case', 'select', 'function'].includes(c.words[0] ?? ''));
}

/** Parse a command line in one dialect. */
export function parseLine(line: string, dialect: Dialect): ParsedLine {
  const lifted = liftSubstitutions(line);
  const { commands, functions } = splitCommands(lifted.text, dialect);
  return { commands, functions, substitutions: lifted.substitutions };
}

/** True when a word holds a variable or substitution whose value is only known at run time. */
export function isDynamic(word: string): boolean {
  return word.includes(VAR_START);
}

/** The word as a person wrote it (variables shown as `$NAME`, substitutions as `$(…)`). */
export function showWord(word: string): string {
  const re = new RegExp(`${VAR_START}([^${VAR_END}]*)${VAR_END}`, 'g');
  return word.replace(re, (_, name: string) => (name.startsWith(SUB_PREFIX) ? '$(…)' : `$${name}`));
}

/** The program a word names, without its folder or a Windows extension: `/bin/RM.exe` → `rm`. */
export function programName(word: string): string {
  const base = word.replace(/\\/g, '/').split('/').pop() ?? word;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
}
