/**
 * `zhi config allow [list] | add tool <name> [<host>] | add shell <command…> | add mcp <server>
 * [<tool>] | remove <number>`: the person's lasting allow rules in config.yaml, listed, added and
 * revoked. The rules are read back through the same check as at start (support/allow-config.ts).
 */
import { type AllowRule, allowRuleEntry, allowRuleText, readAllowRules } from '../../support/allow-config.js';
import { type ConfigFile, loadConfigFile, saveConfigFile } from '../../support/config.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { traitsOf } from '../../tools/index.js';
import { allowProblemReason } from '../allow-text.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';
import { ALL_TOOL_NAMES } from '../tools.js';

const out = (s: string) => process.stdout.write(`${s}\n`);

export async function runAllow(ctx: AppContext, words: string[]): Promise<ExitCodeValue> {
  const [action, ...rest] = words;
  if (action === undefined || action === 'list') return list(ctx);
  if (action === 'add') return add(ctx, rest);
  if (action === 'remove' && rest.length === 1) return remove(ctx, rest[0]!);
  throw new ZhiError({ kind: 'usage', what: { key: 'allow.usage' } });
}

async function entriesOf(ctx: AppContext): Promise<{ file: ConfigFile; entries: unknown[] }> {
  const loaded = await loadConfigFile(ctx.paths.configFile);
  const allow = loaded.file.allow;
  return { file: loaded.file, entries: Array.isArray(allow) ? allow : [] };
}

async function list(ctx: AppContext): Promise<ExitCodeValue> {
  const { entries } = await entriesOf(ctx);
  if (!entries.length) {
    out(t('allow.none'));
    return ExitCode.ok;
  }
  out(t('allow.listHeader', { file: ctx.paths.configFile }));
  entries.forEach((entry, i) => {
    const { rules, problems } = readAllowRules([entry]);
    const text = rules[0]
      ? allowRuleText(rules[0])
      : t('allow.listBad', { entry: JSON.stringify(entry), problem: allowProblemReason(problems[0]!) });
    out(`${String(i + 1).padStart(3)}. ${visible(text)}`);
  });
  return ExitCode.ok;
}

async function add(ctx: AppContext, words: string[]): Promise<ExitCodeValue> {
  const rule = ruleFromWords(words);
  const { file, entries } = await entriesOf(ctx);
  const text = allowRuleText(rule);
  if (readAllowRules(entries).rules.some((r) => allowRuleText(r) === text)) {
    out(t('allow.exists', { rule: visible(text) }));
    return ExitCode.ok;
  }
  await save(ctx, { ...file, allow: [...entries, allowRuleEntry(rule)] });
  out(t('allow.added', { rule: visible(text) }));
  return ExitCode.ok;
}

async function remove(ctx: AppContext, number: string): Promise<ExitCodeValue> {
  const { file, entries } = await entriesOf(ctx);
  const n = /^\d+$/.test(number) ? Number(number) : 0;
  if (n < 1 || n > entries.length) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'allow.err.noSuch', params: { n: number } },
      why: { key: 'allow.err.noSuchWhy', params: { count: entries.length } },
    });
  }
  const [gone] = entries.splice(n - 1, 1);
  const rule = readAllowRules([gone]).rules[0];
  const next: ConfigFile = { ...file };
  if (entries.length) next.allow = entries;
  else delete next.allow;
  await save(ctx, next);
  out(t('allow.removed', { rule: visible(rule ? allowRuleText(rule) : JSON.stringify(gone)) }));
  return ExitCode.ok;
}

async function save(ctx: AppContext, file: ConfigFile): Promise<void> {
  if (!(await saveConfigFile(ctx.paths.configFile, file)))
    process.stderr.write(formatWarning(t('doctor.win.noAcl', { file: ctx.paths.configFile }), ctx.err));
}

/** `tool file_write`, `tool web_fetch docs.example.com`, `shell git status`, `mcp files [read_file]`. */
function ruleFromWords(words: string[]): AllowRule {
  const [kind, first, ...rest] = words;
  const entry =
    kind === 'shell' && first !== undefined
      ? { shell: [first, ...rest].join(' ') }
      : kind === 'mcp' && first !== undefined && rest.length <= 1
        ? { mcp: first, ...(rest[0] ? { tool: rest[0] } : {}) }
        : kind === 'tool' && first !== undefined && rest.length <= 1
          ? { tool: first, ...(rest[0] ? { host: rest[0] } : {}) }
          : undefined;
  if (!entry) throw new ZhiError({ kind: 'usage', what: { key: 'allow.usage' } });
  const { rules, problems } = readAllowRules([entry]);
  const rule = rules[0];
  if (!rule) {
    const problem = allowProblemReason(problems[0]!);
    throw new ZhiError({ kind: 'usage', what: { key: 'allow.err.badRule', params: { problem } } });
  }
  if (rule.kind === 'tool') checkTool(rule.tool);
  return rule;
}

/** A `tool:` rule names one of zhi's tools, and not one that has its own kind of rule. */
function checkTool(name: string): void {
  if (!ALL_TOOL_NAMES.includes(name)) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'allow.err.notTool', params: { name: visible(name) } },
      why: { key: 'allow.err.notToolWhy', params: { tools: ALL_TOOL_NAMES.join(', ') } },
      tries: [{ key: 'allow.try.mcp' }],
    });
  }
  if (traitsOf(name).ownAllowRule) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'allow.err.wholeKind', params: { name } },
      why: { key: 'allow.err.wholeKindWhy' },
      tries: [{ key: 'allow.try.shell' }],
    });
  }
}
