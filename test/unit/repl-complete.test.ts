import { describe, expect, it } from 'vitest';
import { commands as modelCommands } from '../../src/cli/repl/commands/model.js';
import type { SlashCommand, SlashContext } from '../../src/cli/repl/commands/types.js';
import { argumentCompletion, complete, type Entry, lastWord } from '../../src/cli/repl/complete.js';

const noop = async () => {};
const commands: SlashCommand[] = [
  { name: 'help', description: 'repl.cmd.help', run: noop },
  { name: 'exit', aliases: ['quit'], description: 'repl.cmd.exit', run: noop },
  { name: 'auto', description: 'repl.cmd.auto', run: noop },
  { name: 'approve', description: 'repl.cmd.approve', run: noop },
  ...modelCommands,
  {
    name: 'skill',
    description: 'repl.cmd.help',
    run: noop,
    complete: (partial) => ['list', 'show translate', 'show summarize'].filter((c) => c.startsWith(partial)),
  },
  {
    name: 'run',
    description: 'repl.cmd.help',
    run: noop,
    complete: () => ['translate', 'summarize', 'tables-to-excel'],
  },
];

const tree: Record<string, Entry[]> = {
  '/work': [
    { name: 'report.docx', dir: false },
    { name: 'reports', dir: true },
    { name: 'My File.pdf', dir: false },
    { name: '.hidden', dir: false },
    { name: '年度总结.xlsx', dir: false },
  ],
  '/work/reports': [{ name: 'q1.md', dir: false }],
  '/home/li': [{ name: 'Desktop', dir: true }],
};

const src = {
  commands,
  ctx: {} as SlashContext,
  cwd: '/work',
  home: '/home/li',
  listDir: async (dir: string) => {
    const entries = tree[dir];
    if (!entries) throw new Error('ENOENT');
    return entries;
  },
};

describe('complete', () => {
  it('completes slash command names and aliases; a unique one gets a space', async () => {
    expect(await complete('/a', src)).toEqual([['/approve', '/auto'], '/a']);
    expect(await complete('/qu', src)).toEqual([['/quit '], '/qu']);
    expect(await complete('/mo', src)).toEqual([['/model '], '/mo']);
  });

  it('lists the commands on an empty line', async () => {
    const [hits] = await complete('', src);
    expect(hits).toContain('/help');
    expect(hits).toContain('/model');
  });

  it('completes model names after /model', async () => {
    const [hits, sub] = await complete('/model glm-4.7', src);
    expect(sub).toBe('glm-4.7');
    expect(hits).toEqual(['glm-4.7', 'glm-4.7-flash', 'glm-4.7-flashx']);
  });

  it('uses a command’s completion: whole-argument candidates or last-word ones', async () => {
    expect(await complete('/skill show tr', src)).toEqual([['show translate'], 'show tr']);
    expect(await complete('/run su', src)).toEqual([['summarize'], 'su']);
  });

  it('completes file names, escaping spaces, marking folders, hiding dot files', async () => {
    expect(await complete('summarize rep', src)).toEqual([['report.docx', 'reports/'], 'rep']);
    expect(await complete('open My', src)).toEqual([['My\\ File.pdf'], 'My']);
    expect(await complete('look at reports/q', src)).toEqual([['reports/q1.md'], 'reports/q']);
    expect(await complete('cd ~/De', src)).toEqual([['~/Desktop/'], '~/De']);
    expect(await complete('总结 年度', src)).toEqual([['年度总结.xlsx'], '年度']);
    expect((await complete('x .h', src))[0]).toEqual(['.hidden']);
  });

  it('completes paths after a command without its own completion', async () => {
    expect(await complete('/help rep', src)).toEqual([['report.docx', 'reports/'], 'rep']);
  });

  it('ignores case: the typed text is replaced by the real name', async () => {
    expect(await complete('总结 REP', src)).toEqual([['report.docx', 'reports/'], 'REP']);
    expect(await complete('open my', src)).toEqual([['My\\ File.pdf'], 'my']);
  });

  it('completes inside an open quote, closing it after a file', async () => {
    expect(await complete("看看 'My Fi", src)).toEqual([["My File.pdf'"], 'My Fi']);
    expect(await complete('看看 "reports/Q', src)).toEqual([['reports/q1.md"'], 'reports/Q']);
  });

  it('completes Windows-style relative paths, keeping the backslash', async () => {
    expect(await complete('总结 reports\\q', src)).toEqual([['reports\\q1.md'], 'reports\\q']);
    expect(await complete('总结 .\\rep', src)).toEqual([['.\\report.docx', '.\\reports\\'], '.\\rep']);
  });

  it('completes an @path mention, keeping the @', async () => {
    expect(await complete('总结 @REP', src)).toEqual([['@report.docx', '@reports/'], '@REP']);
    expect(await complete('看看 @reports/q', src)).toEqual([['@reports/q1.md'], '@reports/q']);
  });

  it('reads 、 at the start as / (a Chinese input method)', async () => {
    expect(await complete('、mo', src)).toEqual([['/model '], '、mo']);
  });

  it('gives nothing for a missing folder', async () => {
    expect(await complete('nowhere/x', src)).toEqual([[], 'nowhere/x']);
  });
});

describe('helpers', () => {
  it('lastWord keeps escaped spaces', () => {
    expect(lastWord('open My\\ Fi')).toBe('My\\ Fi');
    expect(lastWord('trailing ')).toBe('');
  });

  it('argumentCompletion filters last-word candidates', () => {
    expect(argumentCompletion('a b', ['bar', 'baz', 'qux'])).toEqual([['bar', 'baz'], 'b']);
    expect(argumentCompletion('x', [])).toEqual([[], 'x']);
  });
});
