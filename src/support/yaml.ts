/**
 * The one way zhi reads YAML (config, skills, front matter, anything else): a size limit before
 * parsing, a depth limit on the parsed tree, and an alias limit when the tree becomes data, so a
 * 480-byte "billion laughs" file or a 100,000-level `[[[[…` is a clear problem for that one file,
 * never a crash or a hang. Problems are returned, not thrown: callers decide how to report them.
 *
 * Import this module lazily (`await import('./yaml.js')`) from start-up paths: the yaml library
 * costs ~35 ms to load.
 */
import { type Document, isAlias, isCollection, isPair, isSeq, type LineCounter, parseDocument } from 'yaml';

export interface YamlLimits {
  /** Bytes of UTF-8 text. */
  maxBytes: number;
  /** Alias expansions while converting to data (yaml's own `maxAliasCount`). */
  maxAliases: number;
  /** Nesting of maps and lists. */
  maxDepth: number;
}

export const YAML_LIMITS: YamlLimits = { maxBytes: 1024 * 1024, maxAliases: 100, maxDepth: 64 };

export type YamlProblemCode = 'too_big' | 'syntax' | 'aliases' | 'depth';

export interface YamlProblem {
  code: YamlProblemCode;
  /** English, one line: what is wrong (the caller adds which file). */
  message: string;
  /** Character offset in the text, when known. */
  offset?: number;
  /** The yaml library's error code for a syntax problem (`MISSING_CHAR`, …). */
  yamlCode?: string;
}

export type YamlOutcome =
  | { ok: true; doc: Document.Parsed; value: unknown }
  | { ok: false; problems: YamlProblem[]; doc?: Document.Parsed };

export interface YamlOptions {
  limits?: Partial<YamlLimits>;
  lineCounter?: LineCounter;
}

/** Parse YAML text into a document and its data, within the limits. Never throws. */
export function parseYamlSafe(text: string, opts: YamlOptions = {}): YamlOutcome {
  const limits = { ...YAML_LIMITS, ...opts.limits };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    return fail('too_big', `the YAML is ${bytes} bytes; at most ${limits.maxBytes} bytes are read`);
  }
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, {
      prettyErrors: false,
      ...(opts.lineCounter ? { lineCounter: opts.lineCounter } : {}),
    });
  } catch (err) {
    // Deep flow nesting can exhaust the parser's stack before our depth check sees it.
    if (err instanceof RangeError)
      return fail('depth', `nested too deeply (more than ${limits.maxDepth} levels)`);
    return fail('syntax', firstLine((err as Error).message));
  }
  if (doc.errors.length) {
    return {
      ok: false,
      doc,
      problems: doc.errors.map((e) => ({
        code: 'syntax',
        message: firstLine(e.message),
        offset: e.pos[0],
        yamlCode: e.code,
      })),
    };
  }
  const deep = tooDeep(doc.contents, limits.maxDepth);
  if (deep) {
    return {
      ok: false,
      doc,
      problems: [
        {
          code: 'depth',
          message: `nested too deeply (more than ${limits.maxDepth} levels)`,
          ...(deep.offset !== undefined ? { offset: deep.offset } : {}),
        },
      ],
    };
  }
  try {
    return { ok: true, doc, value: doc.toJS({ maxAliasCount: limits.maxAliases }) };
  } catch (err) {
    const message = (err as Error).message;
    if (/alias/i.test(message)) {
      return {
        ok: false,
        doc,
        problems: [
          {
            code: 'aliases',
            message: `too many alias expansions (more than ${limits.maxAliases}; a "billion laughs" file?)`,
          },
        ],
      };
    }
    return { ok: false, doc, problems: [{ code: 'syntax', message: firstLine(message) }] };
  }
}

/** The line (1-based) where item `index` of the top-level list `key` starts, when the YAML says. */
export function listItemLine(text: string, key: string, index: number): number | undefined {
  const parsed = parseYamlSafe(text);
  const list = parsed.ok ? parsed.doc.get(key, true) : undefined;
  const offset = isSeq(list)
    ? (list.items[index] as { range?: [number, number, number] })?.range?.[0]
    : undefined;
  return offset === undefined ? undefined : text.slice(0, offset).split('\n').length;
}

/** The first node nested deeper than `max`, found without recursion (no stack to exhaust). */
function tooDeep(root: unknown, max: number): { offset?: number } | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (!node || isAlias(node)) continue;
    if (isPair(node)) {
      stack.push({ node: node.key, depth }, { node: node.value, depth });
      continue;
    }
    if (!isCollection(node)) continue;
    if (depth + 1 > max) {
      const offset = node.range?.[0];
      return offset !== undefined ? { offset } : {};
    }
    for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
  }
  return undefined;
}

function fail(code: YamlProblemCode, message: string): YamlOutcome {
  return { ok: false, problems: [{ code, message }] };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
