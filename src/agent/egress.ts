/**
 * The egress rule: the one place that decides whether what a call sends off this computer needs
 * the person's yes. Nothing is enumerated: a request is judged by what it carries, not by
 * whether its text matches a list.
 *
 * - Free (no question from this rule): an address the person typed, exactly; an address on a site
 *   they allowed (at the question, or `web_allow` in config) that carries no composed data (no
 *   query, no user name, no long or opaque path segment); MCP arguments of a server trusted for
 *   egress (`egress: true`) or empty; a file upload of a file the person named.
 * - Everything else the model composed asks, in every mode: `--auto` covers writing files, not
 *   sending data out; with no terminal it is refused with the reason. Every web_search query asks,
 *   unless the person's config says `web_search: allow`.
 * - Second line, whatever the answer or rule: a request carrying a secret in any spelling, alone
 *   or joined to the session's earlier requests (`carriesSecret`), is refused before anyone is asked.
 *
 * Pure: the caller (agent/tool-calls.ts) gives the session's facts and acts on the verdict.
 */

import { pushAll } from '../support/arrays.js';
import { t } from '../support/i18n/index.js';
import { carriesSecret } from '../support/redact.js';
import { visible } from '../support/sanitize.js';
import { percentDecoded, withoutInvisible } from '../support/secret-decode.js';
import type { Outbound } from '../tools/types.js';
import { normaliseUrl, siteHost, type WebGrants } from './permissions.js';

/** What the session knows: what the person typed and allowed, and what was sent before. */
export interface EgressFacts {
  /** URLs the person typed (normalised, as `normaliseUrl` gives them). */
  typed: ReadonlySet<string>;
  /** Sites the person allowed: "always for this site" at a question, or `web_allow` in config. */
  hosts: ReadonlySet<string>;
  /** The texts the person typed this session (messages, `-c`, skill inputs): files they named. */
  said: readonly string[];
  /** What this session's earlier requests sent, most recent last (`recordSent`). */
  sent: readonly string[];
  /** The person's rule in config (`web_search: allow`): queries go without a question. */
  searchAllowed?: boolean;
}

/** One line of the question: where it goes and what it carries (decoded when it was encoded). */
export interface Sending {
  kind: Outbound['kind'];
  to: string;
  data: string;
  /** The data with percent-encoding and invisible characters undone, when that differs. */
  decoded?: string;
}

export type EgressVerdict =
  /** Nothing composed leaves (or only what the person allowed): the usual policy decides. */
  | { kind: 'free'; texts: string[] }
  /** The person must say yes, in every mode; with no terminal it is refused. */
  | { kind: 'ask'; texts: string[]; sending: Sending[] }
  /** A secret would leave: refused before anyone is asked. */
  | { kind: 'secret'; texts: string[] };

/** The texts that leave with a call: what the secret check and the session's window look at. */
export function outboundTexts(out: readonly Outbound[]): string[] {
  // An upload's name leaves with the file (a file named with the key is the key leaving).
  return out.map((o) => (o.kind === 'url' ? o.url : o.kind === 'upload' ? o.path : o.text));
}

/** Decide what a call's outbound requests need. */
export function decideEgress(out: readonly Outbound[], facts: EgressFacts): EgressVerdict {
  const texts = outboundTexts(out).filter((t) => t.length > 0);
  if (texts.some((t) => carriesSecret(t, facts.sent))) return { kind: 'secret', texts };
  const sending: Sending[] = [];
  for (const o of out) {
    const s = needsAsking(o, facts);
    if (s) sending.push(s);
  }
  return sending.length ? { kind: 'ask', texts, sending } : { kind: 'free', texts };
}

/** What one request would send that the person has not allowed, or undefined when it is free. */
function needsAsking(o: Outbound, facts: EgressFacts): Sending | undefined {
  switch (o.kind) {
    case 'url': {
      if (urlIsFree(o.url, facts)) return undefined;
      return shown(o.kind, siteHost(o.url) ?? o.url, o.url);
    }
    case 'query':
      return o.text.trim() && !facts.searchAllowed ? shown(o.kind, o.to, o.text) : undefined;
    case 'args':
      return o.trusted || isEmptyArgs(o.text) ? undefined : shown(o.kind, o.to, o.text);
    case 'upload':
      return fileNamed(o.path, facts.said) ? undefined : shown(o.kind, o.to, o.path);
  }
}

/** An address the person typed, or one on a site they allowed that carries no composed data. */
export function urlIsFree(url: string, facts: Pick<EgressFacts, 'typed' | 'hosts'>): boolean {
  const norm = normaliseUrl(url);
  // Not an http(s) address: the tool refuses it before anything is sent.
  if (norm === undefined) return true;
  if (facts.typed.has(norm)) return true;
  const host = siteHost(url);
  return host !== undefined && facts.hosts.has(host) && !carriesData(norm);
}

