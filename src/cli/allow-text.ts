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
