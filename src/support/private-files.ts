/**
 * Keeping zhi's own files private. On Linux and macOS: the config (it holds the API key) is 0600
 * in a 0700 folder; a config someone else can read is fixed at start-up, with a warning. On
 * Windows, modes mean little: the config file's access list is cut down to the current user
 * with `icacls` whenever zhi writes it. The system calls are a seam so tests can check both.
 */
import { chmod, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface PrivacyDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  stat(path: string): Promise<{ mode: number }>;
  chmod(path: string, mode: number): Promise<void>;
  /** Run a program (icacls) with arguments; rejects when it fails. */
  run(file: string, args: string[]): Promise<void>;
}

const nodeDeps = (): PrivacyDeps => ({
  platform: process.platform,
  env: process.env,
  stat,
  chmod,
  run: async (file, args) => {
    const { execFile } = await import('node:child_process');
    await new Promise<void>((resolve, reject) =>
      execFile(file, args, { windowsHide: true, timeout: 10_000 }, (err) => (err ? reject(err) : resolve())),
    );
  },
});

export interface PrivacyFix {
  /** The file's mode before (e.g. 0o644), when it was readable by others and made private. */
  fileMode?: number;
  /** The folder's mode before, when it was open to others and closed. */
  folderMode?: number;
}

/**
 * Make an existing private file 0600 and its folder 0700 (Linux, macOS). Returns what was
 * changed, so the caller can say so; nothing on Windows, or when the file does not exist.
 */
export async function fixPrivateMode(file: string, deps: PrivacyDeps = nodeDeps()): Promise<PrivacyFix> {
  if (deps.platform === 'win32') return {};
  const fix: PrivacyFix = {};
  const st = await deps.stat(file).catch(() => undefined);
  if (!st) return fix;
  if (st.mode & 0o077) {
    await deps.chmod(file, 0o600);
    fix.fileMode = st.mode & 0o777;
  }
  const dir = dirname(file);
  const dst = await deps.stat(dir).catch(() => undefined);
  if (dst && dst.mode & 0o077) {
    await deps.chmod(dir, 0o700).catch(() => {});
    fix.folderMode = dst.mode & 0o777;
  }
  return fix;
}

/**
 * `icacls <file> /inheritance:r /grant:r <DOMAIN\user>:F`: drop inherited entries (which let
 * other accounts and administrators' groups read the folder) and give the current user alone
 * full control. Undefined when the user's name is unknown.
 */
export function icaclsArgs(file: string, env: NodeJS.ProcessEnv): string[] | undefined {
  const user = env.USERNAME?.trim();
  if (!user) return undefined;
  const domain = env.USERDOMAIN?.trim();
  return [file, '/inheritance:r', '/grant:r', `${domain ? `${domain}\\` : ''}${user}:F`];
}

/** On Windows, restrict the file to the current user. True when done (always true elsewhere). */
export async function restrictAcl(file: string, deps: PrivacyDeps = nodeDeps()): Promise<boolean> {
  if (deps.platform !== 'win32') return true;
  const args = icaclsArgs(file, deps.env);
  if (!args) return false;
  try {
    await deps.run('icacls', args);
    return true;
  } catch {
    return false;
  }
}
