/**
 * The keys of config.yaml and what a valid value of each is: one plain check per key, the text
 * that names what was expected, and the model check against the catalogue handed in.
 */
import { type ErrorText, ZhiError } from './errors.js';
import type { MessageKey } from './i18n/index.js';
import { isServerMap } from './mcp-config.js';
import { nearest } from './suggest.js';

/**
 * What config validation needs to know about platforms and models. The model registry lives in
 * llm/ (a higher layer), so it is handed in: llm/catalog.ts provides the real one.
 */
export interface ModelCatalog {
  platformIds: readonly string[];
  platformBaseUrl(id: string): string;
  defaultChatModel: string;
  /** The default skill model: a free model the platform serves. */
  defaultSkillModel(platform: string): string;
  /** Model ids a person may choose, for messages and suggestions. */
  modelIds(): string[];
  knownModel(id: string): boolean;
}

/** The keys of config.yaml (design §4) with their types and defaults. */
export const CONFIG_KEYS = [
  'api_key',
  'platform',
  'base_url',
  'default_model',
  'skill_model',
  'output_dir',
  'max_turns',
  'language',
  'log_level',
  'max_cost_per_run',
  'compact_threshold',
  'status_line',
  'thinking_effort',
  'shell_sandbox',
  'shell_env',
  'web_allow',
  'web_search',
  'mcp_servers',
  'hooks',
  'allow',
  'update_check',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/**
 * One check per key. Plain functions rather than zod: config is read on every start, and zod
 * costs about 60 ms to import — a quarter of the REPL's start-up budget.
 */
const isText = (v: unknown): v is string => typeof v === 'string';
const nonEmpty = (v: unknown) => isText(v) && v.trim().length > 0;
const numberIn =
  (min: number, max: number, whole = false) =>
  (v: unknown) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!whole || Number.isInteger(v));
const oneOf =
  (...allowed: string[]) =>
  (v: unknown) =>
    isText(v) && allowed.includes(v);
