import { readFile } from 'node:fs/promises';
import { type AllowProblem, type AllowRule, readAllowRules } from './allow-config.js';
import { writeFileAtomic } from './atomic.js';
import {
  CONFIG_KEYS,
  type ConfigFile,
  type ConfigKey,
  defaultOf,
  ENV,
  envNames,
  isConfigKey,
  siteNames,
  specOf,
} from './config-schema.js';
import { checkModel, coerce, type ModelCatalog, validateValue } from './config-values.js';
import { ZhiError } from './errors.js';
import { parseFlatYaml } from './flat-yaml.js';
import { type HookProblem, type HookSpec, readHooks } from './hooks-config.js';
import { t } from './i18n/index.js';
import {
  type McpProblem,
  type McpServerConfig,
  mcpServerProblem,
  mcpServersProblems,
  normalizeServer,
} from './mcp-config.js';
import { restrictAcl } from './private-files.js';

export { CONFIG_KEYS, type ConfigFile, type ConfigKey, ENV, isConfigKey } from './config-schema.js';
export { coerce, type ModelCatalog, validateValue } from './config-values.js';

export interface ResolvedConfig {
  apiKey: string | undefined;
  /** One of the catalogue's platform ids (checked). */
  platform: string;
  baseUrl: string;
  defaultModel: string;
  skillModel: string;
  outputDir: string;
  maxTurns: number;
  language: 'auto' | 'en' | 'zh';
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  maxCostPerRun: number | undefined;
  compactThreshold: number;
  /** Show the status line under the REPL prompt. */
  statusLine: boolean;
  /** `reasoning_effort` for chat where the model takes it; unset = the model's default. */
  thinkingEffort: 'low' | 'medium' | 'high' | 'max' | undefined;
  /** Run shell commands in the OS sandbox where there is one (`auto`), or never (`off`). */
  shellSandbox: 'auto' | 'off' | 'restricted';
  /** Environment variable names a shell command gets besides PATH, HOME, LANG… (`shell_env`). */
  shellEnv: string[];
  /** Sites web_fetch may reach unasked with an address that carries no data (`web_allow`). */
  webAllow: string[];
  /** Every web_search query asks (`ask`, the default), or none does (`allow`, the person's rule). */
  webSearch: 'ask' | 'allow';
  /** MCP servers from `mcp_servers:`, checked, defaults applied. */
  mcpServers: Record<string, McpServerConfig>;
  /** The usable hooks of `hooks:` (bad entries are left out with a warning). */
  hooks: HookSpec[];
  /** The usable rules of `allow:` (bad entries are left out with a warning). */
  allowRules: AllowRule[];
  /** Look for a newer zhi once a day, in the background (`update_check`, `$ZHI_UPDATE_CHECK`). */
  updateCheck: boolean;
  /** Whether the config file exists. */
  fileExists: boolean;
  /** Where each value came from: `--model`, `$ZHI_DEFAULT_MODEL`, `config.yaml` or `default`. */
  sources: Record<ConfigKey, string>;
}

export interface LoadResult {
  file: ConfigFile;
  exists: boolean;
  /** The file read, named in full in every error and warning about it. */
  path?: string;
  warnings: ConfigWarning[];
}

export type ConfigWarning =
  | { kind: 'unknown_key'; key: string; file: string }
  | {
      kind: 'corrupt';
      file: string;
      backup: string;
      keyRecovered: boolean;
      /** The settings read back from the broken file (each a `key: value` line that is valid). */
      recovered: string[];
      /** The line where the YAML is broken, when the parser says. */
      line?: number;
    }
  /** An `mcp_servers` entry that cannot be used: that server is left out, the others work. */
  | { kind: 'mcp_server'; problem: McpProblem; file: string }
  /** A `hooks` entry that cannot be used: that hook is left out, the others run. */
  | { kind: 'hook'; problem: HookProblem; file: string }
  /** An `allow` entry that cannot be used: left out (its calls ask), the others hold. */
  | { kind: 'allow'; problem: AllowProblem; file: string; line?: number };

