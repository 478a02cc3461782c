import { describe, expect, it } from 'vitest';
import createSkill from '../../src/skills/skill-create-tool.js';
import { creationSeed } from '../../src/skills/templates.js';
import fileWrite from '../../src/tools/files/write.js';
import {
  OUTPUT_FORMAT_IDS,
  SUPPORTED_EXTENSIONS,
  shapesInBrief,
  WRITE_FORMATS,
} from '../../src/tools/files/writers/formats.js';
import { encodeContent, formatOf, PayloadError } from '../../src/tools/files/writers/index.js';

describe('file_write formats are one table (writers/formats.ts)', () => {
  it('each extension belongs to one format, and is written as that format in any case', () => {
    expect(new Set(SUPPORTED_EXTENSIONS).size).toBe(SUPPORTED_EXTENSIONS.length);
    for (const f of OUTPUT_FORMAT_IDS) {
      for (const ext of WRITE_FORMATS[f].extensions) {
        expect(formatOf(`report${ext}`)).toBe(f);
        expect(formatOf(`REPORT${ext.toUpperCase()}`)).toBe(f);
      }
    }
    expect(formatOf('report.pdf')).toBeUndefined();
  });

  it('the tool description and both skill-creation prompts name every format, .pptx included', () => {
    const seed = creationSeed({ catalog: { skills: new Map() } as never, tools: ['file_write'] });
    for (const text of [fileWrite.description, createSkill.description, seed]) {
      expect(text).toContain(shapesInBrief());
      for (const f of OUTPUT_FORMAT_IDS) expect(text).toContain(WRITE_FORMATS[f].extensions[0]);
    }
  });

  it('a payload that does not fit says the full shape of its format', async () => {
    for (const f of ['csv', 'xlsx', 'docx', 'pptx'] as const) {
      const err = await encodeContent(f, 42).catch((e: unknown) => e);
      expect(err, f).toBeInstanceOf(PayloadError);
      expect((err as Error).message).toContain(WRITE_FORMATS[f].shape);
    }
  });
});
