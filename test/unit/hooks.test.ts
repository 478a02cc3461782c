import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookRunner } from '../../src/cli/hooks.js';
import { DEFAULT_HOOK_TIMEOUT_MS, type HookSpec, readHooks } from '../../src/support/hooks-config.js';

const node = JSON.stringify(process.execPath);
/** A hook that runs this JavaScript with node (the same everywhere tests run). */
const js = (code: string) => `${node} -e ${JSON.stringify(code)}`;
const spec = (command: string, o: Partial<HookSpec> = {}): HookSpec => ({
  event: 'before_tool',
  command,
  timeoutMs: DEFAULT_HOOK_TIMEOUT_MS,
  ...o,
});
const place = { cwd: tmpdir(), sessionId: () => 'sess-1' };
const write = { event: 'before_tool' as const, tool: 'file_write', arguments: { path: 'a.txt' } };

describe('the hook runner', () => {
  const out = join(tmpdir(), `zhi-hook-${process.pid}.json`);
  afterEach(() => rmSync(out, { force: true }));

  it('blocks on exit 2 with stderr as the reason', async () => {
    const run = hookRunner(
      [spec(js("process.stderr.write('no writes on Fridays'); process.exit(2)"))],
      place,
    )!;
    expect(await run(write)).toEqual({ notes: [], block: 'no writes on Fridays' });
  });

  it('blocks on {"decision":"block"} printed on stdout', async () => {
    const run = hookRunner(
      [spec(js('console.log(JSON.stringify({decision:"block",reason:"not there"}))'))],
      place,
    )!;
    expect(await run(write)).toEqual({ notes: [], block: 'not there' });
  });

  it('lets the call go on exit 0, and gives the event as JSON on stdin', async () => {
    const code = `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').writeFileSync(${JSON.stringify(out)},s))`;
    const run = hookRunner([spec(js(code))], place)!;
    expect(await run(write)).toEqual({ notes: [] });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      event: 'before_tool',
      tool: 'file_write',
      arguments: { path: 'a.txt' },
      cwd: tmpdir(),
      session_id: 'sess-1',
    });
  });

  it('skips a hook for another tool, and hooks of another event', async () => {
    const blocker = js('process.exit(2)');
    const run = hookRunner(
      [spec(blocker, { match: ['shell'] }), spec(blocker, { event: 'after_tool' })],
      place,
    )!;
    expect(await run(write)).toEqual({ notes: [] });
    expect((await run({ ...write, tool: 'shell' })).block).toBe('');
  });

  it('stops a hook past its timeout, says so, and does not block', async () => {
    const run = hookRunner([spec(js('setTimeout(()=>process.exit(2), 60000)'), { timeoutMs: 300 })], place)!;
    const v = await run(write);
    expect(v.block).toBeUndefined();
    expect(v.notes.join()).toMatch(/took longer than 0\.3 s/);
  });

  it('says when a hook fails, without blocking; exit 2 blocks only before a tool', async () => {
    const run = hookRunner([spec(js("process.stderr.write('boom\\n'); process.exit(1)"))], place)!;
    const v = await run(write);
    expect(v.block).toBeUndefined();
    expect(v.notes.join()).toMatch(/failed \(exit 1\): boom/);
    const after = hookRunner([spec(js('process.exit(2)'), { event: 'after_turn' })], place)!;
    expect((await after({ event: 'after_turn', stop_reason: 'end', answer: '' })).block).toBeUndefined();
  });

  it('is undefined with no hooks', () => {
    expect(hookRunner([], place)).toBeUndefined();
  });
});

describe('hooks: in config.yaml', () => {
  it('reads entries, a single one without a list, and a bare command', () => {
    const { hooks, problems } = readHooks({
      before_tool: [{ command: 'check.sh', match: 'file_write', timeout: 2.5 }],
      after_turn: { command: 'notify' },
      session_end: ['bye.sh'],
    });
    expect(problems).toEqual([]);
    expect(hooks).toEqual([
      { event: 'before_tool', command: 'check.sh', match: ['file_write'], timeoutMs: 2500 },
      { event: 'after_turn', command: 'notify', timeoutMs: DEFAULT_HOOK_TIMEOUT_MS },
      { event: 'session_end', command: 'bye.sh', timeoutMs: DEFAULT_HOOK_TIMEOUT_MS },
    ]);
  });

  it.each([
    [['a list'], { code: 'not_map' }],
    [{ before_write: [{ command: 'x' }] }, { code: 'unknown_event', event: 'before_write' }],
    [{ before_tool: 'x' }, { code: 'not_list', event: 'before_tool' }],
    [{ before_tool: [{ match: 'shell' }] }, { code: 'no_command', event: 'before_tool', index: 1 }],
    [{ before_tool: [{ command: 'x', match: [] }] }, { code: 'bad_match', event: 'before_tool', index: 1 }],
    [
      { before_tool: [{ command: 'x', timeout: 0 }] },
      { code: 'bad_timeout', event: 'before_tool', index: 1 },
    ],
    [
      { before_tool: [{ command: 'x', timeout: '10' }] },
      { code: 'bad_timeout', event: 'before_tool', index: 1 },
    ],
  ])('leaves out %j with a problem', (value, problem) => {
    const r = readHooks(value);
    expect(r.problems).toEqual([problem]);
    expect(r.hooks).toEqual([]);
  });

  it('keeps the good entries beside a bad one', () => {
    const r = readHooks({ before_tool: [{ command: 'good' }, { command: '' }] });
    expect(r.hooks.map((h) => h.command)).toEqual(['good']);
    expect(r.problems).toEqual([{ code: 'no_command', event: 'before_tool', index: 2 }]);
  });
});
