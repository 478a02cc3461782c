import { t } from '../../../support/i18n/index.js';
import type { SlashCommand } from './types.js';

/** `/web`: this conversation in the browser, served by this zhi (loaded only when used). */
const web: SlashCommand = {
  name: 'web',
  description: 'web.cmd',
  async run(_args, ctx) {
    const { openFromRepl } = await import('../../web/command.js');
    const recorder = ctx.chat.session?.recorder;
    const id = recorder?.started ? recorder.id : undefined;
    const url = await openFromRepl(ctx.app, id, (line) => ctx.print(line));
    ctx.print(url);
    ctx.print(t('web.replNote'));
  },
};

export const commands: SlashCommand[] = [web];
