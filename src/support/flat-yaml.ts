/**
 * The common config.yaml — a few `key: value` lines, as the setup wizard and `zhi config set`
 * write it — read without the yaml library, which costs tens of milliseconds to load on every
 * start. Only text whose meaning is certain is read here: top-level keys with a plain word, a
 * number, true/false/null or a quoted string without escapes. Anything else (nesting, lists,
 * anchors, escapes, a repeated key…) returns undefined and goes to the real parser, so a file
 * always means what YAML says it means.
 */

const LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]+(.*?))?[ \t]*$/;
/** A plain scalar made of characters that cannot start or hide any YAML syntax. */
const WORD = /^[A-Za-z0-9_./][A-Za-z0-9_./@+:-]*$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
/** What else the core schema reads as a number (1e3, 0x1F, 0o17, .5, 1., .inf, .nan…). */
const NUMBERISH =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/** YAML 1.2 core schema words that are not strings. */
const SPECIAL: Record<string, unknown> = {
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false,
  null: null,
  Null: null,
  NULL: null,
  '~': null,
};

/** The mapping of a flat YAML file, or undefined when the file needs the real parser. */
export function parseFlatYaml(text: string): Record<string, unknown> | undefined {
  if (text.length > 8192) return undefined;
  const out: Record<string, unknown> = {};
  for (const raw of text.split(/\r?\n/)) {
    if (/^[ \t]*(#.*)?$/.test(raw)) continue;
    const m = LINE.exec(raw);
    if (!m) return undefined;
    const key = m[1]!;
    if (Object.hasOwn(out, key) || key === '__proto__') return undefined;
    const value = scalar(stripComment(m[2] ?? ''));
    if (value === NOT_FLAT) return undefined;
    out[key] = value;
  }
  return out;
}

const NOT_FLAT = Symbol('not flat');

/** ` # comment` after a value (a `#` with no space before it is part of the value). */
function stripComment(v: string): string {
  const at = v.search(/[ \t]#/);
  return (at >= 0 ? v.slice(0, at) : v).trimEnd();
}

function scalar(v: string): unknown {
  if (v === '') return null;
  if (Object.hasOwn(SPECIAL, v)) return SPECIAL[v];
  if (NUMBER.test(v)) return Number(v);
  // A word YAML reads as a number in another spelling, or that ends like a key, goes to yaml.
  if (WORD.test(v)) return NUMBERISH.test(v) || v.endsWith(':') ? NOT_FLAT : v;
  const dq = /^"([^"\\]*)"$/.exec(v);
  if (dq) return dq[1];
  const sq = /^'([^']*)'$/.exec(v);
  if (sq) return sq[1];
  return NOT_FLAT;
}
