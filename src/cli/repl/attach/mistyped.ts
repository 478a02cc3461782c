import { readdirSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { t } from '../../../support/i18n/index.js';
import { nearName } from '../../../support/near-file.js';
import { visible } from '../../../support/sanitize.js';
import { detectPaths, looksLikePath, words } from './paths.js';

export interface Mistyped {
  /** The path as typed. */
  typed: string;
  /** The same path with the file name that exists (in the typed folder). */
  suggestion: string;
}

export interface MistypedOptions {
  cwd: string;
  home: string;
  isFile(path: string): boolean;
  /** Names in a folder, or undefined when there is no such folder. */
  listDir?(dir: string): string[] | undefined;
}

function defaultListDir(dir: string): string[] | undefined {
  try {
    return readdirSync(dir);
  } catch {
    return undefined;
  }
}

const FILE_NAME = /\.[A-Za-z0-9]{1,8}$/;

/**
 * The first path in a message that names no file but is one typo away from a file in the same
 * folder (`files/nots.txt` when `files/notes.txt` exists): sending the message without it would
 * quietly leave the file out. Names that are nowhere near an existing one (a file to create) are
 * not reported.
 */
export function findMistyped(text: string, o: MistypedOptions): Mistyped | undefined {
  const found = detectPaths(text, o);
  const listDir = o.listDir ?? defaultListDir;
  for (const w of words(text)) {
    if (!looksLikePath(w) || found.some((f) => f.start < w.end && w.start < f.end)) continue;
    const typed = w.value.replace(/[,.;:!?，。；：！？、)）」』】>\]'"”’…]+$/, '').replace(/^@/, '');
    if (!FILE_NAME.test(typed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(typed)) continue;
    const unix = typed.replace(/\\/g, '/');
    const abs = unix.startsWith('~/')
      ? resolve(o.home, unix.slice(2))
      : isAbsolute(unix)
        ? unix
        : resolve(o.cwd, unix);
    const near = nearName(abs, 'file', {
      listDir: (dir) => listDir(dir)?.filter((n) => FILE_NAME.test(n)),
      isKind: (p) => o.isFile(p),
    });
    if (!near) continue;
    return { typed, suggestion: typed.slice(0, typed.length - basename(abs).length) + near };
  }
  return undefined;
}

/** What the person reads when a message is held back for a mistyped file name. */
export function mistypedWarning(typo: Mistyped): string {
  return [
    t('input.missing', { name: visible(typo.typed), suggestion: visible(typo.suggestion) }),
    t('input.missingTry'),
  ].join('\n');
}
