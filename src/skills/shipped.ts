/**
 * The built-in skills as they loaded when zhi was built (dist/assets/builtin-skills.json, made by
 * scripts/build.mjs with the same loader). A fresh data folder — a first start, a new version, a
 * test — takes them from there instead of loading the YAML parser and the schema for fifteen
 * files: about 70 ms of a one-shot's start. A file whose bytes are not the ones built (edited in
 * place) is loaded as usual.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { readAsset } from '../support/install.js';
import type { LoadOutcome } from './issues.js';
import type { Skill } from './schema.js';

/** A built-in skill as built: everything but where it is installed. */
type Shipped = Record<string, { skill: Omit<Skill, 'file'> } & Omit<LoadOutcome, 'skill'>>;

let shipped: Promise<Shipped> | undefined;

/** The outcome of loading built-in `file` when its bytes are the ones built; undefined otherwise. */
export async function shippedOutcome(file: string): Promise<LoadOutcome | undefined> {
  shipped ??= readAsset('builtin-skills.json').then(
    (bytes) => JSON.parse(Buffer.from(bytes).toString('utf8')) as Shipped,
    // A checkout built before this file existed, or a damaged install: load them as usual.
    () => ({}),
  );
  const entry = (await shipped)[basename(file)];
  if (!entry) return undefined;
  const bytes = await readFile(file).catch(() => undefined);
  if (!bytes || createHash('sha256').update(bytes).digest('hex') !== entry.skill.hash) return undefined;
  return { ...entry, skill: { ...entry.skill, file } };
}
