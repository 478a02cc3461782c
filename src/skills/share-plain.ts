/**
 * A plain zip of a skill folder, as people share Agent Skills (a folder zipped by hand, a
 * "download" of one skill): no `zhi-skill.json`, the SKILL.md at the zip's root or in its one top
 * folder. zhi makes the manifest itself from the files, so the rest of an import (the summary, the
 * question, validation, installing untrusted) is the same as for an exported package.
 */

import { createHash } from 'node:crypto';
import type { ErrorText } from '../support/errors.js';
import { isValidSkillName } from './schema.js';
import type { Manifest } from './share-manifest.js';

/** Entries a zip tool adds that are no part of a skill (macOS's resource forks, Finder's files). */
const NOISE = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db|desktop\.ini)(\/|$)/;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A reason the files are not one skill folder (an Error's message, for ShareError). */
export class NotOneSkill extends Error {
  constructor(readonly reason: ErrorText) {
    super(reason.key);
    this.name = 'NotOneSkill';
  }
}

/**
 * The manifest and files (`<name>/…`) of a plain zip's skill. The name is the top folder's, or
 * the SKILL.md's own `name:` when the zip holds the folder's content, or `fallback` (the zip's
 * file name) — the first that zhi can use as a skill name.
 */
export function plainSkill(
  raw: Record<string, Uint8Array>,
  fallback: string,
  text: (b: Uint8Array) => string,
): { manifest: Manifest; files: Map<string, Uint8Array> } {
  const paths = Object.keys(raw).filter((p) => !NOISE.test(p));
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const top = tops.size === 1 && !tops.has('') ? [...tops][0]! : '';
  const skillMd = top ? `${top}/SKILL.md` : 'SKILL.md';
  const main = raw[skillMd];
  if (!paths.includes(skillMd) || !main) throw new NotOneSkill({ key: 'skills.share.why.noSkillMd' });
  const declared = /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(text(main).split(/\r?\n---/)[0] ?? '')?.[1];
  const name = [top, declared, fallback].find((n): n is string => !!n && isValidSkillName(n));
  if (!name)
    throw new NotOneSkill({ key: 'skills.share.why.badName', params: { name: top || declared || fallback } });
  const files = new Map<string, Uint8Array>();
  for (const p of paths.sort()) files.set(`${name}/${top ? p.slice(top.length + 1) : p}`, raw[p]!);
  const list = [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), bytes: bytes.length }));
  const hash = sha256(Buffer.from(list.map((f) => `${f.path}\0${f.sha256}\n`).join('')));
  const manifest: Manifest = {
    format: 'zhi-skill/1',
    name,
    version: `sha-${hash.slice(0, 8)}`,
    version_source: 'content',
    skill_format: 'skill-md',
    tools: [],
    hash,
    files: list,
  };
  return { manifest, files };
}
