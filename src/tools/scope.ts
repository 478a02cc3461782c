/**
 * What the model may read, by scope rather than by name (design §3): the working folder minus
 * hidden files and folders (any path part starting with `.`: `.git/config`, `.env_local`,
 * `.aws/credentials`, `/mnt/c/Users/ann/.aws` alike), version-control internals and known state
 * files (`terraform.tfstate`, `config/master.key`, `credentials.json`…), at any depth. The person
 * lifts it for one path by naming that exact path (in their message, as a skill input); when zhi
 * runs in the home folder (or above it), the home folder's dot-files stay closed even then —
 * only `@file`, which the person's own terminal reads, attaches one. The secrets list
 * (secrets.ts) stays behind this as a second line, names or not.
 */
import { homedir } from 'node:os';
import { isAbsolute, relative, sep } from 'node:path';
import { type PathsNamed, ToolError } from './types.js';

/** Why a path is out of scope; each has a catalogue key `safety.scope.<why>`. */
export type ScopeReason = 'hidden' | 'vcs' | 'state' | 'home_dot';

/** Version-control folders that do not start with a dot. */
const VCS_FOLDERS = new Set(['cvs', '_darcs', '_fossil_', '.git', '.hg', '.svn', '.bzr', '.jj']);

/** Files that keep a system's live state or keys under an ordinary name. */
const STATE_FILE =
  /^(terraform\.tfstate(\.backup)?|.+\.tfstate(\.backup)?|master\.key|credentials(\.[a-z0-9]+)+|credentials|secrets\.(json|ya?ml|toml|ini|env|enc|xml|properties|conf|cfg)|env\.(?!md$|txt$|example$|sample$|template$|dist$|py$|js$|ts$|sh$)[a-z0-9_-]+|.+\.(tfvars|kdbx|keychain-db))$/i;

/** The reason one path part (a file or folder name) is out of scope, if it is. */
export function scopeOfName(name: string): Exclude<ScopeReason, 'home_dot'> | undefined {
  const l = name.toLowerCase();
  if (VCS_FOLDERS.has(l)) return 'vcs';
  if (name.startsWith('.') && name !== '.' && name !== '..') return 'hidden';
  if (STATE_FILE.test(name)) return 'state';
  return undefined;
}

function partsUnder(root: string, abs: string): string[] | undefined {
  const rel = relative(root, abs);
  if (rel === '') return [];
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep);
}

/**
 * Why `abs` (inside `root`) is out of scope: its own parts below `root` are checked, not the
 * folders above it (a project in `~/.local/src/x` is read normally). Undefined when in scope.
 */
export function scopeReason(root: string, abs: string, home = homedir()): ScopeReason | undefined {
  const parts = partsUnder(root, abs);
  if (!parts) return undefined;
  // Run from the home folder or above it: nothing of the home folder's dot-files, named or not.
  const inHome = partsUnder(home, abs);
  if (inHome && partsUnder(root, home) && inHome.some((p) => p.startsWith('.'))) return 'home_dot';
  for (const p of parts) {
    const why = scopeOfName(p);
    if (why) return why;
  }
  return undefined;
}

/**
 * The paths the person named themselves (typed in a message, given as a skill input or a `zhi
 * run` argument): the scope rule lets exactly these through. Compared as typed, relative to the
 * working folder (`./` and a trailing `/` dropped), or absolute.
 */
export class NamedPaths implements PathsNamed {
  private readonly named = new Set<string>();

  /** Every word of a person's text that could be a path (`@` and surrounding quotes dropped). */
  addText(text: string): void {
    for (const raw of text.split(/[\s,，;；、()（）[\]{}<>《》"'`“”‘’]+/)) {
      const word = raw.replace(/^@/, '').replace(/[.:：。!?！？]+$/, '');
      if (word && (word.includes('.') || word.includes('/') || word.includes('\\'))) this.add(word);
      // `.env.` or `notes.` typed at the end of a sentence: the name with its dot too.
      if (raw !== word && raw.endsWith('.')) this.add(raw.replace(/^@/, ''));
    }
  }

  add(path: string): void {
    this.named.add(normal(path));
  }

  /**
   * Did the person name this path (as shown relative to the working folder, or absolute), or a
   * folder it is in (`.github` named: `.github/workflows/ci.yml` may be read)?
   */
  has(display: string, abs?: string): boolean {
    return [display, abs].some((p) => {
      if (p === undefined) return false;
      const parts = normal(p).split('/');
      for (let n = parts.length; n > 0; n--) if (this.named.has(parts.slice(0, n).join('/'))) return true;
      return false;
    });
  }
}

/** The paths among a person's values (a skill's inputs, its task): each whole, and each word. */
export function namedFrom(values: Iterable<unknown>): NamedPaths {
  const named = new NamedPaths();
  for (const v of values) {
    if (typeof v !== 'string') continue;
    named.add(v);
    named.addText(v);
  }
  return named;
}

function normal(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

/**
 * The scope rule (scope.ts), on the path as given and where it leads: hidden parts, VCS internals
 * and state files are read only when the person named that exact path; the home folder's
 * dot-files not even then when zhi runs in the home folder.
 */
export function refuseOutOfScope(
  root: string,
  real: string,
  lexicalRoot: string,
  lexical: string,
  o: { display: string; typed: string; named: Pick<NamedPaths, 'has'> | undefined },
): void {
  const why = scopeReason(root, real) ?? scopeReason(lexicalRoot, lexical);
  if (!why) return;
  if (why !== 'home_dot' && (o.named?.has(o.display, real) || o.named?.has(o.typed, lexical))) return;
  throw new ToolError(scopeMessage(o.display, why), {
    key: `safety.scope.${why}`,
    params: { path: o.display },
  });
}

/** English, for the model: why the path is out of scope and what the person can do. */
function scopeMessage(shown: string, why: ScopeReason): string {
  const what: Record<ScopeReason, string> = {
    hidden: 'is a hidden file or inside a hidden folder (its name or a folder above it starts with ".")',
    vcs: 'is inside version-control internals (.git, .hg, .svn…)',
    state: 'is a state or credentials file (terraform state, master.key, credentials.*, secrets.*)',
    home_dot: "is one of the home folder's hidden files, and zhi was started in the home folder",
  };
  const how =
    why === 'home_dot'
      ? 'The user can attach it themselves with @ and its path.'
      : 'If the user wants it read, they can name this exact path in their message.';
  return `"${shown}" ${what[why]}, so it is not read unless the user names it. Do not try another way to read it. ${how}`;
}