/** Path segments longer than this are data, whatever they look like. */
const LONG_SEGMENT = 64;
/** A run of letters and digits this long with both in it looks like an encoding, not a word. */
const OPAQUE_RUN = 16;

/**
 * Does this address carry data beyond naming a page: a query, user name or password, a long
 * path segment, or an opaque one (a run of letters mixed with digits, as encodings and keys are)?
 */
export function carriesData(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return true;
  }
  if (u.search.length > 1 || u.username || u.password) return true;
  // A host label is a path too (`<encoded key>.site.example`), though only allowed sites get here.
  const parts = [...u.hostname.split('.'), ...u.pathname.split('/')];
  return parts.some((raw) => {
    const seg = percentDecoded(withoutInvisible(raw));
    return seg.length > LONG_SEGMENT || opaque(seg);
  });
}

function opaque(segment: string): boolean {
  for (const run of segment.match(/[A-Za-z0-9+=]+/g) ?? []) {
    if (run.length < OPAQUE_RUN) continue;
    if (/\d/.test(run) && /[A-Za-z]/.test(run)) return true;
    // Base64 without a digit: mixed case all along (a CamelCase title is shorter).
    if (run.length >= OPAQUE_RUN * 1.5 && /[a-z]/.test(run) && /[A-Z]/.test(run.slice(1))) return true;
  }
  return false;
}

function isEmptyArgs(text: string): boolean {
  const t = text.trim();
  return t === '' || t === '{}' || t === 'null';
}

/**
 * Did the person name this file, or a folder holding it (`zhi run ocr scans/`), in something
 * they typed? The path as the call gives it, `./` or not.
 */
export function fileNamed(path: string, said: readonly string[]): boolean {
  const p = path.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p) return false;
  const parts = p.split('/');
  const named = parts.map((_, i) => parts.slice(0, i + 1).join('/')).filter((n) => n.length > 1);
  return said.some((text) => {
    const t = text.replace(/\\/g, '/');
    return named.some((n, i) => (i === named.length - 1 ? t.includes(n) : t.includes(`${n}/`)));
  });
}

function shown(kind: Outbound['kind'], to: string, data: string): Sending {
  const decoded = percentDecoded(withoutInvisible(data));
  return decoded !== data ? { kind, to, data, decoded } : { kind, to, data };
}

/** How many earlier requests the secret check joins with the next one. */
export const SENT_WINDOW = 32;
/** How much of each earlier request the window keeps. */
const SENT_CHARS = 4096;

/** The facts of a session's grants (none: nothing typed, nothing allowed, nothing sent). */
export function egressFacts(grants: WebGrants | undefined): EgressFacts {
  return {
    typed: grants?.typed ?? new Set(),
    hosts: grants?.hosts ?? new Set(),
    said: grants?.said ?? [],
    sent: grants?.sent ?? [],
    ...(grants?.searchAllowed ? { searchAllowed: true } : {}),
  };
}

/** Remember what a call that goes ahead sends, for the check across requests (the newest SENT_WINDOW). */
export function recordSent(grants: WebGrants | undefined, verdict: EgressVerdict | undefined): void {
  if (!grants || !verdict?.texts.length) return;
  grants.sent ??= [];
  // Pieces of a key are short: the start of each text is enough, and keeps the check quick.
  pushAll(
    grants.sent,
    verdict.texts.map((text) => text.slice(0, SENT_CHARS)),
  );
  if (grants.sent.length > SENT_WINDOW) grants.sent.splice(0, grants.sent.length - SENT_WINDOW);
}

/** May a tool reach this address unasked while it runs (web_fetch's redirect to another site)? */
export function mayReach(url: string, grants: WebGrants | undefined): boolean {
  const facts = egressFacts(grants);
  return urlIsFree(url, facts) && !carriesSecret(url, facts.sent);
}

/**
 * What the question says would leave, and where (for the person): one warning line naming where
 * each request goes (what it carries is in the preview above it), and the lines to add to the
 * preview with what was encoded, decoded.
 */
export function egressQuestion(sending: readonly Sending[]): { warning: string; decoded: string[] } {
  const to = [...new Set(sending.map((s) => visible(s.to)))].join(', ');
  const decoded = sending
    .filter((s) => s.decoded)
    .map((s) => t('safety.egress.decoded', { data: visible(cut(s.decoded!)) }));
  return { warning: t('safety.egress.sends', { to }), decoded };
}

/** What the question shows of the data: all of it up to a screenful, then the length. */
function cut(text: string): string {
  const MAX = 600;
  return text.length > MAX ? `${text.slice(0, MAX)}… (+${text.length - MAX})` : text;
}