/** Read config.yaml. A file that is not valid YAML is backed up and replaced by defaults, keeping the key. */
export async function loadConfigFile(path: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { file: {}, exists: false, path, warnings: [] };
    throw err;
  }
  const data = await parseConfigText(text);
  if (
    data === CORRUPT ||
    (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data)))
  ) {
    return recoverCorrupt(path, text);
  }
  const raw = (data ?? {}) as Record<string, unknown>;
  const warnings: ConfigWarning[] = [];
  const file: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!isConfigKey(key)) {
      warnings.push({ kind: 'unknown_key', key, file: path });
      continue;
    }
    if (value === null || value === undefined) continue;
    file[key] = validateValue(key, value, path);
    // Kept as written (saving the file loses nothing); resolveConfig leaves the bad ones out.
    if (key === 'mcp_servers') {
      for (const problem of mcpServersProblems(value as Record<string, unknown>))
        warnings.push({ kind: 'mcp_server', problem, file: path });
    }
    if (key === 'hooks') {
      for (const problem of readHooks(value).problems) warnings.push({ kind: 'hook', problem, file: path });
    }
    if (key === 'allow') {
      const { listItemLine } = await import('./yaml.js');
      for (const problem of readAllowRules(value).problems) {
        const line = problem.index ? await listItemLine(text, 'allow', problem.index - 1) : undefined;
        warnings.push({ kind: 'allow', problem, file: path, ...(line ? { line } : {}) });
      }
    }
  }
  return { file: file as ConfigFile, exists: true, path, warnings };
}

const CORRUPT = Symbol('corrupt');

/**
 * The file's data. A flat file of `key: value` lines (what zhi writes) is read directly; the
 * yaml library (tens of milliseconds to load) only for anything more (mcp_servers, lists…).
 */
async function parseConfigText(text: string): Promise<unknown> {
  const flat = parseFlatYaml(text);
  if (flat) return flat;
  const { parseYamlSafe } = await import('./yaml.js');
  const parsed = parseYamlSafe(text, { limits: { maxBytes: 64 * 1024 } });
  return parsed.ok ? parsed.value : CORRUPT;
}

/** The line (1-based) of the first YAML problem in `text`, when the parser gives a position. */
async function brokenLine(text: string): Promise<number | undefined> {
  const { parseYamlSafe } = await import('./yaml.js');
  const parsed = parseYamlSafe(text, { limits: { maxBytes: 64 * 1024 } });
  const offset = parsed.ok ? undefined : parsed.problems.find((p) => p.offset !== undefined)?.offset;
  if (offset === undefined) return undefined;
  // A problem found at the end of the file (an unclosed bracket) is on its last written line, not
  // on the empty one after the final newline.
  return text.slice(0, offset).replace(/\s+$/, '').split('\n').length;
}

/**
 * Every setting of a broken file that can still be read: each top-level `key: value` line of a
 * known key whose value is valid (mcp_servers, a nested map, is not guessed at).
 */
function readableSettings(text: string, path: string): ConfigFile {
  const file: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    const key = /^([a-z_]+)\s*:/.exec(line)?.[1];
    if (!key || !isConfigKey(key) || specOf(key).nested) continue;
    const value = parseFlatYaml(line)?.[key];
    if (value === undefined || value === null) continue;
    try {
      file[key] = validateValue(key, value, path);
    } catch {
      // A value that is not valid is left out, as a fresh start would.
    }
  }
  return file as ConfigFile;
}

async function recoverCorrupt(path: string, text: string): Promise<LoadResult> {
  const backup = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  // The backup may hold the key: private from the moment it exists, like the config itself.
  await writeFileAtomic(backup, text, 0o600);
  await restrictAcl(backup);
  const file = readableSettings(text, path);
  if (!file.api_key) {
    const match = /^\s*api_key\s*:\s*["']?([A-Za-z0-9._-]{8,})["']?\s*$/m.exec(text);
    if (match) file.api_key = match[1]!;
  }
  await saveConfigFile(path, file);
  const line = await brokenLine(text);
  const recovered = Object.keys(file).filter((k) => k !== 'api_key');
  return {
    file,
    exists: true,
    path,
    warnings: [
      {
        kind: 'corrupt',
        file: path,
        backup,
        keyRecovered: Boolean(file.api_key),
        recovered,
        ...(line ? { line } : {}),
      },
    ],
  };
}

/**
 * Write the config. Resolves false when, on Windows, its access list could not be cut down to the
 * current user (icacls failed): the caller says so, since the file holds the key.
 */
export async function saveConfigFile(path: string, file: ConfigFile): Promise<boolean> {
  const ordered: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const v = file[key as keyof ConfigFile];
    if (v !== undefined) ordered[key] = v;
  }
  const { stringify } = await import('yaml');
  await writeFileAtomic(path, stringify(ordered), 0o600);
  // Windows: the mode above means little; the access list is what keeps the key private.
  return restrictAcl(path);
}

/**
 * Flags that change a config value for this invocation. Only the language: `--model` and
 * `--output-dir` are settings of the invocation, decided with the config by `chatModel`,
 * `skillModel` and `outputFolder`, and never written into it.
 */
