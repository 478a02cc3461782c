/**
 * An MCP server's JSON Schema as GLM's function calling takes it: plain objects, arrays and
 * scalars with their descriptions. Servers write schemas GLM does not read — the Python SDK's
 * Pydantic models put every nested type in `$defs` and point at it with `$ref`, optional fields
 * are `anyOf: [X, {type: null}]`, TypeScript servers write `type: ["string", "null"]` — so those
 * constructs are rewritten here into what they mean, never dropped (a dropped `$ref` left the
 * model with `{"invoice": {}}` and no fields to fill).
 */

/** JSON Schema keywords passed on as they are (after their sub-schemas are converted). */
const KEEP = new Set([
  'type',
  'properties',
  'required',
  'description',
  'enum',
  'items',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  // A format the model must match (an id like "^[A-Z]{2}-\\d+$"): dropping it left it guessing.
  'pattern',
]);

/** Nested types deeper than this (a tree of comments) are described rather than spelled out. */
export const MAX_DEPTH = 8;
/** A property's description is kept whole up to this many characters, then cut at a word. */
export const MAX_PROPERTY_DESCRIPTION = 1000;
/** A tool's description is kept whole up to this many characters (it is sent only once found). */
export const MAX_TOOL_DESCRIPTION = 4000;

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text cut at the last word boundary before `max` characters, marked with "…" when cut. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.search(/\s\S*$/);
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

interface Walk {
  /** `$defs` and `definitions` of the root schema, by pointer (`#/$defs/Item`). */
  defs: Map<string, unknown>;
  /** The root schema, for any other local pointer (`#/properties/address`, as zod-to-json-schema writes). */
  root: unknown;
  /** The references being expanded on the way down (a type that contains itself). */
  stack: string[];
}

/** The root schema's local definitions, by the pointers `$ref` uses. */
function definitions(root: unknown): Map<string, unknown> {
  const defs = new Map<string, unknown>();
  if (!isNode(root)) return defs;
  for (const key of ['$defs', 'definitions']) {
    const group = root[key];
    if (!isNode(group)) continue;
    for (const [name, def] of Object.entries(group)) defs.set(`#/${key}/${name}`, def);
  }
  return defs;
}

/** A schema with its `$ref` replaced by the definition it points to (own keywords win). */
function resolveRef(node: Node, walk: Walk, depth: number): Node {
  const ref = node.$ref as string;
  const target = walk.defs.get(ref) ?? pointTo(walk.root, ref);
  const { $ref: _ref, ...own } = node;
  const name = ref.split('/').pop() ?? ref;
  if (!isNode(target)) return { ...own, description: joinText(own.description, `(${name})`) };
  if (walk.stack.includes(ref) || depth > MAX_DEPTH) {
    // A type that contains itself: spell it out once, then say what goes there.
    const what = `A ${name} object, shaped like its parent.`;
    return { type: 'object', description: joinText(own.description ?? target.description, what) };
  }
  walk.stack.push(ref);
  try {
    return { ...(convert(target, walk, depth + 1) as Node), ...(convert(own, walk, depth) as Node) };
  } finally {
    walk.stack.pop();
  }
}

/** What a local JSON pointer (`#/properties/a/items`) points to in the root schema, if anything. */
function pointTo(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isNode(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

function joinText(a: unknown, b: string): string {
  return typeof a === 'string' && a.trim() ? `${a.trim()} ${b}` : b;
}

/** `type: ["string", "null"]` → `type: "string"`; a choice of several types is said in words. */
function oneType(node: Node): Node {
  if (!Array.isArray(node.type)) return node;
  const types = node.type.filter((t) => t !== 'null');
  const out: Node = { ...node, type: types[0] ?? 'string' };
  if (types.length > 1) out.description = joinText(node.description, `(one of: ${types.join(', ')})`);
  return out;
}

/**
 * `anyOf`/`oneOf` → one schema: an optional field's `[X, null]` is X; alternatives that are all
 * objects merge their properties; otherwise the first alternative is the schema and the others
 * are named in its description.
 */
function oneOfAlternatives(node: Node, walk: Walk, depth: number): Node {
  const key = Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf';
  const { [key]: raw, ...rest } = node;
  const converted = (raw as unknown[])
    .map((o) => convert(o, walk, depth + 1) as Node)
    .filter((o) => isNode(o) && o.type !== 'null');
  const own = convert(rest, walk, depth) as Node;
  if (!converted.length) return own;
  if (converted.length === 1) return { ...converted[0], ...own };
  if (converted.every((o) => o.type === 'object')) return { ...mergeObjects(converted), ...own };
  const others = converted.slice(1).map(summary).join('; ');
  const first = converted[0]!;
  return { ...first, ...own, description: joinText(own.description ?? first.description, `(or: ${others})`) };
}

/** `allOf` → one object with every part's properties (Pydantic wraps a described `$ref` in it). */
function allParts(node: Node, walk: Walk, depth: number): Node {
  const { allOf, ...rest } = node;
  const parts = (allOf as unknown[]).map((p) => convert(p, walk, depth + 1) as Node);
  const merged = parts.length === 1 ? parts[0]! : mergeObjects(parts);
  return { ...merged, ...(convert(rest, walk, depth) as Node) };
}

function mergeObjects(parts: Node[]): Node {
  const properties: Node = {};
  const required = new Set<string>();
  for (const p of parts) {
    Object.assign(properties, isNode(p.properties) ? p.properties : {});
    for (const r of Array.isArray(p.required) ? p.required : []) required.add(String(r));
  }
  const out: Node = { type: 'object', properties };
  if (required.size) out.required = [...required];
  return out;
}

/** A few words for an alternative: its type, and its fields or values. */
function summary(s: Node): string {
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.type === 'object' && isNode(s.properties))
    return `an object with ${Object.keys(s.properties).join(', ') || 'any fields'}`;
  if (s.type === 'array' && isNode(s.items)) return `a list of ${summary(s.items)}`;
  return String(s.type ?? 'any value');
}

function convert(node: unknown, walk: Walk, depth: number): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, walk, depth + 1));
  if (!isNode(node)) return node;
  if (typeof node.$ref === 'string') return resolveRef(node, walk, depth);
  if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf)) return oneOfAlternatives(node, walk, depth);
  if (Array.isArray(node.allOf)) return allParts(node, walk, depth);
  const src = oneType(node);
  const out: Node = {};
  if (src.const !== undefined && src.enum === undefined) out.enum = [src.const];
  for (const [k, v] of Object.entries(src)) {
    if (!KEEP.has(k)) continue;
    if (k === 'properties' && isNode(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, convert(s, walk, depth + 1)]));
    } else if (k === 'items') {
      // A tuple (`items: [A, B]`) is described by its first element.
      out[k] = convert(Array.isArray(v) ? (v[0] ?? {}) : v, walk, depth + 1);
    } else if (k === 'description' && typeof v === 'string') {
      out[k] = cutAtWord(v, MAX_PROPERTY_DESCRIPTION);
    } else out[k] = v;
  }
  if (out.type === undefined && isNode(out.properties)) out.type = 'object';
  if (Array.isArray(out.enum) && out.type === undefined)
    out.type = typeof out.enum[0] === 'number' ? 'number' : 'string';
  return out;
}

/** A server's input schema, converted, always an object with properties. */
export function glmSchema(schema: unknown): Record<string, unknown> {
  const walk: Walk = { defs: definitions(schema), root: schema, stack: [] };
  const out = (convert(schema ?? {}, walk, 0) ?? {}) as Node;
  out.type = 'object';
  if (!isNode(out.properties)) out.properties = {};
  return out;
}
