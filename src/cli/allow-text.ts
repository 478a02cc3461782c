/**
 * The person's lasting allow rules in their words: a bad entry's warning, the rules as a list
 * (`/status`, `zhi config show`, `zhi config allow list`).
 */
import type { AllowProblem, AllowRule } from '../support/allow-config.js';
import { allowRuleText } from '../support/allow-config.js';
import { type MessageKey, t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';

/** Why an entry of `allow:` was left out, naming the file and the entry's line. */
export function allowProblemText(p: AllowProblem, file: string, line?: number): string {
  const where = line
    ? t('allow.whereLine', { line })
    : p.index
      ? `${t('allow.where')} #${p.index}`
      : t('allow.where');
  return t('allow.bad', { file, where, problem: allowProblemReason(p) });
}

/** What is wrong with a rule, in a few words. */
export function allowProblemReason(p: AllowProblem): string {
  const special = p.code === 'bad_value' && (p.field === 'shell' || p.field === 'host');
  const key = (special ? `allow.bad.bad_value.${p.field}` : `allow.bad.${p.code}`) as MessageKey;
  return t(key, { field: p.field ? visible(p.field) : '' });
}

/** The rules on one line, or the word for none. */
export function allowRulesLine(rules: readonly AllowRule[]): string {
  return rules.length ? rules.map((r) => visible(allowRuleText(r))).join('; ') : t('allow.statusNone');
}

/**
 * What a `tool:` rule names that allows nothing, said at start: a name that is not one of zhi's
 * tools (an MCP tool has `mcp:`), or the shell (its rules are `shell:`). Loaded only when there is one.
 */
export async function toolRuleNotes(rules: readonly AllowRule[], file: string): Promise<string[]> {
  const named = rules.flatMap((r) => (r.kind === 'tool' ? [r.tool] : []));
  if (!named.length) return [];
  const [{ ALL_TOOL_NAMES }, { traitsOf }] = await Promise.all([
    import('./tools.js'),
    import('../tools/index.js'),
  ]);
  const notes: string[] = [];
  for (const name of named) {
    if (!ALL_TOOL_NAMES.includes(name))
      notes.push(t('allow.warn.notTool', { file, name: visible(name), tools: ALL_TOOL_NAMES.join(', ') }));
    else if (traitsOf(name).ownAllowRule) notes.push(t('allow.warn.wholeKind', { file, name }));
  }
  return notes;
}
