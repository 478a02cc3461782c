/**
 * `zhi schedule` against a fake `crontab` on the PATH (a file stands for the user's table, so the
 * suite needs no cron and never touches the real one): the entry is added, its command line run
 * as cron would run it, the run recorded; a changed skill, an overlapping run and a job that
 * could not be confirmed are refused and said.
 */
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { pollUntil, testEnv, ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();
let table: string;
let env: Record<string, string | undefined>;

const FAKE_CRONTAB = `#!/bin/sh
# crontab -l prints the table; crontab - replaces it with stdin.
if [ "$1" = "-l" ]; then
  if [ -f "$FAKE_CRONTAB" ]; then cat "$FAKE_CRONTAB"; exit 0; fi
  echo "no crontab for tester" >&2; exit 1
fi
if [ "$1" = "-" ]; then cat > "$FAKE_CRONTAB"; exit 0; fi
exit 2
`;

function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  if (req.body.messages.at(-1).role === 'user')
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}-summary.md`, content: `S ${id}` } }],
    };
  return { kind: 'text', text: `S ${id}` };
}

beforeEach(() => {
  e.fake.fallback = responder;
  const bin = join(e.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'crontab'), FAKE_CRONTAB);
  chmodSync(join(bin, 'crontab'), 0o755);
  // The desktop's notifier, recording what it was asked to show.
  writeFileSync(
    join(bin, 'notify-send'),
    `#!/bin/sh\nprintf '%s|' "$@" >> "${join(e.home, 'notified.txt')}"\n`,
  );
  chmodSync(join(bin, 'notify-send'), 0o755);
  table = join(e.home, 'crontab.txt');
  env = { PATH: `${bin}:${process.env.PATH}`, FAKE_CRONTAB: table, ZHI_SCHEDULER: 'cron' };
  // A folder whose name has a space and Chinese characters.
  mkdirSync(join(e.cwd, '收件 箱'));
  for (const k of [1, 2]) writeFileSync(join(e.cwd, '收件 箱', `d${k}.txt`), `Report MARKER-d${k}\n`);
});

const zhi = (args: string[]) => e.zhi(args, { env });

/** Run the job's crontab line exactly as cron hands it to sh (after the five time fields). */
async function runAsCron(name: string): Promise<void> {
  const line = readFileSync(table, 'utf8')
    .split('\n')
    .find((l) => l.endsWith(`# zhi-schedule:${name}`))!;
  const command = line.split(' ').slice(5).join(' ').replace(/\\%/g, '%');
  // Asynchronously: the fake API answers from this process.
  await new Promise<void>((resolve, reject) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { env: testEnv({ baseUrl: e.fake.baseUrl, home: e.home, env }) },
      (err) => (err ? reject(err) : resolve()),
    );
  });
}

const runsOf = (name: string) => {
  const dir = join(e.home, 'schedules', `${name}.runs`);
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    : [];
};

