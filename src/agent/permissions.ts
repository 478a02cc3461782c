import type { AllowRule } from '../support/allow-config.js';
import type { ToolKind } from '../tools/types.js';

export type PermissionMode = 'approve' | 'auto';
export type Decision = 'allow' | 'ask' | 'deny';

/**
 * The one permission policy, used by every mode (design §3):
 * - a call that sends data the model composed off the computer (`sendsOut`: the egress rule of
 *   agent/egress.ts said ask) asks in every mode — `--auto` covers writing files, not sending;
 * - read tools run;
 * - risky tools ask in approve mode and run in auto mode;
 * - shell asks every time, in every mode; so do MCP tools (`mcp`), except those of a server
 *   trusted `auto` (`mcp-auto`), which run in auto mode (with or without a terminal) — in
 *   approve mode with no terminal only read-trusted servers (their tools are `read`) run;
 * - a lasting rule of the person's (`allow:` in config, matched by agent/allow-rules.ts) covering
 *   the call runs it in every mode, with or without a terminal; it covers what the call sends
 *   out only when the rule names the one site it goes to (`covers.sending`);
 * - with no person to ask (stdin not a terminal), every "ask" is a deny.
 *
 * What the tools refuse outright (a shell refusal, a secret leaving) is refused before this.
 */
export function decide(
  kind: ToolKind,
  mode: PermissionMode,
  interactive: boolean,
  sendsOut = false,
  covers: RuleCover = NO_RULE,
): Decision {
  if (sendsOut && !covers.sending) return interactive ? 'ask' : 'deny';
  if (covers.call) return 'allow';
  if (kind === 'read') return 'allow';
  if (kind === 'risky' && mode === 'auto') return 'allow';
  // `trust: auto` is the person's word that the server may run in auto mode, as documented, also
  // without a terminal (`zhi -c … --auto` in a script).
  if (kind === 'mcp-auto' && mode === 'auto') return 'allow';
  return interactive ? 'ask' : 'deny';
}

/** What a lasting rule covers of one call: the call itself, and what it sends off the computer. */
export interface RuleCover {
  call: boolean;
  sending: boolean;
}

export const NO_RULE: RuleCover = { call: false, sending: false };

/**
 * What the person allowed during a session beyond a plain yes, by kind: web addresses, shell
 * commands, MCP tools; and their lasting rules. Plain data, kept by the mode (one per REPL
 * session or command), read by the approvals (agent/tool-calls.ts) and the egress rule.
 */
export interface SessionGrants {
  web: WebGrants;
  /**
   * Shell commands allowed "always" this session (a prefix, or a command word for word): keys of
   * Assessment.standing (tools/standing.ts).
   */
  shell: Set<string>;
  /** MCP tools allowed "always" this session: keys of Assessment.standing. */
  mcp: Set<string>;
  /** The person's lasting rules (`allow:` in config.yaml), the same for every session. */
  rules?: readonly AllowRule[];
}

/**
 * Web addresses the person vouched for during a session: URLs they typed (their messages, `-c`
 * text, skill inputs) and domains they allowed "always" when asked; with what they said and what
 * was sent, the facts of the egress rule (agent/egress.ts).
 */
export interface WebGrants {
  typed: Set<string>;
  /** Sites allowed for the session ("always for this site") or in config (`web_allow`). */
  hosts: Set<string>;
  /** What the person typed this session (bounded): the files they named may be uploaded. */
  said?: string[];
  /** What this session's requests sent off the computer, newest last (agent/egress.ts). */
  sent?: string[];
  /** The person's rule `web_search: allow`: queries go without a question. */
  searchAllowed?: boolean;
}

/** A session's grants, seeded by the person's rules in config (`web_allow`, `web_search`, `allow`). */
export function newSessionGrants(
  rules: {
    webAllow?: readonly string[];
    webSearch?: 'ask' | 'allow';
    allowRules?: readonly AllowRule[];
  } = {},
): SessionGrants {
  const sites = rules.webAllow ?? [];
  const hosts = new Set(sites.map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean));
  const web: WebGrants = { typed: new Set(), hosts, said: [], sent: [] };
  if (rules.webSearch === 'allow') web.searchAllowed = true;
  const grants: SessionGrants = { web, shell: new Set(), mcp: new Set() };
  if (rules.allowRules?.length) grants.rules = rules.allowRules;
  return grants;
}

/** The session's "always" answers of a standing approval's kind: an MCP tool's, or the shell's. */
export function standingGrants(grants: SessionGrants, standing: { mcp?: unknown }): Set<string> {
  return standing.mcp ? grants.mcp : grants.shell;
}

/** Texts the person typed kept for naming files: the newest, and each cut to this length. */
const SAID_TEXTS = 50;
const SAID_CHARS = 20_000;

/** `https://Example.com/a?b#c` → `https://example.com/a?b` (no fragment), or undefined when not http(s). */
export function normaliseUrl(raw: string): string | undefined {
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

/** The host a standing approval covers (lower case, no port, no trailing dot). */
export function siteHost(raw: string): string | undefined {
  try {
    return new URL(raw.trim()).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

// Up to whitespace, quotes, angle brackets and CJK punctuation; trailing ASCII punctuation is trimmed.
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`，。；！？、）」』】《》]+/gi;

/** The http(s) URLs in text a person typed, normalised. */
export function urlsInText(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    let raw = m[0].replace(/[.,;:!?)\]}]+$/, '');
    // "(see https://a.example/x)" keeps no ")" but "https://a.example/wiki/A_(b)" keeps its own.
    if (raw.includes('(') && !raw.endsWith(')') && m[0].slice(raw.length).startsWith(')')) raw += ')';
    const url = normaliseUrl(raw);
    if (url) out.push(url);
  }
  return out;
}

/** Remember something the person typed: the URLs in it, and the text (the files it names). */
export function grantTyped(grants: SessionGrants, text: string): void {
  const web = grants.web;
  for (const url of urlsInText(text)) web.typed.add(url);
  web.said ??= [];
  web.said.push(text.slice(0, SAID_CHARS));
  if (web.said.length > SAID_TEXTS) web.said.splice(0, web.said.length - SAID_TEXTS);
}
