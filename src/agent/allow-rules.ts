/**
 * Which of the person's lasting rules (`allow:` in config.yaml, support/allow-config.ts) covers a
 * call, told to the one policy (`decide`) as a `RuleCover`. Pure: the tool's kind, its
 * assessment (the standing key the shell and MCP tools give) and its outbound requests decide.
 *
 * - `tool: X` covers calls of the tool X, unless X is the shell or an MCP tool (each has its own
 *   rule, narrower than "every command" or "every tool of every server").
 * - `tool: X, host: H` covers X's calls whose every request goes to H, and what they send there.
 * - `shell: words…` covers a command the shell would offer "always" for (the policy has nothing
 *   to say about it) whose words, bare options aside, begin with the rule's; a command allowed
 *   only exactly (a program named by path, options before a subcommand) must be the rule's words.
 * - `mcp: S` covers the tools of server S, `mcp: S, tool: T` its tool T — not their arguments
 *   leaving for the server, which the server's `egress: true` is for.
 */
import type { AllowRule } from '../support/allow-config.js';
import { readStandingKey } from '../tools/standing.js';
import type { Assessment, Outbound, ToolKind } from '../tools/types.js';
import { NO_RULE, type RuleCover, siteHost } from './permissions.js';

export interface RuleCall {
  name: string;
  kind: ToolKind;
  assessment: Assessment;
  outbound: readonly Outbound[];
}

/** What the rules cover of this call (the widest cover any rule gives). */
export function ruleCover(rules: readonly AllowRule[] | undefined, call: RuleCall): RuleCover {
  let best = NO_RULE;
  for (const rule of rules ?? []) {
    const cover = coverOf(rule, call);
    if (cover.sending) return cover;
    if (cover.call) best = cover;
  }
  return best;
}

function coverOf(rule: AllowRule, call: RuleCall): RuleCover {
  const yes = (sending = false): RuleCover => ({ call: true, sending });
  switch (rule.kind) {
    case 'tool': {
      if (rule.tool !== call.name || call.kind === 'shell' || isMcp(call.kind)) return NO_RULE;
      if (!rule.host) return yes();
      const hosts = call.outbound.map((o) => (o.kind === 'url' ? siteHost(o.url) : undefined));
      return hosts.length && hosts.every((h) => h === rule.host) ? yes(true) : NO_RULE;
    }
    case 'shell':
      return call.kind === 'shell' && shellMatches(rule.words, call.assessment) ? yes() : NO_RULE;
    case 'mcp': {
      const mcp = call.assessment.standing?.mcp;
      if (!isMcp(call.kind) || !mcp || mcp.server !== rule.server) return NO_RULE;
      return rule.tool === undefined || rule.tool === mcp.tool ? yes() : NO_RULE;
    }
  }
}

const isMcp = (kind: ToolKind) => kind === 'mcp' || kind === 'mcp-auto';

/** A bare option: no value attached, so it names no file (`-la`, `--short`); as the shell's prefix.ts. */
const BARE_OPTION = /^--?[A-Za-z0-9][A-Za-z0-9-]*$/;

function shellMatches(ruleWords: readonly string[], assessment: Assessment): boolean {
  // No standing offer: the policy warned, or the line is not one plain command.
  if (assessment.warning || !assessment.standing) return false;
  const grant = readStandingKey(assessment.standing.key);
  if (grant?.kind === 'exact')
    return grant.words.length === ruleWords.length && grant.words.every((w, i) => w === ruleWords[i]);
  if (grant?.kind !== 'prefix') return false;
  const command = [...grant.words, ...grant.operands];
  const wanted = ruleWords.filter((w) => !BARE_OPTION.test(w));
  return wanted.length > 0 && wanted.length <= command.length && wanted.every((w, i) => w === command[i]);
}
