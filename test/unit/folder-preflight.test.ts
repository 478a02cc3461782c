import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planOutputs } from '../../src/agent/folder/preflight.js';
import { placed } from '../../src/agent/skills/folder-job.js';
import type { SkillRunRequest } from '../../src/agent/skills/types.js';

const dir = '/work/in';
const f = (...p: string[]) => join(dir, ...p);

describe('planOutputs: where each input’s outputs go, decided before any call', () => {
  it('mirrors subfolders; the top folder writes at the top', () => {
    const { places, clashes } = planOutputs(dir, [
      f('a', 'x.txt'),
      f('b', 'x.txt'),
      f('c', 'd', 'x.txt'),
      f('y.md'),
    ]);
    expect(places.map((p) => p.subdir)).toEqual(['a', 'b', 'c/d', '']);
    expect(places.every((p) => p.nameAs === undefined)).toBe(true);
    expect(clashes).toEqual([]);
  });

  it('inputs of one folder sharing a stem (any case) get their whole name; others keep theirs', () => {
    const { places, clashes } = planOutputs(dir, [
      f('dup.txt'),
      f('DUP.md'),
      f('a', 'dup.txt'),
      f('other.pdf'),
    ]);
    expect(places.map((p) => p.nameAs)).toEqual(['dup-txt', 'DUP-md', undefined, undefined]);
    expect(clashes).toEqual([{ stem: 'dup', files: ['dup.txt', 'DUP.md'] }]);
  });

  it('a name with several dots keeps all but the last; a dot-less name clashes with its own extension-less twin', () => {
    const { places } = planOutputs(dir, [
      f('report.final.docx'),
      f('report.final.pdf'),
      f('notes'),
      f('notes.txt'),
    ]);
    expect(places.map((p) => p.nameAs)).toEqual([
      'report.final-docx',
      'report.final-pdf',
      'notes',
      'notes-txt',
    ]);
  });

  it('placed() moves the outputs into the subfolder and tells the model the name, after any instructions it had', () => {
    const req = { instructions: 'Be brief.' } as SkillRunRequest;
    const out = placed(req, {
      place: { subdir: 'a/b', nameAs: 'dup-txt' },
      file: f('a', 'b', 'dup.txt'),
      outputDir: '/o',
    });
    expect(out.outputDir).toBe(join('/o', 'a/b'));
    expect(out.instructions).toMatch(
      /^Be brief\.\n\n.*use "dup-txt" where you would use the document's name/s,
    );
    expect(placed(req, { place: { subdir: '' }, file: f('x.txt'), outputDir: '/o' })).toEqual(req);
  });
});
