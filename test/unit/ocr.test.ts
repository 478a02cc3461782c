import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZhipuClient } from '../../src/llm/client.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { createOcrTool } from '../../src/tools/ocr/ocr.js';
import type { ToolContext } from '../../src/tools/types.js';
import { FakeZhipu, TEST_KEY } from '../fake-zhipu/server.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { makeJpegHeader, makePdf, makePng } from '../helpers/media.js';
import { unwrap } from '../helpers/untrusted.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let fake: FakeZhipu;
let dir: string;
let usage: UsageTracker;
let notes: string[];
let ocr: ReturnType<typeof createOcrTool>;

beforeAll(async () => {
  fake = new FakeZhipu();
  await fake.start();
  ocr = createOcrTool({ client: client() });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  dir = tempDir('zhi-ocr-');
  usage = new UsageTracker(PLATFORMS.zai);
  notes = [];
  return () => cleanup(dir);
});

const ctx = (): ToolContext =>
  toolContext({
    cwd: dir,
    outputDir: join(dir, 'zhi-output'),
    progress: (n) => notes.push(n),
    usage,
    reportUsage: (model, u) => void usage.add(model, u),
    // GLM-OCR is paid: agreed in advance here (the question is tested on its own).
    priceAgreed: true,
  });

/** The client the tool is built with (pointing at the fake API). */
const client = () =>
  new ZhipuClient({ baseUrl: fake.baseUrl, apiKey: TEST_KEY, retryBaseMs: 1, retryCapMs: 2 });

const ocrBodies = () => fake.requests.filter((r) => r.path.endsWith('/layout_parsing')).map((r) => r.body);

describe('ocr tool: the price is agreed before anything is sent', () => {
  it('asks a person once per file; no is nothing sent; nobody to ask is nothing sent with a notice', async () => {
    writeFileSync(join(dir, 'scan.png'), makePng(4, 4, [0, 0, 0]));
    const ocr = createOcrTool({ client: client() });
    const nobody = toolContext({ cwd: dir, outputDir: join(dir, 'zhi-output') });
    const err = await ocr.execute({ path: 'scan.png' }, nobody).catch((e) => e);
    expect(err.message).toMatch(/could not be asked \(no terminal\).*--yes or --auto/);
    expect(err.notice).toEqual({ key: 'ocr.unasked', params: { name: 'scan.png' } });
    const no = toolContext({
      cwd: dir,
      outputDir: join(dir, 'zhi-output'),
      interactive: true,
      answer: false,
    });
    await expect(ocr.execute({ path: 'scan.png' }, no)).rejects.toThrow(/declined OCR/);
    expect(no.questions[0]!.message).toContain('scan.png: 1 page(s) to read with GLM-OCR, a paid service');
    expect(ocrBodies()).toHaveLength(0);
    fake.scriptOcr({ md: 'text' });
    fake.scriptOcr({ md: 'text' });
    const yes = toolContext({
      cwd: dir,
      outputDir: join(dir, 'zhi-output'),
      interactive: true,
      answer: true,
    });
    await ocr.execute({ path: 'scan.png' }, yes);
    await ocr.execute({ path: 'scan.png' }, yes);
    expect(yes.questions).toHaveLength(1);
    expect(ocrBodies()).toHaveLength(2);
  });
});

