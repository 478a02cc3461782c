/**
 * A command line read as cmd.exe reads it (after variable expansion, cmd-expand.ts): only `"`
 * quotes (`'` and `#` are ordinary characters), `^` escapes the next character outside quotes,
 * `&`, `&&`, `||` and `|` separate commands, `(` … `)` group them, redirections may stand anywhere.
 * The result is the simple commands the policy checks, plus the command lines that run later
 * (`cmd /c …`, `call …`, `start …`, a `for /f` command) to be checked as lines of their own.
 * `if` conditions are peeled off, and a `for` body is read once for each value its variable takes.
 * What this reader cannot follow is reported as a problem and the line is refused.
 */
import { type CmdEnv, expandDelayed, expandPercent, runtimeValue } from './cmd-expand.js';
import { switchWords, windowsPath } from './cmd-words.js';
import { programName, type Redirect, type SimpleCommand } from './parse.js';
import { longName } from './windows-families.js';

type Token =
  | { kind: 'word'; value: string; raw: string; quoted: boolean }
  | { kind: 'op'; op: string }
  | { kind: 'redirect'; op: string };
type Word = Extract<Token, { kind: 'word' }>;

export type CmdProblem = 'caret-end' | 'unbalanced' | 'for-syntax';

export class CmdParseError extends Error {
  constructor(readonly problem: CmdProblem) {
    super(problem);
  }
}

export interface CmdParsed {
  commands: SimpleCommand[];
  /** Command lines run by `cmd /c`, `call`, `start` or `for /f ('…')`: checked as lines too. */
  nested: string[];
}

const SPACE = /[ \t\v\f,;\u00a0]/;

/** `>`, `>>`, `<`, each maybe followed by `&` (`2>&1`): the operator at `i` and its length. */
function redirectAt(line: string, i: number): { op: string; length: number } {
  let op = line[i]!;
  if (op === '>' && line[i + 1] === '>') op = '>>';
  if (line[i + op.length] === '&') op += '&';
  return { op, length: op.length };
}

/** `&`, `&&`, `|`, `||` at `i`; a line break separates commands as `&` does. */
function operatorAt(line: string, i: number): string {
  const c = line[i]!;
  if (c === '\n' || c === '\r') return '&';
  return line[i + 1] === c ? c + c : c;
}

/** Split an (expanded) command line into tokens. */
export function cmdTokens(line: string): Token[] {
  const out: Token[] = [];
  let value = '';
  let raw = '';
  let inWord = false;
  let quoted = false;
  let inQuote = false;
  let depth = 0;
  const end = () => {
    if (inWord) out.push({ kind: 'word', value, raw, quoted });
    value = '';
    raw = '';
    inWord = false;
    quoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (inQuote) {
      raw += c;
      if (c === '"') inQuote = false;
      else value += c;
      continue;
    }
    if (c === '"') {
      inQuote = true;
      inWord = true;
      quoted = true;
      raw += c;
      continue;
    }
    if (c === '^') {
      const next = line[i + 1];
      if (next === undefined || next === '\n' || next === '\r') throw new CmdParseError('caret-end');
      value += next;
      raw += next;
      inWord = true;
      i++;
      continue;
    }
    if (SPACE.test(c)) {
      end();
      continue;
    }
    if (c === '&' || c === '|' || c === '\n' || c === '\r') {
      end();
      const op = operatorAt(line, i);
      out.push({ kind: 'op', op });
      if (op.length === 2) i++;
      continue;
    }
    // A group opens only where a word could start; `)` closes one only inside one.
    if ((c === '(' && !inWord) || (c === ')' && depth > 0)) {
      if (c === ')') end();
      depth += c === '(' ? 1 : -1;
      out.push({ kind: 'op', op: c });
      continue;
    }
    if (c === '>' || c === '<') {
      // `2>file`: a lone digit just before is the descriptor, not a word.
      if (inWord && !quoted && /^\d$/.test(value)) {
        value = '';
        raw = '';
        inWord = false;
      }
      end();
      const { op, length } = redirectAt(line, i);
      out.push({ kind: 'redirect', op });
      i += length - 1;
      continue;
    }
    value += c;
    raw += c;
    inWord = true;
  }
  if (inQuote) inQuote = false; // cmd reads an unclosed quote to the end of the line.
  end();
  if (depth !== 0) throw new CmdParseError('unbalanced');
  return out;
}

