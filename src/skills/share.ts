/**
 * Sharing skills as one .zip: the skill's folder (or its YAML file) plus `zhi-skill.json`, a
 * manifest with the name, version, tools and the hash of every file. Unpacking refuses what
 * could hurt the person who receives it: paths that leave the folder (zip-slip), links, too many
 * or too large files (zip bombs: sizes are checked before inflating and again after), and files
 * whose bytes do not match the manifest.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErrorText } from '../support/errors.js';
import { type Params, t } from '../support/i18n/index.js';
import { listResources } from './bundled.js';
import { isValidSkillName, type Skill } from './schema.js';
import type { Manifest } from './share-manifest.js';
import { NotOneSkill, plainSkill } from './share-plain.js';
import { contentHash } from './trust.js';

export type { Manifest } from './share-manifest.js';

export const MANIFEST = 'zhi-skill.json';
export const LIMITS = {
  files: 500,
  fileBytes: 10 * 1024 * 1024,
  totalBytes: 50 * 1024 * 1024,
  zipBytes: 20 * 1024 * 1024,
};

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The files of a skill as they go into the zip: `<name>/…` for a folder, `<name>.yaml` for YAML. */
async function skillFiles(skill: Skill): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  if (skill.folder) {
    for (const rel of ['SKILL.md', ...(await listResources(skill.folder))]) {
      files.set(`${skill.name}/${rel}`, await readFile(join(skill.folder, rel)));
    }
  } else files.set(`${skill.name}.yaml`, await readFile(skill.file));
  return files;
}

/**
 * Pack a skill into zip bytes with its manifest. The version is the skill's own; a skill without
 * one gets `sha-` and the start of its content hash, so two different contents never share one.
 */
export async function packSkill(skill: Skill): Promise<{ zip: Uint8Array; manifest: Manifest }> {
  const files = await skillFiles(skill);
  const hash = await contentHash(skill);
  const manifest: Manifest = {
    format: 'zhi-skill/1',
    name: skill.name,
    version: skill.version ?? `sha-${hash.slice(0, 8)}`,
    version_source: skill.version ? 'skill' : 'content',
    skill_format: skill.format,
    tools: skill.tools,
    hash,
    files: [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), bytes: bytes.length })),
  };
  const { zipSync, strToU8 } = await import('fflate');
  const entries: Record<string, Uint8Array> = {
    [MANIFEST]: strToU8(`${JSON.stringify(manifest, null, 2)}\n`),
  };
  for (const [path, bytes] of files) entries[path] = bytes;
  return { zip: zipSync(entries, { level: 9, mtime: new Date('2020-01-01T00:00:00Z') }), manifest };
}

/** Why a shared skill cannot be imported, in the catalogue (its message is the English, for logs). */
export class ShareError extends Error {
  constructor(readonly reason: ErrorText) {
    super(t(reason.key, reason.params, 'en'));
    this.name = 'ShareError';
  }
}

type ShareReason =
  | 'tooBig'
  | 'tooManyFiles'
  | 'leaves'
  | 'bomb'
  | 'notZip'
  | 'badJson'
  | 'mismatch'
  | 'notPart'
  | 'missing'
  | 'notSkill'
  | 'notManifest'
  | 'badName'
  | 'noFiles'
  | 'badTools'
  | 'downloadFailed'
  | 'downloadTooBig';

export const shareError = (reason: ShareReason, params?: Params): ShareError =>
  new ShareError({ key: `skills.share.why.${reason}`, ...(params ? { params } : {}) });

/** A zip entry path that stays inside the folder it is unpacked into. */
export function safeEntryPath(path: string): boolean {
  if (!path || path.length > 400 || path.includes('\\') || path.includes('\0')) return false;
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return false;
  return path.split('/').every((part) => part !== '..' && part !== '.' && part !== '');
}

export interface Unpacked {
  manifest: Manifest;
  /** Paths as in the zip (`<name>/SKILL.md`…), checked against the manifest. */
  files: Map<string, Uint8Array>;
  /** A plain zip of a skill folder: the manifest is zhi's own, made from the files. */
  plain?: boolean;
}

/**
 * Check and unpack zip bytes: a package of `zhi skill export`, or a plain zip of a skill folder
 * (named after its folder, or `fallbackName`: the zip's file name). Throws ShareError with a
 * reason a person can act on.
 */
