import { chatModelIds } from '../../../llm/models.js';
import { t } from '../../../support/i18n/index.js';
import { nearest } from '../../../support/suggest.js';
import { modelRows } from '../../render/model-rows.js';
import { columns, stderrColumns } from '../../render/width.js';
import { chatModel } from '../../settings.js';
import type { SlashCommand, SlashContext } from './types.js';

function modelTable(ctx: SlashContext): string {
  const style = ctx.app.err;
  const rows = modelRows(ctx.app.platform, ctx.chat.settings.model).map((r) =>
    r[0]!.startsWith('▸') ? r.map((c) => style.cyan(c)) : r,
  );
  return [style.bold(t('repl.model.list')), ...columns(rows, new Set(), stderrColumns())].join('\n');
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
    const choice = chatModel(ctx.app, { typed: name });
    if (choice.ok && choice.unknown) {
      // Allowed, as on the command line and in config: the platform decides if it exists.
      ctx.chat.settings.model = choice.model;
      const suggestion = nearest(name, chatModelIds());
      ctx.warn(
        [
          t('repl.model.unknownSwitched', { model: name }),
          suggestion ? t('cli.try.didYouMean', { suggestion: `/model ${suggestion}` }) : '',
        ]
          .filter(Boolean)
          .join(' '),
      );
      return;
    }
    if (!choice.ok && choice.problem === 'ocr') {
      ctx.warn(t('repl.model.ocr', { name: choice.model }));
      return;
    }
    if (!choice.ok) {
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
    const info = choice.info;
    ctx.chat.settings.model = info.id;
    ctx.print(t('repl.model.switched', { model: info.id }));
    if (!info.tools) ctx.warn(t('repl.model.noTools', { model: info.id }));
    else if (info.kind === 'vision') ctx.print(t('repl.model.vision', { model: info.id }));
    // What the client learned counts too (a model outside the registry that refused "off").
    const forced = (ctx.client?.modelInfo(info.id) ?? info).thinkingForced;
    if (!ctx.chat.settings.thinking && forced) ctx.warn(t('repl.fast.forced', { model: info.id }));
  },
};

export const commands: SlashCommand[] = [model];
