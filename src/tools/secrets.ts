/**
 * The secrets deny-list (design §3, "Secrets never leave"): places no tool reads, whatever the
 * current folder — zhi's own folders, credential folders in the home folder, `.env` files,
 * private keys (by name and by content), browser profiles and keychains on all three systems.
 * Data, kept in one place so it is easy to read and extend. `secretReason()` is called by the
 * one containment function in paths.ts; nothing else decides.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { appPaths } from '../support/paths.js';
import { secretInFile, secretInText } from './secret-content.js';
import { ToolError } from './types.js';

/** Why a path is secret: shown to the model (English) and, localised, to the person. */
export type SecretKind = 'zhi' | 'credentials' | 'history' | 'env' | 'private_key' | 'browser' | 'api_key';

/** Folders and files under the home folder (forward slashes, compared case-insensitively). */
export const HOME_SECRETS: readonly { path: string; kind: SecretKind }[] = [
  // Keys, cloud and registry credentials (Linux and macOS; most tools use the same names on Windows)
  { path: '.ssh', kind: 'credentials' },
  { path: '.gnupg', kind: 'credentials' },
  { path: '.aws', kind: 'credentials' },
  { path: '.azure', kind: 'credentials' },
  { path: '.config/gcloud', kind: 'credentials' },
  { path: '.kube', kind: 'credentials' },
  { path: '.docker/config.json', kind: 'credentials' },
  { path: '.config/containers/auth.json', kind: 'credentials' },
  { path: '.netrc', kind: 'credentials' },
  { path: '_netrc', kind: 'credentials' },
  { path: '.npmrc', kind: 'credentials' },
  { path: '.yarnrc.yml', kind: 'credentials' },
  { path: '.pypirc', kind: 'credentials' },
  { path: '.git-credentials', kind: 'credentials' },
  { path: '.config/git/credentials', kind: 'credentials' },
  { path: '.config/gh', kind: 'credentials' },
  { path: '.config/hub', kind: 'credentials' },
  { path: '.config/glab-cli', kind: 'credentials' },
  { path: '.password-store', kind: 'credentials' },
  { path: '.pgpass', kind: 'credentials' },
  { path: '.my.cnf', kind: 'credentials' },
  { path: '.vault-token', kind: 'credentials' },
  { path: '.config/rclone', kind: 'credentials' },
  { path: '.cargo/credentials', kind: 'credentials' },
  { path: '.cargo/credentials.toml', kind: 'credentials' },
  { path: '.gem/credentials', kind: 'credentials' },
  { path: '.m2/settings.xml', kind: 'credentials' },
  { path: '.gradle/gradle.properties', kind: 'credentials' },
  { path: '.composer/auth.json', kind: 'credentials' },
  { path: '.config/composer/auth.json', kind: 'credentials' },
  { path: '.terraform.d/credentials.tfrc.json', kind: 'credentials' },
  { path: '.config/doctl', kind: 'credentials' },
  { path: '.oci', kind: 'credentials' },
  { path: '.s3cfg', kind: 'credentials' },
  { path: '.boto', kind: 'credentials' },
  { path: '.config/op', kind: 'credentials' },
  { path: '.config/huggingface', kind: 'credentials' },
  { path: '.cache/huggingface/token', kind: 'credentials' },
  { path: '.config/openai', kind: 'credentials' },
  { path: '.wrangler', kind: 'credentials' },
  { path: '.fly', kind: 'credentials' },
  { path: '.config/heroku', kind: 'credentials' },
  { path: '.config/anthropic', kind: 'credentials' },
  { path: '.claude.json', kind: 'credentials' },
  { path: '.claude/.credentials.json', kind: 'credentials' },
  { path: '.codex/auth.json', kind: 'credentials' },
  { path: '.gemini', kind: 'credentials' },
  // Shell and client histories: commands typed with passwords and tokens in them
  { path: '.bash_history', kind: 'history' },
  { path: '.zsh_history', kind: 'history' },
  { path: '.zhistory', kind: 'history' },
  { path: '.history', kind: 'history' },
  { path: '.sh_history', kind: 'history' },
  { path: '.local/share/fish/fish_history', kind: 'history' },
  { path: '.python_history', kind: 'history' },
  { path: '.node_repl_history', kind: 'history' },
  { path: '.psql_history', kind: 'history' },
  { path: '.mysql_history', kind: 'history' },
  { path: '.sqlite_history', kind: 'history' },
  { path: '.rediscli_history', kind: 'history' },
  { path: '.lesshst', kind: 'history' },
  { path: '.viminfo', kind: 'history' },
  { path: 'AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine', kind: 'history' },
  // Linux keyrings, mail and browser profiles
  { path: '.local/share/keyrings', kind: 'browser' },
  { path: '.local/share/kwalletd', kind: 'browser' },
  { path: '.mozilla', kind: 'browser' },
  { path: '.thunderbird', kind: 'browser' },
  { path: '.config/google-chrome', kind: 'browser' },
  { path: '.config/chromium', kind: 'browser' },
  { path: '.config/BraveSoftware', kind: 'browser' },
  { path: '.config/microsoft-edge', kind: 'browser' },
  { path: '.config/vivaldi', kind: 'browser' },
  { path: '.config/opera', kind: 'browser' },
  { path: 'snap/firefox', kind: 'browser' },
  { path: 'snap/chromium', kind: 'browser' },
  // macOS keychains, browser profiles and cloud tools
  { path: 'Library/Keychains', kind: 'browser' },
  { path: 'Library/Cookies', kind: 'browser' },
  { path: 'Library/Safari', kind: 'browser' },
  { path: 'Library/Mail', kind: 'browser' },
  { path: 'Library/Messages', kind: 'browser' },
  { path: 'Library/Application Support/Google/Chrome', kind: 'browser' },
  { path: 'Library/Application Support/Chromium', kind: 'browser' },
  { path: 'Library/Application Support/Firefox', kind: 'browser' },
  { path: 'Library/Application Support/BraveSoftware', kind: 'browser' },
  { path: 'Library/Application Support/Microsoft Edge', kind: 'browser' },
  { path: 'Library/Application Support/com.apple.TCC', kind: 'browser' },
  { path: 'Library/Application Support/rclone', kind: 'credentials' },
  { path: 'Library/Application Support/gh', kind: 'credentials' },
  // Windows credential stores, browser profiles and cloud tools
  { path: 'AppData/Local/Google/Chrome/User Data', kind: 'browser' },
  { path: 'AppData/Local/Chromium/User Data', kind: 'browser' },
  { path: 'AppData/Local/Microsoft/Edge/User Data', kind: 'browser' },
  { path: 'AppData/Local/BraveSoftware', kind: 'browser' },
  { path: 'AppData/Roaming/Mozilla/Firefox', kind: 'browser' },
  { path: 'AppData/Roaming/Thunderbird', kind: 'browser' },
  { path: 'AppData/Roaming/Opera Software', kind: 'browser' },
  { path: 'AppData/Local/Microsoft/Credentials', kind: 'browser' },
  { path: 'AppData/Roaming/Microsoft/Credentials', kind: 'browser' },
  { path: 'AppData/Roaming/Microsoft/Protect', kind: 'browser' },
  { path: 'AppData/Local/Microsoft/Vault', kind: 'browser' },
  { path: 'AppData/Roaming/GitHub CLI', kind: 'credentials' },
  { path: 'AppData/Roaming/gcloud', kind: 'credentials' },
  { path: 'AppData/Roaming/rclone', kind: 'credentials' },
  { path: 'AppData/Roaming/npm/etc/npmrc', kind: 'credentials' },
  { path: 'AppData/Roaming/postgresql/pgpass.conf', kind: 'credentials' },
  { path: 'AppData/Roaming/Docker/config.json', kind: 'credentials' },
];