describe('ocr tool against the fake API', () => {
  it('sends a PDF as a data URI and returns the Markdown, with usage counted under glm-ocr', async () => {
    const pdf = makePdf(['Invoice 2024-001', 'Total 100.00', 'Thanks']);
    writeFileSync(join(dir, 'scan.pdf'), pdf);
    fake.scriptOcr({
      md: '# Invoice\n\n| Item | Amount |\n| --- | --- |\n| Total | 100.00 |\n![](page=1,bbox=[1, 2, 3, 4])',
    });
    const out = unwrap((await ocr.execute({ path: 'scan.pdf' }, ctx())) as string);
    expect(out).toBe(
      'OCR of scan.pdf (3 pages):\n\n# Invoice\n\n| Item | Amount |\n| --- | --- |\n| Total | 100.00 |\n[image on page 2]',
    );
    const [body] = ocrBodies();
    expect(body.model).toBe('glm-ocr');
    expect(body.file).toBe(`data:application/pdf;base64,${pdf.toString('base64')}`);
    expect(body.start_page_id).toBeUndefined();
    expect(usage.models()).toEqual([
      ['glm-ocr', expect.objectContaining({ promptTokens: 123, completionTokens: 456, calls: 1 })],
    ]);
    expect(notes).toEqual(['GLM-OCR is reading 3 pages…']);
  });

  it('sends PNG and JPG images with their own MIME types', async () => {
    writeFileSync(join(dir, 'photo.png'), makePng(40, 30));
    writeFileSync(join(dir, 'receipt.jpg'), makeJpegHeader(640, 480));
    await ocr.execute({ path: 'photo.png' }, ctx());
    await ocr.execute({ path: 'receipt.jpg' }, ctx());
    const [png, jpg] = ocrBodies();
    expect(png.file).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(jpg.file).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it('passes a page range', async () => {
    writeFileSync(join(dir, 'book.pdf'), makePdf(['a', 'b', 'c', 'd']));
    const out = await ocr.execute({ path: 'book.pdf', start_page: 2, end_page: 3 }, ctx());
    expect(out).toMatch(/^OCR of book\.pdf \(4 pages, pages 2-3 of 4\)/);
    expect(ocrBodies()[0]).toMatchObject({ start_page_id: 2, end_page_id: 3 });
    expect(notes).toEqual(['GLM-OCR is reading 2 pages…']);
  });

  it('retries when the service is busy, saying so', async () => {
    writeFileSync(join(dir, 'scan.png'), makePng(10, 10));
    fake.scriptOcr(
      { status: 429, code: '1302', message: '您当前使用该API的并发数过高' },
      { md: 'second time lucky' },
    );
    const out = await ocr.execute({ path: 'scan.png' }, ctx());
    expect(out).toContain('second time lucky');
    expect(ocrBodies()).toHaveLength(2);
    expect(notes).toEqual(['GLM-OCR is reading the image…', 'OCR: the service is busy, retrying (1/3)…']);
  });

  it('reports an API failure with what to do', async () => {
    writeFileSync(join(dir, 'scan.png'), makePng(10, 10));
    fake.scriptOcr({ status: 429, code: '1113', message: '余额不足' });
    await expect(ocr.execute({ path: 'scan.png' }, ctx())).rejects.toThrow(
      /failed \(balance 1113\): 余额不足\..*no balance/,
    );
  });

  it('a limit the service enforces itself is explained', async () => {
    writeFileSync(join(dir, 'scan.pdf'), makePdf(['1', '2', '3']));
    fake.ocrMaxPages = 2;
    try {
      await expect(ocr.execute({ path: 'scan.pdf' }, ctx())).rejects.toThrow(
        /failed \(bad_request 1214\): PDF页数不能超过2页\..*split the PDF into smaller files/,
      );
    } finally {
      fake.ocrMaxPages = 100;
    }
  });

  it('an empty result says so', async () => {
    writeFileSync(join(dir, 'blank.png'), makePng(10, 10, [255, 255, 255]));
    fake.scriptOcr({ md: '  ' });
    expect(await ocr.execute({ path: 'blank.png' }, ctx())).toMatch(/no text found/);
  });

  it('caps a long result with a marker', async () => {
    writeFileSync(join(dir, 'long.pdf'), makePdf(['1', '2']));
    fake.scriptOcr({ md: '长'.repeat(40_000) });
    const out = (await ocr.execute({ path: 'long.pdf' }, ctx())) as string;
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(50 * 1024 + 200);
    expect(unwrap(out)).toMatch(
      /\[truncated: showing the first \d+ KB of 117 KB\]\n\[To read a later part, call ocr again with start_page and end_page\.\]$/,
    );
  });
});

describe('checked before anything is uploaded', () => {
  async function refused(path: string, pattern: RegExp, tool = ocr) {
    await expect(tool.execute({ path }, ctx())).rejects.toThrow(pattern);
    expect(ocrBodies()).toHaveLength(0);
  }

  it('other image types are refused with the reason and what to do', async () => {
    writeFileSync(
      join(dir, 'pic.webp'),
      Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'), Buffer.alloc(64)]),
    );
    writeFileSync(join(dir, 'anim.gif'), Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(64)]));
    await refused(
      'pic.webp',
      /is a WEBP image; Zhipu OCR accepts only PDF, JPG and PNG.*convert it to PNG or JPG/,
    );
    await refused('anim.gif', /is a GIF image/);
  });

  it('a file that only pretends to be a PDF is refused', async () => {
    writeFileSync(join(dir, 'notes.pdf'), 'just text');
    await refused('notes.pdf', /is not a PDF, JPG or PNG file/);
    writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.4\ngarbage');
    await refused('broken.pdf', /cannot be opened as a PDF.*damaged/);
  });

  it('size limits: images 10 MB, PDFs 50 MB', async () => {
    writeFileSync(join(dir, 'big.png'), makePng(10, 10));
    truncateSync(join(dir, 'big.png'), 10 * 1024 * 1024 + 1);
    await refused('big.png', /is 10\.0 MB; Zhipu OCR accepts images up to 10\.0 MB.*shrink/);
    writeFileSync(join(dir, 'huge.pdf'), makePdf(['x']));
    truncateSync(join(dir, 'huge.pdf'), 50 * 1024 * 1024 + 1);
    await refused('huge.pdf', /accepts PDFs up to 50\.0 MB.*split it into smaller PDFs/);
  });

  it('page limit: says the limit and how to read in parts', async () => {
    writeFileSync(join(dir, 'thick.pdf'), makePdf(Array.from({ length: 101 }, (_, i) => `p${i}`)));
    await refused(
      'thick.pdf',
      /has 101 pages, which is more than the 100 pages .* e\.g\. 1-100, then 101-101\), or ask the user to split/,
    );
    writeFileSync(join(dir, 'five.pdf'), makePdf(['1', '2', '3', '4', '5']));
    await refused(
      'five.pdf',
      /has 5 pages, which is more than the 2 pages/,
      createOcrTool({ client: client(), maxPages: 2 }),
    );
    await expect(ocr.execute({ path: 'five.pdf', start_page: 9 }, ctx())).rejects.toThrow(
      /only 5 pages; start_page 9/,
    );
  });

  it('reads only inside the current directory', async () => {
    const outside = tempDir('zhi-outside-');
    try {
      writeFileSync(join(outside, 'secret.png'), makePng(5, 5));
      symlinkSync(join(outside, 'secret.png'), join(dir, 'link.png'));
      await refused('../secret.png', /outside the current directory/);
      await refused(join(outside, 'secret.png'), /Absolute paths are not allowed/);
      await refused('link.png', /symbolic link .* outside the current directory/);
      mkdirSync(join(dir, 'folder'));
      await refused('folder', /is a folder/);
      await refused('missing.pdf', /File not found/);
    } finally {
      cleanup(outside);
    }
  });
});