const httpUrl = (v: unknown) => {
  if (!isText(v)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/**
 * A folder files can be written to: not one of the kernel's virtual folders (/proc, /sys, /dev),
 * where nothing is a file, nor a name with control characters.
 */
const folderValue = (v: unknown) =>
  nonEmpty(v) &&
  !/[\u0000-\u001f\u007f]/.test(v as string) &&
  !/^\/+(proc|sys|dev)(\/|$)/.test((v as string).trim());

const checks: Record<ConfigKey, (v: unknown) => boolean> = {
  api_key: isText,
  platform: nonEmpty,
  base_url: httpUrl,
  default_model: nonEmpty,
  skill_model: nonEmpty,
  output_dir: folderValue,
  max_turns: numberIn(1, 200, true),
  language: oneOf('auto', 'en', 'zh'),
  log_level: oneOf('debug', 'info', 'warn', 'error'),
  max_cost_per_run: numberIn(0, Number.POSITIVE_INFINITY),
  compact_threshold: numberIn(0.3, 0.98),
  status_line: oneOf('on', 'off'),
  thinking_effort: oneOf('low', 'medium', 'high', 'max'),
  shell_sandbox: oneOf('auto', 'off', 'restricted'),
  shell_env: (v) => envNames(v) !== undefined,
  web_allow: (v) => siteNames(v) !== undefined,
  web_search: oneOf('ask', 'allow'),
  // Each server is checked on its own (a bad one is left out with a warning): see loadConfigFile.
  mcp_servers: isServerMap,
  // Each hook is checked on its own (a bad one is left out with a warning): see loadConfigFile.
  hooks: () => true,
  // Each rule is checked on its own (a bad one is left out with a warning): see loadConfigFile.
  allow: () => true,
  update_check: (v) => typeof v === 'boolean' || oneOf('on', 'off')(v),
};

/** What a valid value is, said in the person's language (a list of words is the same in both). */
const expected: Record<ConfigKey, MessageKey | string> = {
  api_key: 'config.expected.text',
  platform: 'bigmodel | zai | bigmodel-coding | zai-coding | custom',
  base_url: 'config.expected.url',
  default_model: 'config.expected.model',
  skill_model: 'config.expected.model',
  output_dir: 'config.expected.folder',
  max_turns: 'config.expected.maxTurns',
  language: 'auto | en | zh',
  log_level: 'debug | info | warn | error',
  max_cost_per_run: 'config.expected.cost',
  compact_threshold: 'config.expected.threshold',
  status_line: 'on | off',
  thinking_effort: 'low | medium | high | max',
  shell_sandbox: 'auto | off | restricted',
  shell_env: 'config.expected.envNames',
  web_allow: 'config.expected.sites',
  web_search: 'ask | allow',
  mcp_servers: 'config.expected.mcp',
  hooks: 'config.expected.mcp',
  allow: 'config.expected.mcp',
  update_check: 'true | false',
};

/** The "it must be …" of an error: a catalogue sentence, or the list of words it can be. */
function expectedText(key: ConfigKey, catalog?: ModelCatalog): ErrorText {
  const e = key === 'platform' && catalog ? catalog.platformIds.join(' | ') : expected[key];
  return e.startsWith('config.expected.')
    ? { key: e as MessageKey }
    : { key: 'config.err.expected', params: { expected: e } };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `shell_env`: environment variable names a shell command may see, as a YAML list or as text
 * (`GITHUB_TOKEN, PGHOST`, what `zhi config set` stores). Undefined when a name is not one.
 */
export function envNames(v: unknown): string[] | undefined {
  const items = Array.isArray(v) ? v : isText(v) ? v.split(/[\s,]+/) : undefined;
  if (!items) return undefined;
  const names = items.map((n) => (isText(n) ? n.trim() : '')).filter((n) => n !== '');
  return names.every((n) => ENV_NAME.test(n)) ? names : undefined;
}

const SITE_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/**
 * `web_allow`: sites web_fetch may reach with no question when the address carries no data the
 * model composed (host names, exact: `docs.python.org`), as a YAML list or as text. Undefined
 * when one is not a host name.
 */
export function siteNames(v: unknown): string[] | undefined {
  const items = Array.isArray(v) ? v : isText(v) ? v.split(/[\s,]+/) : undefined;
  if (!items) return undefined;
  const names = items.map((n) => (isText(n) ? n.trim().toLowerCase() : '')).filter((n) => n !== '');
  return names.every((n) => SITE_NAME.test(n)) ? names : undefined;
}

/** Parse and validate a value given as text (from `zhi config set` or the environment). */
export function coerce(key: ConfigKey, raw: string): unknown {
  if (key === 'update_check') {
    const word = raw.trim().toLowerCase();
    return ['true', 'on', '1', 'yes'].includes(word)
      ? true
      : ['false', 'off', '0', 'no'].includes(word)
        ? false
        : raw;
  }
  if (key === 'max_turns') return /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (key === 'max_cost_per_run' || key === 'compact_threshold') {
    return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  return raw;
}

/**
 * A value typed on the command line (a flag, `zhi config set`) that zhi cannot use is a bad
 * argument (exit 2); one in the config file or the environment is a configuration error (exit 3).
 */
function errorKindOf(source: string): 'usage' | 'config' {
  return source.startsWith('--') || source.startsWith('zhi ') ? 'usage' : 'config';
}

export function validateValue(
  key: ConfigKey,
  value: unknown,
  source: string,
  catalog?: ModelCatalog,
): unknown {
  const ok = checks[key](value);
  const badPlatform = key === 'platform' && catalog && ok && !catalog.platformIds.includes(String(value));
  if (!ok && key === 'mcp_servers') {
    throw new ZhiError({
      kind: 'config',
      what: { key: 'mcp.err.notMap', params: { source } },
      why: { key: 'mcp.err.notMapWhy' },
      tries: [{ key: 'mcp.try.editFile', params: { source } }],
    });
  }
  if (!ok || badPlatform) {
    throw new ZhiError({
      kind: errorKindOf(source),
      what: { key: 'config.err.badValue', params: { key, value: String(value), source } },
      why: expectedText(key, catalog),
      tries: [{ key: 'config.try.set', params: { key } }],
    });
  }
  return value;
}

export function checkModel(
  key: 'default_model' | 'skill_model',
  model: string,
  platform: string,
  source: string,
  catalog: ModelCatalog,
): void {
  if (platform === 'custom' || catalog.knownModel(model)) return;
  const suggestion = nearest(model, catalog.modelIds());
  throw new ZhiError({
    kind: errorKindOf(source),
    what: { key: 'config.err.unknownModel', params: { model, key, source } },
    why: { key: 'config.err.knownModels', params: { models: catalog.modelIds().join(', ') } },
    tries: suggestion
      ? [
          { key: 'cli.try.didYouMean', params: { suggestion } },
          { key: 'config.try.set', params: { key } },
        ]
      : [{ key: 'config.try.set', params: { key } }],
  });
}
