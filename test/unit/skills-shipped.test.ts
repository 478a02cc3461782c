import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/skills/discovery.js';
import { loadSkillFile } from '../../src/skills/loader.js';
import { shippedOutcome } from '../../src/skills/shipped.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const BUILTIN_DIR = resolve(import.meta.dirname, '../../skills');
const NAMES = readdirSync(BUILTIN_DIR).filter((n) => n.endsWith('.yaml'));

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) cleanup(d);
  dirs = [];
});

/** The built-in skills copied to a folder of their own (as an executable writes them out). */
function copiedSkills(): string {
  const dir = tempDir();
  dirs.push(dir);
  for (const n of NAMES) copyFileSync(join(BUILTIN_DIR, n), join(dir, n));
  return dir;
}

describe('the built-in skills as built (dist/assets/builtin-skills.json)', () => {
  it('are what the loader makes of each file, with the file where it is installed', async () => {
    expect(NAMES.length).toBe(15);
    const dir = copiedSkills();
    for (const n of NAMES) {
      const file = join(dir, n);
      const shipped = await shippedOutcome(file);
      expect(shipped, n).toEqual(await loadSkillFile(file, 'builtin'));
      expect(shipped?.skill?.file).toBe(file);
    }
  });

  it('are not used for a file edited in place: that file is loaded as it is now', async () => {
    const dir = copiedSkills();
    const file = join(dir, 'summarize.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/^description: .*$/m, 'description: Edited in place'));
    expect(await shippedOutcome(file)).toBeUndefined();
    const catalog = await discoverSkills({ builtinDir: dir, userDir: join(dir, 'none') });
    expect(catalog.skills.get('summarize')?.description).toBe('Edited in place');
    expect(catalog.skills.get('translate')?.file).toBe(join(dir, 'translate.yaml'));
  });

  it('know no other file, even of a built-in name elsewhere', async () => {
    const dir = copiedSkills();
    expect(await shippedOutcome(join(dir, 'not-a-skill.yaml'))).toBeUndefined();
    expect(await shippedOutcome(join(dir, 'missing', 'summarize.yaml'))).toBeUndefined();
  });
});
