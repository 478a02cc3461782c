/**
 * Issue 45: a folder run's legacy files pay one LibreOffice start, with the real LibreOffice.
 * The files are handed over ahead (as folder-run.ts does) and then read one by one: a wrapper
 * around soffice counts its starts, and each file still reads as its own text.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/tools/files/readers/index.js';
import { dropPrefetched, prefetchLegacy } from '../../src/tools/files/readers/legacy.js';
import { endConversions, findSoffice } from '../../src/tools/files/readers/soffice.js';
import { stretched } from '../helpers/slowdown.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const soffice = findSoffice();
if (!soffice)
  console.warn('soffice-prefetch: LibreOffice (soffice) is not installed; these tests are skipped');

let dir: string;
const saved = process.env.ZHI_SOFFICE;
beforeAll(() => {
  dir = tempDir('zhi-lo-prefetch-');
});
afterAll(() => {
  endConversions();
  if (saved === undefined) delete process.env.ZHI_SOFFICE;
  else process.env.ZHI_SOFFICE = saved;
  cleanup(dir);
});

describe.skipIf(!soffice || process.platform === 'win32')('legacy files handed over ahead', () => {
  it(
    'four .doc files: one LibreOffice start, each read as its own text',
    async () => {
      const src = join(dir, 'src');
      const docs = join(dir, 'docs');
      mkdirSync(src, { recursive: true });
      for (let i = 1; i <= 4; i++)
        writeFileSync(join(src, `r${i}.txt`), `第 ${i} 份报告：销售额 ${i}00 万元\n`);
      spawnSync(
        soffice!,
        [
          `-env:UserInstallation=${pathToFileURL(join(dir, 'maker')).href}`,
          '--headless',
          '--convert-to',
          'doc',
          '--outdir',
          docs,
          ...readdirSync(src).map((f) => join(src, f)),
        ],
        { stdio: 'ignore' },
      );
      const log = join(dir, 'starts.log');
      const wrapper = join(dir, 'soffice');
      writeFileSync(wrapper, `#!/bin/sh\necho start >> "${log}"\nexec "${soffice}" "$@"\n`);
      chmodSync(wrapper, 0o755);
      writeFileSync(log, '');
      process.env.ZHI_SOFFICE = wrapper;
      const paths = [1, 2, 3, 4].map((i) => join(docs, `r${i}.doc`));
      await prefetchLegacy(paths);
      for (const [i, path] of paths.entries()) {
        const doc = await readDocument(path);
        expect(doc.notes).toContain('converted with LibreOffice');
        expect(doc.text).toContain(`第 ${i + 1} 份报告：销售额 ${i + 1}00 万元`);
      }
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
      dropPrefetched();
    },
    stretched(240_000),
  );
});
