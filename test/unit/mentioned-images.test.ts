import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { withMentionedImages } from '../../src/cli/images.js';
import { makePng } from '../helpers/media.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
let notes: string[];
let warnings: string[];
beforeEach(() => {
  dir = tempDir('zhi-mention-');
  notes = [];
  warnings = [];
  return () => cleanup(dir);
});

const opts = () => ({
  cwd: dir,
  home: dir,
  note: (l: string) => notes.push(l),
  warn: (l: string) => warnings.push(l),
});

describe('images named in a one-shot message', () => {
  it('attaches existing JPG/PNG files the user names, quoted or not, and keeps the text', async () => {
    writeFileSync(join(dir, 'a.png'), makePng(4, 4));
    writeFileSync(join(dir, 'my photo.png'), makePng(4, 4));
    const text = 'compare a.png with "my photo.png" and b.png';
    const out = await withMentionedImages(text, opts());
    expect(Array.isArray(out)).toBe(true);
    const parts = out as Exclude<typeof out, string>;
    expect(parts[0]).toEqual({ type: 'text', text });
    expect(parts.slice(1).map((p) => p.type)).toEqual(['image_url', 'image_url']);
    expect(notes).toEqual(['Attached image: a.png (1 KB)', 'Attached image: "my photo.png" (1 KB)']);
  });

  it('leaves messages without images, and other file types, as text', async () => {
    writeFileSync(join(dir, 'a.gif'), 'GIF89a');
    expect(await withMentionedImages('hello', opts())).toBe('hello');
    expect(await withMentionedImages('look at a.gif', opts())).toBe('look at a.gif');
    expect(await withMentionedImages('look at missing.png', opts())).toBe('look at missing.png');
  });

  it('does not search a piped document, only the words before it', async () => {
    writeFileSync(join(dir, 'logo.png'), makePng(4, 4));
    const text = 'summarise this\n\n<document name="stdin">\nthe site uses logo.png\n</document>';
    expect(await withMentionedImages(text, opts())).toBe(text);
  });

  it('an image the vision model cannot take is a warning, not a failure', async () => {
    writeFileSync(join(dir, 'tall.png'), makePng(2, 6001));
    expect(await withMentionedImages('read tall.png', opts())).toBe('read tall.png');
    expect(warnings).toEqual([
      'tall.png is 2×6001 pixels; the vision model accepts at most 6000×6000. Make the image smaller (resize it or save it as a compressed JPG), or use OCR to read its text.',
    ]);
  });
});
