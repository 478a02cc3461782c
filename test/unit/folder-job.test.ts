/**
 * A folder run drives any FolderJob (agent/folder/job.ts), not only a skill: these jobs are plain
 * objects, so the run's record, resume, failures, dry run and per-file setup are checked without
 * a skill, a catalogue or a model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentResult, emptyResult, type RunEvent } from '../../src/agent/events.js';
import { folderOptions } from '../../src/agent/folder/folder-options.js';
import { runFolder } from '../../src/agent/folder/folder-run.js';
import type { FileSetup, FolderJob } from '../../src/agent/folder/job.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ZhiError } from '../../src/support/errors.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
afterEach(() => cleanup(dir));

/** A job that answers with the file's name, fails on the names in `failing`, and notes every call. */
function job(o: { failing?: string[]; dryRun?: boolean }) {
  const ran: { file: string; setup: FileSetup }[] = [];
  const dryRuns: { files: string[]; todo: number[] }[] = [];
  const j: FolderJob = {
    name: 'note',
    hash: 'h1',
    model: 'glm-4-flash',
    recordModel: 'glm-4-flash',
    depth: 1,
    promisesFile: false,
    outputDir: join(dir, 'out'),
    usage: new UsageTracker(PLATFORMS.bigmodel),
    cwd: dir,
    signal: new AbortController().signal,
    mode: 'auto',
    llm: { stream: async function* () {} },
    options: folderOptions({ jobs: 2, ...(o.dryRun ? { dryRun: true } : {}) }),
    writesRefused: () => undefined,
    dryRun: async (files, todo) => {
      dryRuns.push({ files, todo });
      return { ...emptyResult(), text: 'estimate', estimate: true };
    },
    startRounds: () => {
      throw new Error('no --batch in these tests');
    },
    runFile: async function* (file, setup): AsyncGenerator<RunEvent, AgentResult> {
      ran.push({ file, setup });
      yield { type: 'turn_start', turn: 1, model: 'glm-4-flash' };
      if (o.failing?.some((f) => file.endsWith(f)))
        throw new ZhiError({ kind: 'usage', what: { key: 'runs.err.forceResume' } });
      return { ...emptyResult(), text: `read ${file.slice(dir.length + 1)}` };
    },
  };
  return { j, ran, dryRuns };
}

async function drain(gen: AsyncGenerator<RunEvent, AgentResult>) {
  const events: RunEvent[] = [];
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return { events, result: step.value };
    events.push(step.value);
  }
}

function folder(): string[] {
  dir = tempDir('zhi-folder-job-');
  const files = ['a.txt', 'b.txt', 'c.txt'].map((n) => join(dir, n));
  for (const f of files) writeFileSync(f, `text of ${f}\n`);
  return files;
}

describe('runFolder over a FolderJob', () => {
  it('runs each file with its own setup, records it, and a second run does only the failed one', async () => {
    const files = folder();
    const first = job({ failing: ['b.txt'] });
    const { events } = await drain(runFolder(first.j, dir, files));
    expect(first.ran.map((r) => r.file).sort()).toEqual(files);
    // Each file has its own usage tracker and the run's one gate; its outputs go to the top folder.
    const setups = first.ran.map((r) => r.setup);
    expect(new Set(setups.map((s) => s.usage)).size).toBe(3);
    expect(setups.every((s) => s.usage !== first.j.usage)).toBe(true);
    expect(new Set(setups.map((s) => s.calls)).size).toBe(1);
    expect(setups.map((s) => s.place.subdir)).toEqual(['', '', '']);
    const end = events.find((ev) => ev.type === 'folder_end');
    expect(end).toMatchObject({ skill: 'note', counts: { total: 3, done: 2, failed: 1, earlier: 0 } });

    const second = job({});
    const again = await drain(runFolder(second.j, dir, files));
    expect(second.ran.map((r) => r.file)).toEqual([files[1]]);
    expect(again.events.find((ev) => ev.type === 'folder_end')).toMatchObject({
      counts: { total: 3, done: 1, failed: 0, earlier: 2 },
    });
  });

  it('--dry-run asks the job for its estimate of the files to do and runs none', async () => {
    const files = folder();
    const dry = job({ dryRun: true });
    const { result } = await drain(runFolder(dry.j, dir, files));
    expect(result.text).toBe('estimate');
    expect(dry.ran).toEqual([]);
    expect(dry.dryRuns).toEqual([{ files, todo: [0, 1, 2] }]);
  });
});
