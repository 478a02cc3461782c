import { maxBy, pushAll } from '../../../support/arrays.js';
import { t } from '../../../support/i18n/index.js';
import { textWidth } from '../../../support/width.js';
import { stderrColumns, wrapText } from '../../render/width.js';
import type { SlashCommand, SlashContext } from './types.js';

const HEAD_MAX = 22;

/** /help: every command with its arguments and description, then the keys. */

/** The examples of /help in the names of the person's system. */
const HELP_EXAMPLES = {
  unix: { bang: '!ls', scan: '~/Desktop/scan.pdf' },
  windows: { bang: '!dir', scan: 'C:\\Users\\…\\Desktop\\scan.pdf' },
};
export function helpText(ctx: SlashContext): string {
  const style = ctx.app.err;
  const commands = [...(ctx.commands ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const heads = commands.map((c) => {
    const aliases = c.aliases?.length ? ` (${c.aliases.map((a) => `/${a}`).join(', ')})` : '';
    return `/${c.name}${c.usage ? ` ${c.usage}` : ''}${aliases}`;
  });
  // A long synopsis (/skill …) gets its description on the next line, so the column stays narrow.
  const width = Math.min(HEAD_MAX, maxBy(heads, textWidth, 0));
  const lines = [style.bold(t('repl.help.title'))];
  // Descriptions wrap to the window under their own column, never mid-word.
  const columns = stderrColumns();
  const wrapAt = columns && columns - 1;
  const indent = ' '.repeat(width + 4);
  commands.forEach((c, i) => {
    const head = heads[i]!;
    const gap = width - textWidth(head) + 2;
    if (gap >= 2)
      pushAll(lines, wrapText(t(c.description), wrapAt, `  ${style.cyan(head)}${' '.repeat(gap)}`, indent));
    else pushAll(lines, [`  ${style.cyan(head)}`, ...wrapText(t(c.description), wrapAt, indent, indent)]);
  });
  pushAll(lines, [
    '',
    ...t('repl.help.keys', HELP_EXAMPLES[process.platform === 'win32' ? 'windows' : 'unix'])
      .split('\n')
      .flatMap((l, i) => {
        const lead = /^\s*/.exec(l)![0];
        return wrapText(l.slice(lead.length), wrapAt, i === 0 ? style.bold(lead) : lead, `${lead}  `).map(
          (x, k) => (i === 0 && k === 0 ? style.bold(x) : x),
        );
      }),
  ]);
  return lines.join('\n');
}

const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  description: 'repl.cmd.help',
  async run(_args, ctx) {
    ctx.print(helpText(ctx));
  },
};

const exit: SlashCommand = {
  name: 'exit',
  aliases: ['quit', 'q'],
  description: 'repl.cmd.exit',
  async run(_args, ctx) {
    ctx.exit();
  },
};

const clear: SlashCommand = {
  name: 'clear',
  description: 'repl.cmd.clear',
  async run(_args, ctx) {
    ctx.display?.clearScreen();
  },
};

export const commands: SlashCommand[] = [help, exit, clear];
