import type { ToolKind } from '../tools/types.js';

export type PermissionMode = 'approve' | 'auto';
export type Decision = 'allow' | 'ask' | 'deny';

/** What the policy knows about a call that reaches a web site (web_fetch). */
export interface SiteFacts {
  /** The person typed this URL, or allowed its domain for the session. */
  preapproved: boolean;
}

/**
 * The one permission policy, used by every mode (design §3):
 * - read tools run — except reads that leave the computer (web_fetch, `site` given): in approve
 *   mode they ask unless the person typed the URL or allowed its domain; auto mode runs them;
 * - risky tools ask in approve mode and run in auto mode;
 * - shell asks every time, in every mode; so do MCP tools (`mcp`), except those of a server
 *   trusted `auto` (`mcp-auto`), which run in auto mode (with or without a terminal) — in
 *   approve mode with no terminal only read-trusted servers (their tools are `read`) run;
 * - with no person to ask (stdin not a terminal), every "ask" is a deny.
 */
export function decide(
  kind: ToolKind,
  mode: PermissionMode,
  interactive: boolean,
  site?: SiteFacts,
): Decision {
  if (kind === 'read' && !site) return 'allow';
  if (kind === 'read' && (mode === 'auto' || site?.preapproved)) return 'allow';
  if (kind === 'risky' && mode === 'auto') return 'allow';
  // `trust: auto` is the person's word that the server may run in auto mode, as documented, also
  // without a terminal (`zhi -c … --auto` in a script).
  if (kind === 'mcp-auto' && mode === 'auto') return 'allow';
  return interactive ? 'ask' : 'deny';
}

/**
 * Web addresses the person vouched for during a session: URLs they typed (their messages, `-c`
 * text, skill inputs) and domains they allowed "always" when asked. Plain data, kept by the
 * mode (one per REPL session or command) and read by the policy through `sitePreapproved`.
 */
export interface WebGrants {
  typed: Set<string>;
  hosts: Set<string>;
  /** Tools asked once per session (web_search) the person allowed. */
  tools?: Set<string>;
  /**
   * Standing approvals given this session ("always" for an MCP tool, a shell command prefix):
   * the keys of Assessment.standing. Kept here, with the sites, as the session's grants.
   */
  standing?: Set<string>;
}

export function newWebGrants(): WebGrants {
  return { typed: new Set(), hosts: new Set(), tools: new Set(), standing: new Set() };
}

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

/** Remember the URLs in something the person typed. */
export function grantTyped(grants: WebGrants, text: string): void {
  for (const url of urlsInText(text)) grants.typed.add(url);
}

/** Did the person type exactly this URL, or allow its domain for the session? */
export function sitePreapproved(url: string, grants: WebGrants | undefined): boolean {
  if (!grants) return false;
  const norm = normaliseUrl(url);
  if (norm && grants.typed.has(norm)) return true;
  const host = siteHost(url);
  return host !== undefined && grants.hosts.has(host);
}