/** Folder names that hold credentials wherever they are (a copied home folder, a backup). */
const SECRET_FOLDER_NAMES = new Set([
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.password-store',
  '.gcloud',
]);

/** Private keys and key stores by file name. */
const KEY_FILE = /^(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.*\.(ppk|p12|pfx|jks|keystore|kdbx))$/i;
/**
 * `.env`, `.env.local`, `.env_local`, `.env-prod`, `.env.`, `prod.env`, `env.production`, direnv's
 * `.envrc`… (`env.ts` or `environment.md` are not: only a stage name follows a bare `env.`).
 */
export const ENV_FILE =
  /^(\.env.*|.+\.env|env\.(prod|production|local|dev|development|stage|staging|test)(\..*)?)$/i;

/** Credential and history files by name wherever they are (a copied home folder, a project). */
const SECRET_FILE_NAMES: ReadonlyMap<string, SecretKind> = new Map([
  ...[
    '.netrc',
    '_netrc',
    '.pgpass',
    'pgpass.conf',
    '.git-credentials',
    '.vault-token',
    '.npmrc',
    '.pypirc',
    '.my.cnf',
    '.s3cfg',
    'credentials.tfrc.json',
  ].map((n) => [n, 'credentials'] as const),
  ...['.bash_history', '.zsh_history', '.psql_history', '.mysql_history', '.python_history'].map(
    (n) => [n, 'history'] as const,
  ),
]);

