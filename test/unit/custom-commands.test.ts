import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  expandCommand,
  findCommands,
  isProblem,
  parseCommand,
  splitWords,
} from '../../src/skills/commands.js';

const at = { name: 'review', file: '/p/.zhi/commands/review.md', source: 'project' as const };

describe('parseCommand', () => {
  it.each([
    ['a plain body', 'Review $ARGUMENTS', { body: 'Review $ARGUMENTS' }],
    [
      'front matter with description and model',
      '---\ndescription: Review a file\nmodel: glm-4.7\n---\nReview $1\n',
      { body: 'Review $1', description: 'Review a file', model: 'glm-4.7' },
    ],
    ['front matter with other keys', '---\nallowed-tools: Bash\n---\nGo', { body: 'Go' }],
  ])('reads %s', async (_what, text, want) => {
    const c = await parseCommand(text, at);
    expect(isProblem(c)).toBe(false);
    expect(c).toMatchObject({ name: 'review', source: 'project', ...want });
  });

  it.each([
    ['bad_name', 'bad name', 'text'],
    ['bad_name', 'a.b', 'text'],
    ['bad_front_matter', 'ok', '---\ndescription: [unclosed\n---\nbody'],
    ['bad_front_matter', 'ok', '---\n- a list\n---\nbody'],
    ['bad_front_matter', 'ok', '---\ndescription: never closed\nbody'],
    ['empty', 'ok', '---\ndescription: x\n---\n'],
    ['empty', 'ok', '   \n'],
  ])('refuses %s (%s)', async (reason, name, text) => {
    expect(await parseCommand(text, { ...at, name })).toMatchObject({ reason });
  });

  it('ties the hash to the bytes', async () => {
    const a = await parseCommand('one', at);
    const b = await parseCommand('two', at);
    expect(isProblem(a) || isProblem(b)).toBe(false);
    if (!isProblem(a) && !isProblem(b)) expect(a.hash).not.toBe(b.hash);
  });
});

describe('expandCommand', () => {
  it.each([
    ['Summarize $ARGUMENTS', 'notes.txt', 'Summarize notes.txt'],
    ['Compare $1 with $2', 'a.txt b.txt', 'Compare a.txt with b.txt'],
    ['Compare $1 with $2', '"my file.txt" b.txt', 'Compare my file.txt with b.txt'],
    ['Only $1 and $3', 'x', 'Only x and '],
    ['All: $ARGUMENTS; first: $1', 'a b', 'All: a b; first: a'],
    ['No placeholders', 'extra words', 'No placeholders\n\nextra words'],
    ['No placeholders', '', 'No placeholders'],
    ['Empty $ARGUMENTS.', '', 'Empty .'],
    ['Twice $ARGUMENTS $ARGUMENTS', 'x', 'Twice x x'],
    // `$` in the words is kept as typed (no replacement patterns leak through).
    ['Say $ARGUMENTS', 'costs $& $1', 'Say costs $& $1'],
  ])('%s with %j', (body, args, want) => {
    expect(expandCommand({ body }, args)).toBe(want);
  });

  it('splits words, keeping quoted spaces', () => {
    expect(splitWords(` a "b c" 'd e' f `)).toEqual(['a', 'b c', 'd e', 'f']);
  });
});

describe('findCommands', () => {
  const root = join(tmpdir(), `zhi-cmds-${process.pid}`);
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads both folders; a project file stands in for a personal one; bad files are listed', async () => {
    const user = join(root, 'user');
    const project = join(root, 'project');
    mkdirSync(user, { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(join(user, 'mine.md'), 'Mine $ARGUMENTS');
    writeFileSync(join(user, 'both.md'), 'from the person');
    writeFileSync(join(project, 'both.md'), 'from the project');
    writeFileSync(join(project, 'bad name.md'), 'x');
    writeFileSync(join(project, 'notes.txt'), 'not a command');
    const found = await findCommands({ user, project });
    expect([...found.commands.keys()].sort()).toEqual(['both', 'mine']);
    expect(found.commands.get('both')).toMatchObject({ source: 'project', body: 'from the project' });
    expect(found.commands.get('mine')?.source).toBe('user');
    expect(found.problems).toEqual([
      { file: join(project, 'bad name.md'), name: 'bad name', reason: 'bad_name' },
    ]);
  });

  it('is empty where the folders do not exist', async () => {
    const found = await findCommands({ user: join(root, 'none'), project: join(root, 'nor') });
    expect(found.commands.size).toBe(0);
    expect(found.problems).toEqual([]);
  });
});
