/**
 * The one redaction function. Everything zhi writes where a secret could end up — the log file,
 * `--debug` output, warnings, error messages, session files — passes `redact()`: the configured
 * API key and keys typed on the command line (the `SecretRegistry`), anything shaped like a key or token, and credentials
 * in URLs (`https://user:pass@host`, `?api_key=…`) become `[redacted]`.
 */

import { decodedForms, joinedData } from './secret-decode.js';

export const REDACTED = '[redacted]';

/** Key- and token-shaped strings, whoever issued them. */
export const KEY_SHAPES: readonly RegExp[] = [
  // Zhipu: <32 hex>.<secret>
  /\b[0-9a-f]{32}\.[A-Za-z0-9]{8,}/gi,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
];

/** `Bearer <token>` in a header or a message. */
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;
/** `scheme://user:password@` and `scheme://token@`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s?#@]+@/gi;
/** `?api_key=…`, `&token=…`, `"password": "…"`, `secret=…` */
const ASSIGNMENT =
  /((?:[?&;]|\b)(?:api[_-]?key|apikey|access[_-]?key|secret|client[_-]?secret|password|passwd|token|access[_-]?token|refresh[_-]?token|auth)["']?\s*[:=]\s*)("[^"\n]{4,}"|'[^'\n]{4,}'|[^\s"'&,;}]{4,})/gi;
const PRIVATE_KEY_BLOCK = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;

/**
 * The secrets whose exact value must never be written (the configured API key, keys typed on the
 * command line). Process-wide by nature: it guards every log line, error and session record,
 * including those written before the settings exist, so there is one per process, made and
 * installed first thing in `main` (cli/app.ts, `installSecrets`) and filled as keys become known
 * (the command line at once, the configured key in `buildContext`). Until one is installed (unit
 * tests), an empty registry stands in: redaction by shape still applies.
 */
export class SecretRegistry {
  private readonly values = new Set<string>();

  /** Remember a secret. Values shorter than 8 characters are ignored: replacing them would mangle ordinary text. */
  add(value: string | undefined): void {
    const v = value?.trim();
    if (v && v.length >= 8) this.values.add(v);
  }

  /**
   * The secrets typed on this command line, before anything is logged: the value of `zhi config
   * set api_key K` (any setting whose name says key, token, secret or password), `--api-key K` /
   * `--api-key=K`, and `NAME=VALUE` pairs with such a name (`zhi mcp add … --env
   * GITHUB_TOKEN=…`). Redaction by shape alone misses a key of an unfamiliar shape.
   */
  addFromArgv(argv: readonly string[]): void {
    argv.forEach((arg, i) => {
      const next = argv[i + 1];
      if (arg === 'set' && next && SECRET_NAME.test(next)) this.add(argv[i + 2]);
      const flag = /^--([\w-]+)(?:=(.*))?$/s.exec(arg);
      if (flag?.[1] && SECRET_NAME.test(flag[1])) this.add(flag[2] ?? next);
      const pair = /^([A-Za-z_][\w-]*)=(.+)$/s.exec(arg);
      if (pair?.[1] && SECRET_NAME.test(pair[1])) this.add(pair[2]);
    });
  }

  /** The secrets themselves (for checks that look for them encoded: tools/secret-content.ts). */
  list(): string[] {
    return [...this.values];
  }

  /** True when the text contains one of these secrets. */
  foundIn(text: string): boolean {
    for (const s of this.values) if (text.includes(s)) return true;
    return false;
  }

  /**
   * True when the text holds a piece of one of these secrets: FRAGMENT characters in a row of a
   * secret at least twice that long, in any letter case (host names are lower-cased on the way).
   * A key sent in halves, or with its id and secret apart, is caught by either half.
   */
  pieceIn(text: string): boolean {
    const lower = text.toLowerCase();
    for (const s of this.values) {
      if (s.length < FRAGMENT * 2) continue;
      const key = s.toLowerCase();
      for (let i = 0; i + FRAGMENT <= key.length; i++)
        if (lower.includes(key.slice(i, i + FRAGMENT))) return true;
    }
    return false;
  }

  /** The text with each of these secrets replaced. */
  hide(text: string): string {
    let out = text;
    for (const s of this.values) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }
}

/** The shortest piece of a registered secret that counts as the secret leaving. */
const FRAGMENT = 8;

/** Names of settings and variables whose value is a secret. */
const SECRET_NAME = /(?:^|_|-)(?:api_?key|apikey|key|token|secret|password|passwd|pass|auth|credentials?)$/i;

let installed = new SecretRegistry();

/** Make `registry` the process's: every `redact`, `carriesSecret` and log line consults it from now on. */
export function installSecrets(registry: SecretRegistry): SecretRegistry {
  installed = registry;
  return registry;
}

/** The process's registry (add the configured key to it once it is known). */
export function processSecrets(): SecretRegistry {
  return installed;
}

/** True when the text contains a registered secret (the configured key). */
export function containsKnownSecret(text: string): boolean {
  return installed.foundIn(text);
}

/** The text with every registered secret, key-shaped string and URL credential replaced. */
export function redact(text: string): string {
  if (!text) return text;
  let out = installed.hide(text);
  out = out.replace(PRIVATE_KEY_BLOCK, `-----BEGIN $1PRIVATE KEY----- ${REDACTED}`);
  for (const re of KEY_SHAPES) out = out.replace(re, REDACTED);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
  out = out.replace(ASSIGNMENT, (whole, head: string, value: string) => {
    if (value.includes(REDACTED)) return whole;
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
    // Unquoted words like "password: required" stay; values with a digit or of key length go.
    if (!quote && !/\d/.test(value) && value.length < 12) return whole;
    return `${head}${quote}${REDACTED}${quote}`;
  });
  return out;
}

/**
 * True when text about to leave the computer (a URL to fetch, a search query, an MCP tool's
 * arguments, a file's name) carries a registered secret or a piece of one, or anything `redact`
 * would hide: a key- or token-shaped string, a private key, credentials in a URL, `password=…`.
 * Checked in every spelling `decodedForms` undoes (base64, hex, base32, percent-encoding applied
 * any number of times, reversed, invisible characters inside), and — given the texts this
 * session sent before — over their data parts joined up, so a key sent in pieces is whole again.
 * Such a call is refused, not cleaned: a cleaned query would silently do something else.
 */
export function carriesSecret(text: string, earlier: readonly string[] = []): boolean {
  if (!text) return false;
  if (decodedForms(text).some(formCarries)) return true;
  if (!earlier.length) return false;
  return joinedData([...earlier, text]).some((joined) => decodedForms(joined).some(formCarries));
}

function formCarries(form: string): boolean {
  return containsKnownSecret(form) || installed.pieceIn(form) || redact(form) !== form;
}

/** `redact` for any value on its way to JSON (log data, session records): strings anywhere inside. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date) && !ArrayBuffer.isView(value)) {
    const toJSON = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof toJSON === 'function') return redactDeep(toJSON.call(value)) as T;
    if (value instanceof Error) {
      const e = new Error(redact(value.message));
      e.name = value.name;
      if (value.stack) e.stack = redact(value.stack);
      return e as T;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