/** True for a file or folder name that is secret wherever it lies (the sandbox hides these in the current folder). */
export function secretByName(name: string): SecretKind | undefined {
  const l = name.toLowerCase();
  if (SECRET_FOLDER_NAMES.has(l)) return 'credentials';
  const known = SECRET_FILE_NAMES.get(l);
  if (known) return known;
  if (ENV_FILE.test(name)) return 'env';
  if (KEY_FILE.test(name)) return 'private_key';
  return undefined;
}

export interface SecretOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
}

function lower(p: string): string {
  return p.split(sep).join('/').toLowerCase();
}

function under(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
}

/** zhi's own folders, hidden whole (config, data, logs), and the skill folders inside them that stay readable. */
export function zhiFolders(env: NodeJS.ProcessEnv): { hidden: string[]; readable: string[] } {
  const p = appPaths(env);
  return { hidden: [p.configDir, p.dataDir, p.logDir], readable: [p.skillsDir, join(p.dataDir, 'skills')] };
}

/** zhi's own folders: config (but not the skills folder), data and logs. */
function inZhiFolders(abs: string, env: NodeJS.ProcessEnv): boolean {
  const p = appPaths(env);
  const l = lower(abs);
  const is = (dir: string) => under(lower(resolve(dir)), l);
  if (is(p.configDir) && !is(p.skillsDir)) return true;
  if (is(p.dataDir) && !is(join(p.dataDir, 'skills'))) return true;
  return is(p.logDir);
}

/**
 * Why `abs` (an absolute path after resolving links) must not be read, judged by its name and
 * place alone; undefined when it may be. Case-insensitive (Windows and macOS file systems).
 */
export function secretByPath(abs: string, opts: SecretOptions = {}): SecretKind | undefined {
  const env = opts.env ?? process.env;
  if (inZhiFolders(abs, env)) return 'zhi';
  const home = lower(resolve(opts.home ?? homedir()));
  const l = lower(abs);
  if (under(home, l)) {
    const rel = l === home ? '' : l.slice(home.length + 1);
    for (const rule of HOME_SECRETS) {
      const p = rule.path.toLowerCase();
      if (rel === p || rel.startsWith(`${p}/`)) return rule.kind;
    }
  }
  const parts = l.split('/');
  if (parts.some((part) => SECRET_FOLDER_NAMES.has(part))) return 'credentials';
  return secretByName(basename(abs));
}

/** A regular file holding a private key or zhi's configured API key, in any form (secret-content.ts). */
export async function secretByContent(abs: string): Promise<SecretKind | undefined> {
  return secretInFile(abs);
}

/** English, for the model: why the file is refused and that it should not try another way. */
export function secretMessage(shown: string, kind: SecretKind): string {
  const what: Record<SecretKind, string> = {
    zhi: "is one of zhi's own files (settings, API key, history, sessions or logs)",
    credentials: 'is in a credentials folder (SSH, GPG, cloud or package-registry credentials)',
    env: 'is an environment file (.env), which usually holds passwords and keys',
    private_key: 'holds a private key',
    history: 'is a shell or client history, where passwords and tokens typed on command lines are kept',
    browser: 'is in a browser profile or keychain folder',
    api_key: "contains zhi's API key",
  };
  return `"${shown}" ${what[kind]}, so no tool may read it: secrets never leave this computer. Do not try another way to read it. If the user really wants it used, they can attach the file themselves.`;
}

/** The deny-list by name and place: the path as given and where it really leads. */
export function refuseSecretPath(lexical: string, real: string, display: string): void {
  const kind = secretByPath(real) ?? secretByPath(lexical);
  if (kind) throw secretRefusal(display, kind);
}

/** The deny-list by content: a private key or zhi's key anywhere in the file. */
export async function refuseSecretContent(real: string, display: string): Promise<void> {
  const st = await stat(real).catch(() => undefined);
  const kind = st?.isFile() ? await secretByContent(real) : undefined;
  if (kind) throw secretRefusal(display, kind);
}

function secretRefusal(display: string, kind: SecretKind): ToolError {
  return new ToolError(secretMessage(display, kind), {
    key: `safety.secret.${kind}`,
    params: { path: display },
  });
}

/** Refuse a reader's text that holds a private key or zhi's key (docx, PDF, UTF-16, any page). */
export function refuseSecretText(text: string, shown: string): void {
  const kind = secretInText(text);
  if (kind) throw secretRefusal(shown, kind);
}
