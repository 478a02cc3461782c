/**
 * Issue 45 point 6: a zhi killed during a LibreOffice conversion leaves a copy of the person's
 * document in a temp folder and LibreOffice running in it. The next conversion removes such
 * folders of a zhi that is gone and stops what still runs in them; a living zhi's are left alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SOFFICE_PREFIX, sweepSofficeLeftovers } from '../../src/tools/files/readers/soffice-leftovers.js';
import { cleanup, pollUntil, tempDir } from '../helpers/zhi.js';

let temp: string;
beforeEach(() => {
  temp = tempDir('zhi-tmp-');
});
afterEach(() => cleanup(temp));

/** The id of a process that has ended. */
function gonePid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
}

describe('sweepSofficeLeftovers', () => {
  it('removes the folders of a zhi that is gone, keeps its own', () => {
    const gone = join(temp, `zhi-soffice-${gonePid()}-abc`);
    const mine = join(temp, `${SOFFICE_PREFIX}def`);
    for (const d of [gone, mine]) {
      mkdirSync(d);
      writeFileSync(join(d, 'input.doc'), 'the person’s document');
    }
    expect(sweepSofficeLeftovers(temp)).toBe(1);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });

  it.runIf(process.platform === 'linux')('stops a program still working in such a folder', async () => {
    const gone = join(temp, `zhi-soffice-${gonePid()}-xyz`);
    mkdirSync(gone);
    // Stands in for soffice.bin: its command line names the folder, as -env:UserInstallation does.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', `file://${gone}/profile`]);
    const exited = new Promise((done) => child.on('exit', (_code, signal) => done(signal)));
    await pollUntil(() => child.pid);
    sweepSofficeLeftovers(temp);
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(gone)).toBe(false);
  });
});
