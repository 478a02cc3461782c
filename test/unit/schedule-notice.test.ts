import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Job, saveJob } from '../../src/agent/schedule/job.js';
import { takeNotices } from '../../src/agent/schedule/notice.js';
import { saveRun } from '../../src/agent/schedule/runs.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zhi-notice-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const job = (over: Partial<Job> = {}): Job => ({
  version: 1,
  name: 'digest',
  when: 'every day 9:00',
  cron: '0 9 * * *',
  timeZone: 'UTC',
  skill: 'summarize',
  skillFile: '/s.yaml',
  skillHash: 'h',
  model: 'glm-4-flash',
  cwd: '/w',
  inputs: ['docs'],
  options: {},
  outputDir: '/w/zhi-output',
  auto: true,
  batch: false,
  language: 'en',
  paused: false,
  createdAt: '2026-11-27T08:00:00.000Z',
  installed: { kind: 'cron', id: 'digest' },
  ...over,
});

const run = (startedAt: string, status: 'ok' | 'failed' | 'empty') => ({
  job: 'digest',
  startedAt,
  endedAt: startedAt,
  status,
  exitCode: status === 'failed' ? 1 : 0,
  outputDir: '/w/zhi-output',
});

describe('takeNotices: said once at the next start', () => {
  it('a failed or empty run, and a start crontab missed, each once', async () => {
    await saveJob(dir, job());
    await saveRun(dir, run('2026-11-27T09:00:00.000Z', 'ok'));
    await saveRun(dir, run('2026-11-28T09:00:00.000Z', 'failed'));
    const now = new Date('2026-11-29T12:00:00Z');
    const first = await takeNotices(dir, now);
    expect(first.map((n) => n.kind)).toEqual(['run', 'missed']);
    expect(first[1]).toMatchObject({ kind: 'missed', at: new Date('2026-11-29T09:00:00Z') });
    expect(await takeNotices(dir, now)).toEqual([]);
  });

  it('nothing missed while a run is recorded for each start; a systemd timer catches up by itself', async () => {
    await saveJob(dir, job());
    await saveRun(dir, run('2026-11-29T09:00:01.000Z', 'empty'));
    const notices = await takeNotices(dir, new Date('2026-11-29T12:00:00Z'));
    expect(notices.map((n) => n.kind)).toEqual(['run']);
    await saveJob(
      dir,
      job({ installed: { kind: 'systemd', id: 'digest' }, createdAt: '2026-11-01T00:00:00Z' }),
    );
    expect(await takeNotices(dir, new Date('2026-11-29T12:00:00Z'))).toEqual([]);
  });
});