/** Commands cmd runs itself: `rd/s/q x` is `rd /s /q x`, `echo.` and `echo(` are `echo`. */
const INTERNAL =
  /^(@?)(rd|rmdir|del|erase|md|mkdir|copy|move|ren|rename|type|echo|set|cd|chdir|dir|call|start|pushd|popd|cls|title|path|prompt|exit|setlocal|endlocal|goto|shift|mklink|verify|color|if|for)(?=[/.+([\]=,;:\\]|$)/i;

/** The first word as cmd sees it: `@` dropped, an internal name split from what follows it. */
function splitFirst(word: string): string[] {
  const m = INTERNAL.exec(word);
  const w = m?.[1] ? word.slice(1) : word;
  if (!m) return [w.replace(/^@+/, '')];
  const name = m[2]!;
  const rest = w.slice(name.length).replace(/^[.(=,;:+]/, '');
  return rest ? [name, rest] : [name];
}

interface Group {
  words: Word[];
  redirects: Redirect[];
}

/**
 * A whole line as cmd.exe runs it: expanded (each reading of it, cmd-expand.ts), split, and —
 * when a word holds `!…!` — read again with delayed expansion on. Throws CmdParseError or
 * CmdExpansionError when the line cannot be followed.
 */
export function parseCmdLine(line: string, env: CmdEnv, cwd: string): CmdParsed[] {
  const out: CmdParsed[] = [];
  for (const text of expandPercent(line, env, cwd)) {
    const parsed = cmdCommands(cmdTokens(text));
    out.push(parsed);
    const delayed = parsed.commands.map((c) => ({
      ...c,
      words: c.words.map((w) => expandDelayed(w, env, cwd)),
    }));
    if (delayed.some((c, i) => c.words.join('\0') !== parsed.commands[i]!.words.join('\0')))
      out.push({ commands: delayed, nested: [] });
  }
  return out;
}

/** Parse the tokens of a line into simple commands and nested lines. */
export function cmdCommands(tokens: Token[]): CmdParsed {
  const result: CmdParsed = { commands: [], nested: [] };
  build(tokens, result, false, 0);
  return result;
}

function build(tokens: Token[], out: CmdParsed, pipedStart: boolean, loop: number): void {
  let cur: Group = { words: [], redirects: [] };
  let piped = pipedStart;
  const flush = (pipedNext: boolean) => {
    emit(cur, piped, out);
    cur = { words: [], redirects: [] };
    piped = pipedNext;
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok.kind === 'redirect') {
      const next = tokens[i + 1];
      const target = next?.kind === 'word' ? windowsPath(next.value) : '';
      if (next?.kind === 'word') i++;
      cur.redirects.push({ op: tok.op.replace(/&$/, '') === tok.op ? tok.op : '>&', target });
      continue;
    }
    if (tok.kind === 'op') {
      flush(tok.op === '|');
      continue;
    }
    // A `for` takes the rest of the line as its body, read once per value.
    if (!cur.words.length && /^@?for$/i.test(tok.value) && loop < 4) {
      const rest = forLoop(tokens.slice(i + 1), out);
      for (const body of rest) build(body, out, false, loop + 1);
      return;
    }
    cur.words.push(tok);
  }
  flush(false);
}

/** One simple command: `if` conditions peeled off, `cmd /c`, `call`, `start` handed on. */
function emit(g: Group, piped: boolean, out: CmdParsed): void {
  let words = g.words;
  for (let guard = 0; guard < 8 && words.length; guard++) {
    const first = words[0]!.value.replace(/^@+/, '').toLowerCase();
    if (first === 'if') words = afterCondition(words.slice(1));
    else if (first === 'else' || first === 'do') words = words.slice(1);
    else break;
  }
  if (!words.length) {
    if (g.redirects.length) out.commands.push({ words: [], redirects: g.redirects, piped, assignments: [] });
    return;
  }
  const [first, ...glued] = splitFirst(words[0]!.value);
  const head = [first!, ...glued.flatMap(switchWords)];
  const values = normalize([...head, ...words.slice(1).flatMap((w) => switchWords(windowsPath(w.value)))]);
  const raws = [
    ...head,
    ...words.slice(1).flatMap((w) => (switchWords(w.value).length > 1 ? switchWords(w.value) : [w.raw])),
  ];
  // `^"rd^"`: the escaped quotes stay in the word; cmd.exe finds the same program.
  values[0] = values[0]!.replace(/"/g, '');
  const name = longName(programName(values[0]!));
  const nested = nestedLine(name, values, raws);
  if (nested !== undefined) {
    out.nested.push(nested);
    // `cmd` fed by a pipe still runs what it reads: the policy refuses that.
    if (!(name === 'cmd' && piped)) return;
  }
  out.commands.push({ words: values, redirects: g.redirects, piped, assignments: [] });
}

/** `cd /d X` is `cd X`; `cd` alone stays; `D:` moves to a folder not known here. */
function normalize(values: string[]): string[] {
  const name = values[0]!.toLowerCase();
  if (/^[a-z]:$/i.test(values[0]!)) return ['cd', runtimeValue('drive')];
  if (name !== 'cd' && name !== 'chdir' && name !== 'pushd') return values;
  const args = values.slice(1).filter((v) => v.toLowerCase() !== '/d');
  // cmd joins the words of a cd: `cd Program Files` needs no quotes.
  return [values[0]!, args.length ? args.join(' ') : '.'];
}

/** `if [/i] [not] exist X cmd`, `if defined X`, `if errorlevel N`, `if a==b`, `if a EQU b`. */
function afterCondition(words: Word[]): Word[] {
  let i = 0;
  const lower = (k: number) => words[k]?.value.toLowerCase() ?? '';
  if (lower(i) === '/i') i++;
  if (lower(i) === 'not') i++;
  if (['exist', 'defined', 'errorlevel', 'cmdextversion'].includes(lower(i))) return words.slice(i + 2);
  const w = words[i]?.raw ?? '';
  if (/^(equ|neq|lss|leq|gtr|geq)$/i.test(words[i + 1]?.value ?? '')) return words.slice(i + 3);
  if (w.includes('==') && !w.endsWith('==')) return words.slice(i + 1);
  if (w.endsWith('==')) return words.slice(i + 2);
  if (words[i + 1]?.raw.startsWith('==')) return words.slice(i + (words[i + 1]!.raw === '==' ? 3 : 2));
  return words.slice(i);
}

/** The command line a program runs for us: `cmd /c LINE`, `call LINE`, `start … LINE`. */
function nestedLine(name: string, values: string[], raws: string[]): string | undefined {
  if (name === 'call') return raws.slice(1).join(' ');
  if (name === 'cmd') {
    const at = values.findIndex((v, i) => i > 0 && /^\/[ck]/i.test(v));
    if (at < 0) return undefined;
    const attached = raws[at]!.slice(2);
    const line = [attached, ...raws.slice(at + 1)].filter((s) => s !== '').join(' ');
    // cmd /c "…": the first and the last quote go.
    return line.startsWith('"') ? line.slice(1).replace(/"([^"]*)$/, '$1') : line;
  }
  if (name === 'start') {
    let i = 1;
    let dir: string | undefined;
    if (raws[i]?.startsWith('"')) i++;
    while (i < values.length && /^\//.test(values[i]!)) {
      // `start /d C:\ rd /s /q .` runs in C:\: checked as `cd /d C:\ & rd /s /q .`.
      if (/^\/d$/i.test(values[i]!)) dir = raws[i + 1];
      else if (/^\/d./i.test(values[i]!)) dir = raws[i]!.slice(2);
      i += /^\/(d|node|affinity)$/i.test(values[i]!) ? 2 : 1;
    }
    const line = raws.slice(i).join(' ');
    return dir === undefined ? line : `cd /d ${dir} & ${line}`;
  }
  if (name === 'forfiles') return forfilesLine(values, raws);
  return undefined;
}

