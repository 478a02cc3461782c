import { chatModelIds, findModel, formatCost, MODELS, priceFor } from '../../../llm/models.js';
import { t } from '../../../support/i18n/index.js';
import { nearest } from '../../../support/suggest.js';
import { columns } from '../../render/width.js';
import type { SlashCommand, SlashContext } from './types.js';

function modelTable(ctx: SlashContext): string {
  const style = ctx.app.err;
  const current = ctx.chat.settings.model.toLowerCase();
  const rows = MODELS.filter((m) => m.kind !== 'ocr').map((m) => {
    const price = priceFor(m, ctx.app.platform);
    const cost =
      !price || ctx.app.platform.coveredByPlan
        ? ''
        : price.input === 0 && price.output === 0
          ? t('repl.model.free')
          : `${formatCost({ amount: price.input, currency: ctx.app.platform.currency })}/${formatCost({ amount: price.output, currency: ctx.app.platform.currency })}`;
    const traits = [
      m.kind === 'vision' ? 'vision' : '',
      !m.thinking ? t('repl.model.noThinking') : m.thinkingForced ? t('repl.model.alwaysThinks') : '',
      !m.tools ? t('repl.model.noToolsShort') : '',
    ].filter(Boolean);
    const mark = m.id === current ? '▸' : ' ';
    return [`${mark} ${m.id}`, cost, `${m.description}${traits.length ? ` (${traits.join(', ')})` : ''}`];
  });
  const lines = columns(rows);
  return [
    style.bold(t('repl.model.list')),
    ...lines.map((l, i) => (rows[i]![0]!.startsWith('▸') ? style.cyan(l) : l)),
  ].join('\n');
}

const model: SlashCommand = {
  name: 'model',
  description: 'repl.cmd.model',
  usage: '[name]',
  complete: (partial) => chatModelIds().filter((id) => id.startsWith(partial.trim().toLowerCase())),
  async run(args, ctx) {
    const name = args.trim();
    if (!name) {
      ctx.print(t('repl.model.current', { model: ctx.chat.settings.model }));
      ctx.print(modelTable(ctx));
      return;
    }
    const info = findModel(name);
    if (!info) {
      const suggestion = nearest(name, chatModelIds());
      ctx.warn(
        [
          t('repl.model.unknown', { name }),
          suggestion
            ? t('cli.try.didYouMean', { suggestion: `/model ${suggestion}` })
            : t('repl.model.listTry'),
        ].join(' '),
      );
      return;
    }
    if (info.kind === 'ocr') {
      ctx.warn(t('repl.model.ocr', { name: info.id }));
      return;
    }
    ctx.chat.settings.model = info.id;
    ctx.print(t('repl.model.switched', { model: info.id }));
    if (!info.tools) ctx.warn(t('repl.model.noTools', { model: info.id }));
    else if (info.kind === 'vision') ctx.print(t('repl.model.vision', { model: info.id }));
    if (!ctx.chat.settings.thinking && info.thinkingForced)
      ctx.warn(t('repl.fast.forced', { model: info.id }));
  },
};

export const commands: SlashCommand[] = [model];
