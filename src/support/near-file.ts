import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nearest } from './suggest.js';

export interface NearOptions {
  /** Names in a folder, or undefined when there is no such folder. */
  listDir?(dir: string): string[] | undefined;
  /** Is this path a file (or, for `kind: 'directory'`, a folder)? */
  isKind?(path: string, kind: PathKind): boolean;
}

function listDir(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch {
    return undefined;
  }
}

/** What the near name must be: a file, a folder, or either (a file input also takes a folder). */
export type PathKind = 'file' | 'directory' | 'any';

function isKind(path: string, kind: PathKind): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  if (kind === 'any') return Boolean(st?.isFile() || st?.isDirectory());
  return kind === 'file' ? Boolean(st?.isFile()) : Boolean(st?.isDirectory());
}

/**
 * The name beside a path that does not exist, one typo away from it (`note.txt` when `notes.txt`
 * is in the same folder), or undefined. The one "did you mean" for paths: the REPL's held-back
 * message, `zhi -c`, and `zhi run`'s "not found".
 */
export function nearName(abs: string, kind: PathKind, o: NearOptions = {}): string | undefined {
  const dir = dirname(abs);
  const name = basename(abs);
  const names = (o.listDir ?? listDir)(dir);
  if (!names || !name) return undefined;
  const near = nearest(
    name,
    names.filter((n) => n !== name && !n.startsWith('.')),
  );
  if (!near || !(o.isKind ?? isKind)(join(dir, near), kind)) return undefined;
  return near;
}

/** `typed` with its last name replaced by `near` (`docs/note.txt` → `docs/notes.txt`). */
export function withName(typed: string, near: string): string {
  const bare = typed.replace(/[\\/]+$/, '');
  return bare.slice(0, bare.length - basename(bare).length) + near;
}