describe('zhi schedule', () => {
  it('shows what is fixed, saves only after a yes, and cron runs the line it wrote', async () => {
    const add = [
      'schedule',
      'add',
      'weekdays 18:30',
      'summarize',
      '收件 箱',
      '--auto',
      '--max-cost',
      '0.5',
      '--name',
      'digest',
    ];
    const refused = await zhi(add);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('on weekdays (Monday to Friday) at 18:30');
    expect(refused.stderr).toMatch(/Next runs: {2}\d{4}-\d\d-\d\d 18:30 \((Mon|Tue|Wed|Thu|Fri)\)/);
    expect(refused.stderr).toContain('at most 0.5 CNY per run');
    expect(refused.stderr).toContain('there is no terminal to confirm it');
    expect(existsSync(table)).toBe(false);

    const saved = await zhi([...add, '--yes']);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe('digest\n');
    expect(saved.stderr).toContain('zhi tells you about it the next time you use it');
    const line = readFileSync(table, 'utf8');
    expect(line).toMatch(/^30 18 \* \* 1,2,3,4,5 cd .* schedule run digest .*# zhi-schedule:digest\n$/);
    expect(line).toContain('--language en');

    await runAsCron('digest');
    expect(readFileSync(join(e.cwd, 'zhi-output', 'd1-summary.md'), 'utf8')).toBe('S d1\n');
    const [record] = runsOf('digest');
    expect(record).toMatchObject({
      job: 'digest',
      status: 'ok',
      exitCode: 0,
      files: { done: 2, failed: [] },
    });
    expect(record.outputDir).toBe(join(e.cwd, 'zhi-output'));
    const logs = await zhi(['schedule', 'logs', 'digest']);
    expect(logs.stdout).toContain('done (exit 0)');
    expect(logs.stdout).toContain('files: 2 done, 0 failed');

    const list = await zhi(['schedule', 'list']);
    expect(list.stdout).toContain('digest  on weekdays (Monday to Friday) at 18:30  summarize');
    await zhi(['schedule', 'pause', 'digest']);
    expect(readFileSync(table, 'utf8')).toMatch(/^#zhi-paused# 30 18/);
    await zhi(['schedule', 'resume', 'digest']);
    expect(readFileSync(table, 'utf8')).toMatch(/^30 18/);
    const removed = await zhi(['schedule', 'remove', 'digest']);
    expect(removed.code).toBe(0);
    expect(readFileSync(table, 'utf8')).toBe('');
    expect((await zhi(['schedule', 'list'])).stderr).toContain('No scheduled jobs');
  });

  it('stops a run whose skill changed after scheduling, until it is confirmed again', async () => {
    const skills = join(e.home, 'skills');
    mkdirSync(skills, { recursive: true });
    const yaml = readFileSync(join(import.meta.dirname, '../../skills/summarize.yaml'), 'utf8').replace(
      'name: summarize',
      'name: brief',
    );
    writeFileSync(join(skills, 'brief.yaml'), yaml);
    // It writes files: a personal skill that does must be trusted before it is scheduled.
    const untrusted = await zhi([
      'schedule',
      'add',
      'every day 9:00',
      'brief',
      '收件 箱',
      '--auto',
      '--name',
      'b',
      '--yes',
    ]);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain('zhi skill trust brief');
    expect((await zhi(['skill', 'trust', 'brief', '--yes'])).code).toBe(0);
    expect(
      (await zhi(['schedule', 'add', 'every day 9:00', 'brief', '收件 箱', '--auto', '--name', 'b', '--yes']))
        .code,
    ).toBe(0);
    writeFileSync(join(skills, 'brief.yaml'), `${yaml}\n# edited\n`);
    const run = await zhi(['schedule', 'run', 'b']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The skill brief');
    expect(run.stderr).toContain('changed after the job was scheduled');
    expect(run.stderr).toContain('zhi schedule confirm b');
    expect(e.fake.chatBodies()).toHaveLength(0);
    expect(runsOf('b')[0]).toMatchObject({ status: 'refused', exitCode: 2 });
    // Nobody watched it: the desktop says so too.
    expect(readFileSync(join(e.home, 'notified.txt'), 'utf8')).toMatch(
      /^--app-name=zhi\|zhi: scheduled run b\|refused — The skill brief .* changed after the job was scheduled/,
    );
    const stillUntrusted = await zhi(['schedule', 'confirm', 'b', '--yes']);
    expect(stillUntrusted.code).toBe(2);
    expect(stillUntrusted.stderr).toContain('zhi skill trust brief');
    expect((await zhi(['skill', 'trust', 'brief', '--yes'])).code).toBe(0);
    const confirmed = await zhi(['schedule', 'confirm', 'b', '--yes']);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stderr).toContain('changed since it was scheduled');
    expect((await zhi(['schedule', 'run', 'b'])).code).toBe(0);
    expect(runsOf('b').map((r) => r.status)).toEqual(['refused', 'ok']);
  });

  it('skips a run while the previous one still holds the job, and records it as skipped', async () => {
    expect(
      (await zhi(['schedule', 'add', 'hourly', 'summarize', '收件 箱', '--auto', '--name', 'h', '--yes']))
        .code,
    ).toBe(0);
    const holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
    writeFileSync(join(e.home, 'schedules', 'h.lock'), JSON.stringify(holder));
    const run = await zhi(['schedule', 'run', 'h']);
    expect(run.code).toBe(2);
    expect(e.fake.chatBodies()).toHaveLength(0);
    expect(runsOf('h')[0]).toMatchObject({ status: 'skipped' });
    expect((await zhi(['schedule', 'logs', 'h'])).stdout).toContain(
      'skipped (the previous run was still going)',
    );
  });

  it('a --batch run leaves a slow Batch API job to the next run, which collects its results', async () => {
    const add = [
      'schedule',
      'add',
      'hourly',
      'summarize',
      '收件 箱',
      '--auto',
      '--batch',
      '--name',
      'b',
      '--yes',
    ];
    expect((await zhi(add)).code).toBe(0);
    e.fake.batchPolls = 1_000_000;
    const slow = { ...env, ZHI_BATCH_POLL_MS: '20', ZHI_SCHEDULE_BATCH_WAIT_MS: '300' };
    const first = await e.zhi(['schedule', 'run', 'b'], { env: slow });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /The Batch API job batch_\S+ is still working\. Its results are collected by the next run of b/,
    );
    expect(runsOf('b')[0]).toMatchObject({ status: 'waiting' });
    expect((await zhi(['schedule', 'logs', 'b'])).stdout).toContain(
      'Batch API job submitted; the next run collects its results',
    );
    expect(existsSync(join(e.cwd, 'zhi-output', 'd1-summary.md'))).toBe(false);
    const submitted = e.fake.requests.filter(
      (q) => q.method === 'POST' && q.path.endsWith('/batches'),
    ).length;

    // The job finishes; the next run submits nothing new and writes every file from its answers.
    e.fake.batchPolls = 0;
    const next = await e.zhi(['schedule', 'run', 'b'], { env: slow });
    expect(next.code).toBe(0);
    expect(e.fake.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/batches'))).toHaveLength(
      submitted,
    );
    expect(readFileSync(join(e.cwd, 'zhi-output', 'd1-summary.md'), 'utf8')).toContain('S d1');
    expect(runsOf('b').map((r) => r.status)).toEqual(['waiting', 'ok']);
    // A job left to the next run is not a failure: no notification.
    expect(existsSync(join(e.home, 'notified.txt'))).toBe(false);
  });

  it('keeps a watch running from login: @reboot for cron, the run is `zhi watch`, a timed watch refused', async () => {
    const timed = await zhi([
      'schedule',
      'add',
      'every day 9:00',
      'watch',
      '收件 箱',
      'summarize',
      '--auto',
      '--yes',
    ]);
    expect(timed.code).toBe(2);
    expect(timed.stderr).toContain('so it is scheduled “at-login”, not “every day 9:00”');
    const add = [
      'schedule',
      'add',
      'at-login',
      'watch',
      '收件 箱',
      'summarize',
      '--auto',
      '--name',
      'w',
      '--yes',
    ];
    const saved = await zhi(add);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain('each time you log in');
    expect(saved.stderr).toContain("zhi watch '收件 箱' summarize");
    expect(readFileSync(table, 'utf8')).toMatch(/^@reboot cd .* schedule run w .*# zhi-schedule:w\n$/);

    const child = spawn(process.execPath, [ZHI_BIN, 'schedule', 'run', 'w'], {
      cwd: e.cwd,
      env: testEnv({ baseUrl: e.fake.baseUrl, home: e.home, env: { ...env, ZHI_WATCH_POLL_MS: '100' } }),
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    await pollUntil(() => err.includes('Waiting for new or changed files'));
    writeFileSync(join(e.cwd, '收件 箱', 'd3.txt'), 'Report MARKER-d3\n');
    await pollUntil(() => err.split('Waiting for new or changed files').length === 3);
    expect(existsSync(join(e.cwd, 'zhi-output', 'd3-summary.md'))).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(runsOf('w')[0]).toMatchObject({ status: 'ok', files: { done: 3 } });
  });

  it('refuses, before saving, what an unattended run could not do', async () => {
    const noAuto = await zhi(['schedule', 'add', 'every day 9:00', 'summarize', '收件 箱', '--yes']);
    expect(noAuto.code).toBe(2);
    expect(noAuto.stderr).toContain('writes files, and this schedule does not allow writing');
    const vague = await zhi(['schedule', 'add', 'every day', 'summarize', '收件 箱', '--auto', '--yes']);
    expect(vague.code).toBe(2);
    expect(vague.stderr).toContain('says which days but not at what time');
    expect(vague.stderr).toContain('every day 9:00');
    expect(existsSync(table)).toBe(false);
    expect(existsSync(join(e.home, 'schedules'))).toBe(false);
  });

  it('says the schedule back in Chinese', async () => {
    const r = await zhi([
      '--language',
      'zh',
      'schedule',
      'add',
      '每周一 9:00',
      'summarize',
      '收件 箱',
      '--auto',
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('summarize-mon-0900\n');
    expect(r.stderr).toContain('每周一 9:00 → 每周一 09:00');
    expect(r.stderr).toMatch(/接下来： {4}\d{4}-\d\d-\d\d 09:00（周一）；/);
    expect(readFileSync(table, 'utf8')).toContain('--language zh schedule run summarize-mon-0900');
  });
});

describe('an unattended run', () => {
  it('refuses what would ask (sending data out) and says so, with no one asked', async () => {
    const skills = join(e.home, 'skills');
    mkdirSync(skills, { recursive: true });
    writeFileSync(
      join(skills, 'lookup.yaml'),
      'name: lookup\ndescription: Look a word up\ninput:\n  args:\n    - name: text\n      type: string\ntools: [web_fetch]\nsystem_prompt: Look it up.\n',
    );
    let calls = 0;
    e.fake.fallback = (req) => {
      calls += 1;
      if (calls === 1)
        return {
          kind: 'tools',
          calls: [
            { name: 'web_fetch', arguments: { url: 'https://example.com/collect?data=Report+MARKER-d1' } },
          ],
        };
      const last = req.body.messages.at(-1);
      return { kind: 'text', text: `saw: ${String(last.content).slice(0, 200)}` };
    };
    expect((await zhi(['schedule', 'add', 'hourly', 'lookup', 'hello', '--name', 'l', '--yes'])).code).toBe(
      0,
    );
    const run = await zhi(['schedule', 'run', 'l']);
    expect(run.stderr).toContain('Not run (web_fetch)');
    expect(run.stderr).toContain('there is no terminal to ask you. Nothing was sent.');
    expect(run.stdout).toContain('saw: Error: Denied');
    const [record] = runsOf('l');
    expect(record).toMatchObject({ job: 'l', exitCode: 0, refused: [{ tool: 'web_fetch' }] });
    expect(record.refused[0].reason).toContain('there is no terminal to ask you');
    expect((await zhi(['schedule', 'logs', 'l'])).stdout).toContain('not run (web_fetch):');
  });
});
