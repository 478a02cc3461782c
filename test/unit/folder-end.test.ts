import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyResult } from '../../src/agent/events.js';
import { finishFolder } from '../../src/agent/folder/folder-end.js';
import { RunManifest } from '../../src/agent/folder/manifest.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
afterEach(() => cleanup(dir));

const init = { skill: 'summarize', skillHash: 'h1', model: 'glm-4-flash', folder: 'docs', currency: 'CNY' };

describe('the end of an interrupted folder run', () => {
  it('counts files stopped mid-way apart from files never started', async () => {
    dir = tempDir('zhi-end-');
    const manifest = await RunManifest.open(join(dir, 'm.json'), init);
    const files = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => join(dir, `${n}.txt`));
    const answered = { ...emptyResult('answer'), text: 'ok' };
    const aborted = emptyResult('aborted');
    const outcomes = [
      { status: 'done', value: { result: answered, cost: 0, outputs: [] } },
      // Running when Ctrl+C came: the pool records them as ended, with an aborted result.
      { status: 'failed', value: { result: aborted, cost: 0, outputs: [] } },
      { status: 'failed', value: { result: aborted, cost: 0, outputs: [] } },
      { status: 'skipped' },
      { status: 'skipped' },
      { status: 'skipped' },
      { status: 'skipped' },
    ];
    const end = finishFolder({
      skill: 'summarize',
      currency: 'CNY',
      files,
      todo: files.map((_, i) => i),
      outcomes,
      stopped: false,
      aborted: true,
      manifest,
      counts: { total: 7, done: 1, failed: 0, earlier: 0 },
      spent: 0,
      show: (abs) => abs,
      relOf: (abs) => abs,
    });
    expect(end.event).toMatchObject({ type: 'folder_end', interrupted: 2, notStarted: 4, failures: [] });
    expect(end.result.stopReason).toBe('aborted');
  });
});