/**
 * `forfiles [/p dir] [/s] /c "cmd /c …"` runs its command for each file found: checked as that
 * command in the folder searched, each file (`@file`, `@path`) a wildcard, and with `/s` a
 * delete reaching the whole tree — `forfiles /p C:\ /s /c "cmd /c del @file"` is `del /s *` in C:\.
 */
function forfilesLine(values: string[], raws: string[]): string | undefined {
  const option = (name: string) =>
    values.findIndex((v, i) => i > 0 && new RegExp(`^[/-]${name}$`, 'i').test(v));
  const at = option('c');
  const raw = at > 0 ? raws[at + 1] : undefined;
  if (raw === undefined) return undefined;
  let inner = raw
    .replace(/^"(.*)"$/s, '$1')
    .replace(/0x22/gi, '"')
    .replace(/@(file|path|fname|relpath)\b/gi, '*');
  if (option('s') > 0) inner = inner.replace(/\b(del|erase|rd|rmdir)\b/i, '$1 /s');
  const p = option('p');
  const dir = p > 0 ? raws[p + 1] : undefined;
  return dir === undefined ? inner : `cd /d ${dir} & ${inner}`;
}

/**
 * `for [/d|/r [root]|/l|/f ["opts"]] %X in (set) do body`: the body's token lists, one for each
 * value `%X` takes (a `for /f` or `/l` value is known only when it runs).
 */