export async function unpackSkill(zip: Uint8Array, fallbackName = ''): Promise<Unpacked> {
  if (zip.length > LIMITS.zipBytes) throw shareError('tooBig', { mb: LIMITS.zipBytes / 1024 / 1024 });
  const { unzipSync, strFromU8 } = await import('fflate');
  let count = 0;
  let declared = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter(f) {
        count += 1;
        declared += f.originalSize;
        if (count > LIMITS.files) throw shareError('tooManyFiles', { count: LIMITS.files });
        if (!safeEntryPath(f.name.replace(/\/$/, ''))) throw shareError('leaves', { path: f.name });
        if (f.originalSize > LIMITS.fileBytes || declared > LIMITS.totalBytes) throw shareError('bomb');
        return !f.name.endsWith('/');
      },
    });
  } catch (err) {
    if (err instanceof ShareError) throw err;
    throw shareError('notZip', { reason: (err as Error).message });
  }
  const total = Object.values(files).reduce((n, b) => n + b.length, 0);
  if (total > LIMITS.totalBytes) throw shareError('bomb');
  const raw = files[MANIFEST];
  if (!raw) return plain(files, fallbackName, strFromU8);
  let parsed: unknown;
  try {
    parsed = JSON.parse(strFromU8(raw));
  } catch {
    throw shareError('badJson', { manifest: MANIFEST });
  }
  const manifest = readManifest(parsed, Object.keys(files));
  delete files[MANIFEST];
  const out = new Map<string, Uint8Array>();
  const prefix = manifest.skill_format === 'skill-md' ? `${manifest.name}/` : undefined;
  for (const [path, bytes] of Object.entries(files)) {
    const listed = manifest.files.find((f) => f.path === path);
    if (!listed || listed.sha256 !== sha256(bytes)) throw shareError('mismatch', { path });
    if (prefix ? !path.startsWith(prefix) : path !== `${manifest.name}.yaml`)
      throw shareError('notPart', { path, name: manifest.name });
    out.set(path, bytes);
  }
  const missing = manifest.files.find((f) => !out.has(f.path));
  if (missing) throw shareError('missing', { path: missing.path });
  return { manifest, files: out };
}

function plain(
  files: Record<string, Uint8Array>,
  fallback: string,
  text: (b: Uint8Array) => string,
): Unpacked {
  try {
    return { ...plainSkill(files, fallback, text), plain: true };
  } catch (err) {
    if (err instanceof NotOneSkill)
      throw shareError('notSkill', { reason: t(err.reason.key, err.reason.params) });
    throw err;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;

/**
 * The manifest as zhi uses it, from JSON someone else may have written by hand: the fields zhi
 * needs are checked, the optional ones get their defaults (no tools, a version from the hash, the
 * format from the files), so a minimal package imports and a malformed one is refused with a reason.
 */
export function readManifest(parsed: unknown, paths: string[]): Manifest {
  if (!isRecord(parsed) || parsed.format !== 'zhi-skill/1' || typeof parsed.name !== 'string')
    throw shareError('notManifest', { manifest: MANIFEST });
  const name = parsed.name;
  if (!isValidSkillName(name)) throw shareError('badName', { name });
  const listed = Array.isArray(parsed.files) ? parsed.files : undefined;
  const files = listed?.map((f) =>
    isRecord(f) && typeof f.path === 'string' && typeof f.sha256 === 'string'
      ? { path: f.path, sha256: f.sha256, bytes: typeof f.bytes === 'number' ? f.bytes : 0 }
      : undefined,
  );
  if (!files || files.some((f) => f === undefined)) throw shareError('noFiles', { manifest: MANIFEST });
  const tools = parsed.tools === undefined ? [] : strings(parsed.tools);
  if (!tools) throw shareError('badTools', { manifest: MANIFEST });
  const format =
    parsed.skill_format === 'yaml' || parsed.skill_format === 'skill-md'
      ? parsed.skill_format
      : paths.some((p) => p === `${name}/SKILL.md`)
        ? 'skill-md'
        : 'yaml';
  const hash = typeof parsed.hash === 'string' ? parsed.hash : '';
  const version = typeof parsed.version === 'string' && parsed.version ? parsed.version : undefined;
  return {
    format: 'zhi-skill/1',
    name,
    version: version ?? (hash ? `sha-${hash.slice(0, 8)}` : '-'),
    version_source: version
      ? parsed.version_source === 'content'
        ? 'content'
        : 'skill'
      : hash
        ? 'content'
        : 'skill',
    skill_format: format,
    tools,
    hash,
    files: files as Manifest['files'],
  };
}