export interface Overrides {
  language?: string | undefined;
}

/** Merge file, environment and flags (flags beat environment beats file) and validate. */
export function resolveConfig(
  loaded: LoadResult,
  catalog: ModelCatalog,
  env: NodeJS.ProcessEnv = process.env,
  flags: Overrides = {},
): ResolvedConfig {
  const merged: Record<string, unknown> = { ...loaded.file };
  for (const [key, name] of Object.entries(ENV) as [ConfigKey, string][]) {
    const v = env[name];
    if (v !== undefined && v !== '') merged[key] = validateValue(key, coerce(key, v), envRef(name), catalog);
  }
  if (flags.language) merged.language = validateValue('language', flags.language, '--language');
  const file = merged as ConfigFile;
  const platform = file.platform ?? defaultOf('platform');
  const fromFile = loaded.path ?? 'config.yaml';
  validateValue('platform', platform, fromFile, catalog);
  const baseUrl = file.base_url ?? catalog.platformBaseUrl(platform);
  const defaultModel = file.default_model ?? catalog.defaultChatModel;
  const skillModel = file.skill_model ?? catalog.defaultSkillModel(platform);
  checkModel('default_model', defaultModel, platform, sourceOf('default_model', env, fromFile), catalog);
  checkModel('skill_model', skillModel, platform, sourceOf('skill_model', env, fromFile), catalog);
  if (platform === 'custom' && !file.base_url) {
    throw new ZhiError({
      kind: 'config',
      what: { key: 'config.err.customNeedsUrl' },
      tries: [{ key: 'config.try.set', params: { key: 'base_url' } }],
    });
  }
  return {
    apiKey: file.api_key || undefined,
    platform,
    baseUrl,
    defaultModel: defaultModel.toLowerCase(),
    skillModel: skillModel.toLowerCase(),
    outputDir: file.output_dir ?? defaultOf('output_dir'),
    maxTurns: file.max_turns ?? defaultOf('max_turns'),
    language: file.language ?? defaultOf('language'),
    logLevel: file.log_level ?? defaultOf('log_level'),
    maxCostPerRun: file.max_cost_per_run,
    compactThreshold: file.compact_threshold ?? defaultOf('compact_threshold'),
    statusLine: (file.status_line ?? defaultOf('status_line')) !== 'off',
    thinkingEffort: file.thinking_effort,
    shellSandbox: file.shell_sandbox ?? defaultOf('shell_sandbox'),
    shellEnv: envNames(file.shell_env) ?? [],
    webAllow: siteNames(file.web_allow) ?? [],
    webSearch: file.web_search ?? defaultOf('web_search'),
    mcpServers: Object.fromEntries(
      Object.entries(file.mcp_servers ?? {})
        .filter(([name, v]) => mcpServerProblem(name, v) === undefined)
        .map(([name, v]) => [name, normalizeServer(v)]),
    ),
    hooks: readHooks(file.hooks).hooks,
    allowRules: readAllowRules(file.allow).rules,
    updateCheck: ![false, 'off'].includes(file.update_check ?? defaultOf('update_check')),
    fileExists: loaded.exists,
    sources: sourcesOf(loaded.file, env, flags),
  };
}

/** Where each key's value came from (flags beat environment beats file beats the default). */
function sourcesOf(file: ConfigFile, env: NodeJS.ProcessEnv, flags: Overrides): Record<ConfigKey, string> {
  const out = {} as Record<ConfigKey, string>;
  for (const key of CONFIG_KEYS) {
    const flag = specOf(key).flag;
    const name = ENV[key];
    if (flag === '--language' && flags.language) out[key] = flag;
    else if (name && env[name]) out[key] = envRef(name);
    else if (file[key as keyof ConfigFile] !== undefined) out[key] = 'config.yaml';
    else out[key] = 'default';
  }
  return out;
}

function sourceOf(key: ConfigKey, env: NodeJS.ProcessEnv, file: string): string {
  const name = ENV[key];
  return name && env[name] ? envRef(name) : file;
}

/** An environment variable as the person's shell writes it: `%ZHI_API_KEY%` on Windows. */
export function envRef(name: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `%${name}%` : `$${name}`;
}

/**
 * `abcd…e9` style: the first 4 and last 2 characters at most — enough to recognise a key, never
 * enough to use it. A short key shows only its last 2.
 */
export function maskKey(key: string | undefined): string {
  if (!key) return t('config.notSet');
  if (key.length < 8) return '****';
  if (key.length < 16) return `…${key.slice(-2)}`;
  return `${key.slice(0, 4)}…${key.slice(-2)}`;
}