function forLoop(tokens: Token[], out: CmdParsed): Token[][] {
  let i = 0;
  let mode = '';
  let root = '';
  while (tokens[i]?.kind === 'word' && /^\/[a-z]$/i.test((tokens[i] as { value: string }).value)) {
    mode = (tokens[i] as { value: string }).value.toLowerCase();
    i++;
    const next = tokens[i];
    if (next?.kind !== 'word') break;
    if (mode === '/f' && next.quoted) i++;
    else if (mode === '/r' && !next.value.startsWith('%')) {
      root = next.value;
      i++;
    }
  }
  const variable = tokens[i];
  const inWord = tokens[i + 1];
  if (
    variable?.kind !== 'word' ||
    !/^%%?.$/.test(variable.value) ||
    inWord?.kind !== 'word' ||
    inWord.value.toLowerCase() !== 'in' ||
    tokens[i + 2]?.kind !== 'op'
  )
    throw new CmdParseError('for-syntax');
  const close = tokens.findIndex((t, k) => k > i + 2 && t.kind === 'op' && t.op === ')');
  const doWord = tokens[close + 1];
  if (close < 0 || doWord?.kind !== 'word' || doWord.value.toLowerCase() !== 'do')
    throw new CmdParseError('for-syntax');
  const set = tokens.slice(i + 3, close).filter((t) => t.kind === 'word') as Word[];
  const values = loopValues(mode, root, set, out);
  const body = tokens.slice(close + 2);
  const name = variable.value.replace(/^%%/, '%');
  return values.slice(0, 16).map((v) => body.map((t) => substitute(t, name, v)));
}

function loopValues(mode: string, root: string, set: Word[], out: CmdParsed): string[] {
  if (mode === '/f') {
    // `for /f %i in ('command')`: the command runs; its output becomes the values.
    const text = set.map((t) => t.raw).join(' ');
    const command = /^['`](.*)['`]$/s.exec(text.replace(/^"|"$/g, ''));
    if (command) out.nested.push(command[1]!);
    // `for /f %i in (file) do …` reads the file: checked as `type` would be (secrets, egress).
    else if (!/^"/.test(text)) out.nested.push(`type ${text}`);
    return [runtimeValue('for')];
  }
  if (mode === '/l') return [runtimeValue('for')];
  const items = set.map((t) => t.value);
  if (mode === '/r') {
    // Every file or folder under root (the current folder when none is named).
    const base = root || '.';
    return items.map((v) => (/[*?]/.test(v) ? `${base}\\${v}` : `${base}\\${runtimeValue('for')}`));
  }
  return items.length ? items : [''];
}

function substitute(t: Token, name: string, value: string): Token {
  if (t.kind !== 'word' || !t.raw.includes(name)) return t;
  // For variables are case-sensitive and may carry modifiers (`%~fi`): those give a path too.
  const re = new RegExp(`%~?[a-z$:]*${name.slice(1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g');
  return { ...t, value: t.value.replace(re, value), raw: t.raw.replace(re, value) };
}
