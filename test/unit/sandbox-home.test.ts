/**
 * Started in the home folder, the sandbox shows the home folder as the current folder: its
 * dot-files and dot-folders stay hidden (issue 37: `cat .?ashrc` read credentials no list named),
 * while ordinary files and installed programs stay readable.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSandboxed, sandboxState } from '../../src/tools/shell/sandbox.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const hasBwrap = process.platform === 'linux' && sandboxState().kind === 'bwrap';
if (!hasBwrap)
  console.warn('[skip] sandbox-home: bubblewrap unavailable; install it with apt-get install bubblewrap');

describe.runIf(hasBwrap)('the sandbox started in the home folder', () => {
  let home: string;
  const saved = process.env.HOME;
  beforeEach(() => {
    home = tempDir('zhi-home-sbx-');
    process.env.HOME = home;
    writeFileSync(join(home, '.bashrc'), 'export SECRET_TOKEN=abc\n');
    writeFileSync(join(home, '.tccli-credential'), 'secretKey=xyz\n');
    mkdirSync(join(home, '.volcengine'));
    writeFileSync(join(home, '.volcengine', 'config'), 'ak=1\n');
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    writeFileSync(join(home, '.local', 'bin', 'tool'), '#!/bin/sh\necho tool\n');
    writeFileSync(join(home, 'report.txt'), 'quarterly\n');
  });
  afterEach(() => {
    process.env.HOME = saved;
    cleanup(home);
  });

  it('hides every dot-file and dot-folder of the home folder, named on no list, and shows the rest', async () => {
    const r = await runSandboxed(
      'cat .bashrc .tccli-credential .volcengine/config 2>&1; echo ---; cat report.txt; cat .local/bin/tool',
      { cwd: home, outputDir: join(home, 'zhi-output'), timeoutMs: 20_000, maxBytes: 100_000 },
    );
    const [secrets, rest] = r.stdout.split('---\n');
    expect(secrets).not.toMatch(/SECRET_TOKEN|secretKey|ak=1/);
    expect(rest).toContain('quarterly');
    expect(rest).toContain('echo tool');
  });
});
