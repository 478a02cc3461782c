import { type Effort, findModel, modelInfo } from '../../../llm/models.js';
import { t } from '../../../support/i18n/index.js';
import { type SlashCommand, switchTo } from './types.js';

const auto: SlashCommand = {
  name: 'auto',
  description: 'repl.cmd.auto',
  async run(_args, ctx) {
    ctx.chat.settings.mode = 'auto';
    ctx.print(t('repl.mode.auto'));
  },
};

const approve: SlashCommand = {
  name: 'approve',
  description: 'repl.cmd.approve',
  async run(_args, ctx) {
    ctx.chat.settings.mode = 'approve';
    ctx.print(t('repl.mode.approve'));
  },
};

const EFFORT_HINTS = {
  low: 'repl.think.effortLow',
  medium: 'repl.think.effortMedium',
  high: 'repl.think.effortHigh',
  max: 'repl.think.effortMax',
} as const;

const think: SlashCommand = {
  name: 'think',
  description: 'repl.cmd.think',
  usage: '[low|medium|high|max]',
  complete: () => Object.keys(EFFORT_HINTS),
  async run(args, ctx) {
    const value = args.trim().toLowerCase();
    if (value && !(value in EFFORT_HINTS)) {
      ctx.warn(t('repl.think.badEffort', { value }));
      return;
    }
    ctx.chat.settings.thinking = true;
    const model = modelInfo(ctx.chat.settings.model);
    if (!value) {
      ctx.print(t('repl.think.on'));
    } else {
      const effort = value as Effort;
      ctx.chat.settings.effort = effort;
      ctx.print(t('repl.think.effort', { effort, hint: t(EFFORT_HINTS[effort]) }));
      if (model.thinking && !model.efforts?.includes(effort))
        ctx.warn(t('repl.think.noEffort', { model: model.id }));
    }
    if (!model.thinking) ctx.warn(t('repl.think.unsupported', { model: model.id }));
  },
};

const fast: SlashCommand = {
  name: 'fast',
  description: 'repl.cmd.fast',
  async run(_args, ctx) {
    ctx.chat.settings.thinking = false;
    const model = findModel(ctx.chat.settings.model);
    ctx.print(t('repl.fast.on'));
    if (model?.thinkingForced) ctx.warn(t('repl.fast.forced', { model: model.id }));
  },
};

const verbose: SlashCommand = {
  name: 'verbose',
  description: 'repl.cmd.verbose',
  usage: '[on|off]',
  complete: () => ['on', 'off'],
  async run(args, ctx) {
    if (!ctx.display) return;
    ctx.display.verbose = switchTo(args, ctx.display.verbose);
    ctx.print(t(ctx.display.verbose ? 'repl.verbose.on' : 'repl.verbose.off'));
  },
};

export const commands: SlashCommand[] = [auto, approve, think, fast, verbose];
