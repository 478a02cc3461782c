import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { t } from '../support/i18n/index.js';

/** Editors a person who never chose one can use without a manual, in order of preference. */
const FRIENDLY = ['nano', 'pico', 'micro'];

/** Whether `cmd` is an executable on PATH (or, with a slash, at that path). */
export function onPath(cmd: string, env: NodeJS.ProcessEnv, platform = process.platform): boolean {
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  const dirs = cmd.includes('/') || cmd.includes('\\') ? [''] : (env.PATH ?? '').split(delimiter);
  for (const dir of dirs) {
    for (const ext of exts) {
      try {
        accessSync(join(dir, cmd + ext), platform === 'win32' ? constants.F_OK : constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}

/**
 * The editor to open: $VISUAL, then $EDITOR (with their arguments, `code --wait`), else Notepad
 * on Windows, else nano (or another editor that shows its keys on screen), else TextEdit on a
 * Mac. Never a bare `vi` for someone who did not choose it. Undefined when there is none.
 */
export async function editorCommand(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  exists: (cmd: string) => boolean = (cmd) => onPath(cmd, env, platform),
): Promise<string[] | undefined> {
  const chosen = env.VISUAL?.trim() || env.EDITOR?.trim();
  if (chosen) {
    const { parse } = await import('shell-quote');
    const words = parse(chosen).filter((w): w is string => typeof w === 'string');
    if (words.length) return words;
  }
  if (platform === 'win32') return ['notepad'];
  const friendly = FRIENDLY.find(exists);
  if (friendly) return [friendly];
  if (platform === 'darwin') return ['open', '-W', '-t'];
  return undefined;
}

/** Editors looked for on PATH when advising one, most familiar to a newcomer first. */
const KNOWN = { unix: ['nano', 'micro', 'vim', 'vi', 'emacs', 'code'], windows: ['notepad', 'code'] };

/** The editors of KNOWN installed here, in that order. */
export function installedEditors(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  exists: (cmd: string) => boolean = (cmd) => onPath(cmd, env, platform),
): string[] {
  return KNOWN[platform === 'win32' ? 'windows' : 'unix'].filter(exists);
}

/**
 * What to try when no editor opened: set EDITOR to one that is installed here (the way this
 * system sets a variable), naming the others found; or, with none, install one first.
 */
export function editorAdvice(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  exists?: (cmd: string) => boolean,
): string {
  const found = installedEditors(env, platform, exists);
  const others = found.length > 1 ? t('input.editor.alsoHere', { names: found.slice(1).join(', ') }) : '';
  if (platform === 'win32') return t('input.editor.tryWindows', { editor: found[0] ?? 'notepad' }) + others;
  if (!found.length) return t('input.editor.tryInstall', { names: KNOWN.unix.join(', ') });
  // VS Code returns at once unless told to wait for the file to close.
  const value = found[0] === 'code' ? '"code --wait"' : found[0];
  return t('input.editor.tryFound', { command: `export EDITOR=${value}` }) + others;
}

export type EditResult =
  | { kind: 'edited'; text: string }
  | { kind: 'unchanged' }
  | { kind: 'none' }
  | { kind: 'failed'; editor: string; reason: string };

/** Let the person edit `text` in their editor (the terminal is theirs until it closes). */
export async function editText(text: string, env: NodeJS.ProcessEnv): Promise<EditResult> {
  const cmd = await editorCommand(env);
  if (!cmd) return { kind: 'none' };
  const dir = mkdtempSync(join(tmpdir(), 'zhi-message-'));
  const file = join(dir, 'message.md');
  try {
    writeFileSync(file, text, { encoding: 'utf8', mode: 0o600 });
    const res = spawnSync(cmd[0]!, [...cmd.slice(1), file], { stdio: 'inherit', env });
    if (res.error) {
      const missing = (res.error as NodeJS.ErrnoException).code === 'ENOENT';
      return {
        kind: 'failed',
        editor: cmd.join(' '),
        reason: missing ? t('input.editor.missing') : res.error.message,
      };
    }
    if (res.status !== 0)
      return {
        kind: 'failed',
        editor: cmd.join(' '),
        reason: t('input.editor.exit', { code: String(res.status) }),
      };
    const after = readFileSync(file, 'utf8').replace(/\r\n/g, '\n').replace(/\n+$/, '');
    return after === text.replace(/\n+$/, '') ? { kind: 'unchanged' } : { kind: 'edited', text: after };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
