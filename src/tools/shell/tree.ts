/**
 * A command line read with a real shell grammar: tree-sitter-bash (WebAssembly, through the
 * runtime VS Code ships in `@vscode/tree-sitter-wasm`), loaded on the first shell call. The syntax
 * tree becomes the simple commands the policy checks — words with quotes removed, variables and
 * substitutions marked, redirections, and whether a pipe or a here-document feeds the command
 * (also through `( … )`, `{ … }`, `if`, loops). Substitutions are lifted out to be checked as
 * command lines of their own. Loop values and `set --` become variables, so `for d in ~` is seen.
 */
import type { Node, Parser } from '@vscode/tree-sitter-wasm';
import { pushAll } from '../../support/arrays.js';
import { readAsset } from '../../support/install.js';
import {
  type ParsedLine,
  type Redirect,
  type SimpleCommand,
  SUB_PREFIX,
  VAR_END,
  VAR_START,
} from './parse.js';

/** Separates the values a variable may take (`for d in a b` → `a\0b`). */
export const ALTERNATIVES = '\u0000';

let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/** Load the grammar once; later calls return at once. */
export function loadBashParser(): Promise<Parser> {
  if (parser) return Promise.resolve(parser);
  loading ??= (async () => {
    type TreeSitter = typeof import('@vscode/tree-sitter-wasm');
    // A CommonJS module: its exports are the namespace's default (Node) or its members (bundled).
    const mod = (await import('@vscode/tree-sitter-wasm')) as TreeSitter & { default?: TreeSitter };
    const ts = mod.default ?? mod;
    // The runtime and the grammar are given as bytes: zhi ships them as its own assets (inside
    // the executable, there is no file to point Emscripten at).
    const [runtime, grammar] = await Promise.all([
      readAsset('tree-sitter/tree-sitter.wasm'),
      readAsset('tree-sitter/tree-sitter-bash.wasm'),
    ]);
    // `wasmBinary` is an Emscripten module option the package's types leave out.
    await ts.Parser.init({ wasmBinary: runtime } as never);
    const language = await ts.Language.load(grammar);
    const p = new ts.Parser();
    p.setLanguage(language);
    parser = p;
    return p;
  })();
  // A failed load is not remembered: the next shell call tries again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export class UnparsableError extends Error {}

/** Parse one command line. Throws UnparsableError when bash would not accept it either. */
export function parseBash(line: string): ParsedLine {
  if (!parser) throw new Error('parseBash: call loadBashParser() first');
  const tree = parser.parse(line);
  if (!tree) throw new UnparsableError('no tree');
  try {
    if (tree.rootNode.hasError) throw new UnparsableError('syntax error');
    const out: ParsedLine = { commands: [], substitutions: [], functions: [] };
    new Walker(line, out).statements(tree.rootNode, false);
    return out;
  } finally {
    tree.delete();
  }
}

const mark = (name: string) => `${VAR_START}${name}${VAR_END}`;

/** Statement nodes whose children are statements (conditions and bodies alike). */
const BLOCKS = new Set([
  'program',
  'list',
  'subshell',
  'compound_statement',
  'do_group',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'negated_command',
  'case_statement',
  'case_item',
  'c_style_for_statement',
]);

class Walker {
  constructor(
    private readonly src: string,
    private readonly out: ParsedLine,
  ) {}

  /** Walk the statements under a node; `piped`: a pipe or redirection feeds their input. */
  statements(node: Node, piped: boolean, redirects: Redirect[] = []): void {
    for (const child of node.namedChildren) {
      if (child) this.statement(child, piped, redirects);
    }
  }

  private statement(node: Node, piped: boolean, redirects: Redirect[]): void {
    switch (node.type) {
      case 'command':
        this.out.commands.push(this.command(node, piped, redirects));
        return;
      case 'redirected_statement':
        this.redirected(node, piped, redirects);
        return;
      case 'pipeline':
        node.namedChildren.forEach((c, i) => {
          if (c) this.statement(c, piped || i > 0, redirects);
        });
        return;
      case 'for_statement':
        this.forLoop(node, piped, redirects);
        return;
      case 'function_definition':
        this.functionDef(node);
        return;
      case 'declaration_command':
        this.out.commands.push(this.declaration(node));
        return;
      case 'variable_assignment':
      case 'variable_assignments':
        this.out.commands.push({ words: [], redirects: [], piped, assignments: this.assignments(node) });
        return;
      case 'test_command':
      case 'unset_command':
        // No program runs here, but substitutions inside still do.
        this.liftAll(node);
        return;
      case 'comment':
        return;
      case 'file_redirect': {
        // `> ~/.bashrc` with no command: the file is still opened (and emptied).
        const redirects = this.redirect(node, []);
        this.out.commands.push({ words: [], redirects, piped, assignments: [] });
        return;
      }
      default:
        if (BLOCKS.has(node.type)) {
          // A `case` subject and patterns are words, not commands: only their substitutions run.
          for (const c of node.namedChildren) {
            if (!c) continue;
            if (c.type === 'word' || c.type === 'string' || c.type === 'concatenation') this.word(c);
            else this.statement(c, piped, redirects);
          }
          return;
        }
        // Anything else (arithmetic, words at statement level): check its substitutions.
        this.liftAll(node);
    }
  }

  private redirected(node: Node, piped: boolean, outer: Redirect[]): void {
    const body = node.childForFieldName('body');
    const redirects = [...outer];
    let fed = piped;
    const after: Node[] = [];
    for (const r of node.namedChildren) {
      if (!r || r === body || r.id === body?.id) continue;
      for (const redirect of this.redirect(r, after)) {
        redirects.push(redirect);
        if (['<', '<<', '<<<', '<>', '<&'].includes(redirect.op)) fed = true;
      }
    }
    if (body) {
      if (body.type === 'command') this.out.commands.push(this.command(body, piped, redirects));
      else {
        // `while …; done < script` or `{ …; } <<EOF`: every command inside may read that input.
        this.statement(body, fed, []);
        if (redirects.length) this.out.commands.push({ words: [], redirects, piped, assignments: [] });
      }
    } else if (redirects.length) {
      // `> ~/.bashrc`: a redirection alone still opens (and empties) its file.
      this.out.commands.push({ words: [], redirects, piped, assignments: [] });
    }
    // `cat <<EOF | sh`: the grammar hangs the rest of the pipeline under the here-document.
    for (const a of after) {
      if (a.type === 'pipeline') {
        for (const c of a.namedChildren) if (c) this.statement(c, true, []);
      } else this.statement(a, false, []);
    }
  }

  /**
   * One redirection (a here-document may carry more: `cat <<EOF > out`); statements the grammar
   * nests inside a here-document (`cat <<EOF | sh`, `cat <<EOF && rm x`) go to `after`.
   */
  private redirect(node: Node, after: Node[]): Redirect[] {
    if (node.type === 'heredoc_redirect') {
      let expands = true;
      const found: Redirect[] = [{ op: '<<', target: '' }];
      for (const c of node.namedChildren) {
        if (!c) continue;
        if (c.type === 'heredoc_start') expands = !/['"\\]/.test(c.text);
        else if (c.type === 'heredoc_body') {
          if (expands) this.liftAll(c);
        } else if (c.type === 'file_redirect' || c.type === 'herestring_redirect')
          pushAll(found, this.redirect(c, after));
        else if (c.type !== 'heredoc_end' && c.type !== 'file_descriptor') after.push(c);
      }
      return found;
    }
    if (node.type === 'herestring_redirect') {
      const value = node.namedChildren.find((c) => c && c.type !== 'file_descriptor');
      return [{ op: '<<<', target: value ? this.word(value) : '' }];
    }
    if (node.type === 'file_redirect') {
      const op = node.children.find((c) => c && !c.isNamed)?.text ?? '>';
      const dest =
        node.childForFieldName('destination') ??
        node.namedChildren.filter((c) => c?.type !== 'file_descriptor').pop();
      return [{ op, target: dest ? this.word(dest) : '' }];
    }
    return [];
  }

  private command(node: Node, piped: boolean, redirects: Redirect[]): SimpleCommand {
    const cmd: SimpleCommand = { words: [], redirects: [...redirects], piped, assignments: [] };
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'variable_assignment') pushAll(cmd.assignments, this.assignments(c));
      else if (
        c.type === 'file_redirect' ||
        c.type === 'herestring_redirect' ||
        c.type === 'heredoc_redirect'
      ) {
        pushAll(cmd.redirects, this.redirect(c, []));
      } else if (c.type === 'command_name') {
        const inner = c.namedChildren[0];
        cmd.words.push(inner ? this.word(inner) : c.text);
      } else cmd.words.push(this.word(c));
    }
    return cmd;
  }

  private assignments(node: Node): [string, string][] {
    if (node.type === 'variable_assignments')
      return node.namedChildren.flatMap((c) => (c ? this.assignments(c) : []));
    const name = node.childForFieldName('name')?.text ?? node.namedChildren[0]?.text ?? '';
    const value = node.childForFieldName('value');
    return [[name.replace(/\[.*$/, ''), value ? this.word(value) : '']];
  }

  private declaration(node: Node): SimpleCommand {
    const keyword = node.children[0]?.text ?? 'declare';
    const words = [keyword];
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'variable_assignment') {
        const [[name, value]] = this.assignments(c) as [[string, string]];
        words.push(`${name}=${value}`);
      } else words.push(this.word(c));
    }
    return { words, redirects: [], piped: false, assignments: [] };
  }

  private forLoop(node: Node, piped: boolean, redirects: Redirect[]): void {
    const variable = node.childForFieldName('variable')?.text ?? '';
    const values = node.childrenForFieldName('value').filter((v): v is Node => v !== null);
    const value = values.length ? values.map((v) => this.word(v)).join(ALTERNATIVES) : mark('@');
    this.out.commands.push({ words: [], redirects: [], piped: false, assignments: [[variable, value]] });
    const body = node.childForFieldName('body');
    if (body) this.statements(body, piped, redirects);
  }

  private functionDef(node: Node): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    const start = this.out.commands.length;
    if (body) this.statement(body, false, []);
    // The body's commands are checked like any others; the list also spots recursion (fork bombs).
    this.out.functions.push({ name, body: this.out.commands.slice(start) });
  }

  /** Lift every command substitution under a node (for nodes that are not words). */
  private liftAll(node: Node): void {
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'command_substitution' || c.type === 'process_substitution') this.lift(c);
      else this.liftAll(c);
    }
  }

  private lift(node: Node): string {
    const kids = node.children.filter((c): c is Node => c !== null);
    const open = kids[0];
    const close = kids[kids.length - 1];
    const body = open && close ? this.src.slice(open.endIndex, close.startIndex) : node.text;
    // `>(cmd)` reads what is written to it: check it as if a pipe fed it.
    this.out.substitutions.push(open?.text === '>(' ? `: | ${body}` : body);
    return mark(`${SUB_PREFIX}${this.out.substitutions.length - 1}`);
  }

  /** A word as the shell will see it: quotes removed, expansions marked. */
  word(node: Node): string {
    switch (node.type) {
      case 'word':
        return node.text.replace(/\\(.)/gs, '$1');
      case 'raw_string':
        return node.text.slice(1, -1);
      case 'ansi_c_string':
        return ansiC(node.text.slice(2, -1));
      case 'string':
      case 'translated_string':
        return this.parts(node, true);
      case 'concatenation':
        return this.parts(node, false);
      case 'simple_expansion':
        return mark(node.text.slice(1));
      case 'expansion':
        return mark(node.text.replace(/^\$\{/, '').replace(/\}$/, '').trim());
      case 'command_substitution':
      case 'process_substitution':
        return this.lift(node);
      case 'arithmetic_expansion':
        this.liftAll(node);
        return mark('ARITH');
      default:
        this.liftAll(node);
        return node.text;
    }
  }

  /** The parts of a string or concatenation, with the text between them kept as it is. */
  private parts(node: Node, quoted: boolean): string {
    const kids = node.children.filter((c): c is Node => c !== null && c.type !== '"' && c.type !== '$"');
    let out = '';
    let at = quoted ? node.startIndex + (node.text.startsWith('$"') ? 2 : 1) : node.startIndex;
    for (const c of kids) {
      out += this.src.slice(at, c.startIndex);
      out += c.type === 'string_content' ? c.text.replace(/\\([$`"\\\n])/g, '$1') : this.word(c);
      at = c.endIndex;
    }
    const end = quoted ? node.endIndex - 1 : node.endIndex;
    if (at < end) out += this.src.slice(at, end);
    return out;
  }
}

/** Decode `$'…'`: the escapes bash knows. */
function ansiC(body: string): string {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, e: string) => {
      if (e[0] === 'x' || e[0] === 'u' || e[0] === 'U') {
        const code = Number.parseInt(e.slice(1), 16);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
      if (e[0] === 'c') return String.fromCharCode((e.charCodeAt(1) ?? 64) & 31);
      return simple[e] ?? `\\${e}`;
    },
  );
}
