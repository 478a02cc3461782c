import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionGrants } from '../../../agent/permissions.js';
import { getLanguage, t } from '../../../support/i18n/index.js';
import { readStandingKey, showWords } from '../../../tools/standing.js';
import { allowRulesLine } from '../../allow-text.js';
import { formatTokens } from '../../render/summary.js';
import { columns, stderrColumns } from '../../render/width.js';
import { modeName } from '../mode-name.js';
import { contextNow } from '../status.js';
import { priceStepNow, usageSummary, usageTable } from '../usage-text.js';
import type { SlashCommand, SlashContext } from './types.js';

const usage: SlashCommand = {
  name: 'usage',
  description: 'repl.cmd.usage',
  async run(_args, ctx) {
    const lines = usageTable(ctx.chat.deps.usage);
    ctx.print([ctx.app.err.bold(lines[0]!), ...lines.slice(1)].join('\n'));
    const step = priceStepNow(ctx.chat);
    if (step) ctx.print(step);
    if (ctx.chat.deps.usage.total().calls) ctx.print(ctx.app.err.dim(t('repl.usage.estimate')));
  },
};

const status: SlashCommand = {
  name: 'status',
  description: 'repl.cmd.status',
  async run(_args, ctx) {
    const s = ctx.chat.settings;
    const onOff = (b: boolean) => t(b ? 'repl.on' : 'repl.off');
    const rows = [
      [t('repl.status.model'), s.model],
      [t('repl.status.thinking'), onOff(s.thinking)],
      [t('repl.status.mode'), modeName(s.mode)],
      [t('repl.status.verbose'), onOff(ctx.display?.verbose ?? false)],
      [t('repl.status.platform'), ctx.app.platform.id],
      [t('repl.status.language'), getLanguage()],
      [t('repl.status.cwd'), ctx.app.cwd],
      [t('repl.status.output'), ctx.app.outputDir],
      [t('repl.status.instructions'), s.instructionFiles?.join(', ') || t('repl.status.noInstructions')],
      [t('repl.status.messages'), messagesText(ctx.chat)],
      [t('repl.status.usage'), usageSummary(ctx.chat.deps.usage) ?? '-'],
      [t('repl.status.allowed'), allowedText(ctx.chat.deps.grants)],
      [t('allow.status'), allowRulesLine(ctx.chat.deps.grants?.rules ?? [])],
    ];
    ctx.print(
      columns(
        rows.map(([k, v]) => [ctx.app.err.dim(t('cli.label', { label: k! })), v!]),
        new Set(),
        stderrColumns(),
      ).join('\n'),
    );
  },
};

/** How long the conversation is, and how full its context window: the figure the status line shows. */
function messagesText(chat: SlashContext['chat']): string {
  const c = contextNow(chat);
  return t('repl.status.messagesValue', {
    n: chat.messages.length - 1,
    tokens: formatTokens(c.tokens),
    percent: Math.round(c.fraction * 100),
  });
}

/** The standing approvals of the session ("a" answered): shell prefixes and commands, MCP tools. */
function allowedText(grants: SessionGrants | undefined): string {
  const shown: string[] = [];
  for (const key of [...(grants?.shell ?? []), ...(grants?.mcp ?? [])]) {
    const grant = readStandingKey(key);
    if (grant?.kind === 'tool') shown.push(t('repl.status.allowedTool', { tool: grant.tool }));
    else if (grant?.kind === 'prefix')
      shown.push(
        t('repl.status.allowedPrefix', {
          prefix: showWords(grant.words),
          files: showWords(grant.operands),
        }).trim(),
      );
    else if (grant?.kind === 'exact') shown.push(showWords(grant.words));
  }
  return shown.length ? shown.join(', ') : t('repl.status.noneAllowed');
}

/** A starting ZHI.md: headings the person fills in. Never replaces one that exists. */
const init: SlashCommand = {
  name: 'init',
  description: 'repl.cmd.init',
  async run(_args, ctx) {
    const path = join(ctx.app.cwd, 'ZHI.md');
    try {
      await writeFile(path, t('repl.init.template'), { flag: 'wx' });
    } catch (err) {
      const exists = (err as NodeJS.ErrnoException).code === 'EEXIST';
      ctx.warn(t(exists ? 'repl.init.exists' : 'repl.init.failed', { path, error: String(err) }));
      return;
    }
    ctx.print(t('repl.init.done', { path }));
  },
};

export const commands: SlashCommand[] = [usage, status, init];
