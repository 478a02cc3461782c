import { maxBy, pushAll } from '../../../support/arrays.js';
import { t } from '../../../support/i18n/index.js';
import { textWidth } from '../../../support/width.js';
import { columns, stderrColumns, wrapText } from '../../render/width.js';
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
  const all = [...(ctx.commands ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const builtins = all.filter((c) => !c.custom && !c.mcpPrompt);
  const custom = all.filter((c) => c.custom);
  const prompts = all.filter((c) => c.mcpPrompt);
  const lines = [style.bold(t('repl.help.title')), ...commandLines(builtins, style)];
  if (prompts.length) pushAll(lines, ['', style.bold(t('mcp.prompt.help')), ...commandLines(prompts, style)]);
  if (custom.length || ctx.commandNotes?.length) lines.push('', style.bold(t('commands.help')));
  pushAll(lines, commandLines(custom, style));
  const cols = stderrColumns();
  const wrapAt = cols && cols - 1;
  for (const note of ctx.commandNotes ?? [])
    pushAll(lines, wrapText(style.yellow(note), wrapAt, '  ', '    '));
  const [title, ...rest] = t(
    'repl.help.keys',
    HELP_EXAMPLES[process.platform === 'win32' ? 'windows' : 'unix'],
  ).split('\n');
  // Indented lines are `key  what it does`: two columns, the second wrapping under itself.
  const keys = rest
    .filter((l) => l.startsWith('  '))
    .map((l) => /^( +\S.*?) {2,}(\S.*)$/.exec(l)!.slice(1, 3));
  pushAll(lines, ['', style.bold(title!), ...columns(keys, new Set(), wrapAt && wrapAt + 1)]);
  for (const l of rest.filter((x) => !x.startsWith('  '))) pushAll(lines, wrapText(l, wrapAt, '', '  '));
  return lines.join('\n');
}

/** Commands as two columns: the synopsis, and the description wrapped under its own column. */
function commandLines(commands: readonly SlashCommand[], style: SlashContext['app']['err']): string[] {
  const heads = commands.map((c) => {
    const aliases = c.aliases?.length ? ` (${c.aliases.map((a) => `/${a}`).join(', ')})` : '';
    return `/${c.name}${c.usage ? ` ${c.usage}` : ''}${aliases}`;
  });
  // A long synopsis (/skill …) gets its description on the next line, so the column stays narrow.
  const width = Math.min(HEAD_MAX, maxBy(heads, textWidth, 0));
  const lines: string[] = [];
  // Descriptions wrap to the window under their own column, never mid-word.
  const cols = stderrColumns();
  const wrapAt = cols && cols - 1;
  const indent = ' '.repeat(width + 4);
  commands.forEach((c, i) => {
    const head = heads[i]!;
    const gap = width - textWidth(head) + 2;
    const said = c.summary ?? t(c.description);
    if (gap >= 2) pushAll(lines, wrapText(said, wrapAt, `  ${style.cyan(head)}${' '.repeat(gap)}`, indent));
    else
      pushAll(lines, [
        ...wrapText(style.cyan(head), wrapAt, '  ', '    '),
        ...wrapText(said, wrapAt, indent, indent),
      ]);
  });
  return lines;
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
