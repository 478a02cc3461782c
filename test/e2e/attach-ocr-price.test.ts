/**
 * A scan attached in the REPL is read by GLM-OCR, a paid service: its price is said and asked by
 * the one consent rule (cli/price-consent.ts) before anything is uploaded; a no sends nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { makePdf } from '../helpers/media.js';
import { KEY, promptFor } from '../helpers/pty.js';

const e = useE2E();
const ocrRequests = () => e.fake.requests.filter((q) => q.path.endsWith('/layout_parsing'));

describe('a scan attached in the REPL', () => {
  it('says the price and asks; no uploads nothing, yes reads it (in Chinese too)', async () => {
    writeFileSync(join(e.cwd, 'scan.pdf'), makePdf([null]));
    const s = e.pty({ cols: 120, rows: 40 });
    await s.waitFor(promptFor('en'), 10_000);
    s.write('what does scan.pdf say');
    s.write(KEY.enter);
    await s.waitFor(/scan\.pdf: 1 page\(s\) to read with GLM-OCR[\s\S]*\[Y\/n\]/, 10_000);
    s.write('n');
    s.write(KEY.enter);
    await s.waitFor('scan.pdf not attached', 10_000);
    expect(ocrRequests()).toHaveLength(0);
    s.kill();

    const z = e.pty({ cols: 120, rows: 40, env: { ZHI_LANGUAGE: 'zh' } });
    await z.waitFor(promptFor('zh'), 10_000);
    z.write('scan.pdf 说了什么');
    z.write(KEY.enter);
    await z.waitFor(/需用 GLM-OCR 识别 1 页[\s\S]*\[Y\/n\]/, 10_000);
    z.write('y');
    z.write(KEY.enter);
    await z.waitFor('OCR', 10_000);
    await z.waitFor(promptFor('zh'), 10_000, z.mark());
    expect(ocrRequests()).toHaveLength(1);
    z.write(KEY.ctrlD);
    await z.exited();
  });
});
