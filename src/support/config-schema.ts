/**
 * The settings of config.yaml, written once (gemini-cli's `settingsSchema` is the model): per key
 * its check (whose guarded type is the key's type in `ConfigFile`), what a valid value is, the
 * default, whether it is secret, its description in the catalogue, the environment variable and
 * flag that set it, and how it is changed. Validation, `zhi config`, shell completion and the
 * README's settings table (scripts/docs-tables.mjs, checked in the gate) all read this table.
 *
 * Plain functions rather than zod: config is read on every start, and zod costs about 60 ms to
 * import — a quarter of the REPL's start-up budget.
 */
import type { MessageKey } from './i18n/index.js';
import { isServerMap } from './mcp-config.js';

/** A check that also says which words are allowed (for messages, completion and the README). */
type Check<T> = ((v: unknown) => v is T) & { words?: readonly string[] };

const isText = (v: unknown): v is string => typeof v === 'string';
const nonEmpty = (v: unknown): v is string => isText(v) && v.trim().length > 0;
const anything = (_v: unknown): _v is unknown => true;
const numberIn =
  (min: number, max: number, whole = false) =>
  (v: unknown): v is number =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!whole || Number.isInteger(v));

function oneOf<const W extends readonly string[]>(...words: W): Check<W[number]> {
  const check = (v: unknown): v is W[number] => isText(v) && words.includes(v);
  return Object.assign(check, { words });
}

const httpUrl = (v: unknown): v is string => {
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
const folderValue = (v: unknown): v is string =>
  nonEmpty(v) && !/[\u0000-\u001f\u007f]/.test(v) && !/^\/+(proc|sys|dev)(\/|$)/.test(v.trim());

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SITE_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Names in a YAML list or in text (`GITHUB_TOKEN, PGHOST`, what `zhi config set` stores). */
function namesOf(v: unknown, pattern: RegExp, lower: boolean): string[] | undefined {
  const items = Array.isArray(v) ? v : isText(v) ? v.split(/[\s,]+/) : undefined;
  if (!items) return undefined;
  const names = items
    .map((n) => (isText(n) ? (lower ? n.trim().toLowerCase() : n.trim()) : ''))
    .filter((n) => n !== '');
  return names.every((n) => pattern.test(n)) ? names : undefined;
}

/** `shell_env`: environment variable names a shell command may see. Undefined when one is not a name. */
export const envNames = (v: unknown): string[] | undefined => namesOf(v, ENV_NAME, false);

/**
 * `web_allow`: sites web_fetch may reach with no question when the address carries no data the
 * model composed (host names, exact: `docs.python.org`). Undefined when one is not a host name.
 */
export const siteNames = (v: unknown): string[] | undefined => namesOf(v, SITE_NAME, true);

const nameList =
  (read: (v: unknown) => string[] | undefined) =>
  (v: unknown): v is string | string[] =>
    read(v) !== undefined;

/** A whole number typed as text (`zhi config set max_turns 40`, an environment variable). */
const wholeFromText = (raw: string): unknown => (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw);
const numberFromText = (raw: string): unknown =>
  raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
const onOffFromText = (raw: string): unknown => {
  const word = raw.trim().toLowerCase();
  if (['true', 'on', '1', 'yes'].includes(word)) return true;
  return ['false', 'off', '0', 'no'].includes(word) ? false : raw;
};
const onOff = (v: unknown): v is boolean | 'on' | 'off' =>
  typeof v === 'boolean' || v === 'on' || v === 'off';

export interface KeySpec<T> {
  check: Check<T>;
  /** What a valid value is: a catalogue sentence; a check with `words` lists them instead. */
  expected?: MessageKey;
  /** The value when the key is unset, where it is a constant (others are decided in resolveConfig). */
  default?: NoInfer<T>;
  /** The words for a default decided elsewhere (the platform's address, models). */
  defaultText?: MessageKey;
  /** Its description, in the catalogue (shown by `zhi config set <key>`, written into README). */
  describe: MessageKey;
  /** Never printed whole (`config show`, `config get` and `config set` mask it). */
  secret?: true;
  /** The environment variable that sets it (it wins over config.yaml). */
  env?: string;
  /** The flag that sets it for one invocation (it wins over the environment). */
  flag?: string;
  /** Text typed on the command line or in the environment, read as a value. */
  fromText?: (raw: string) => unknown;
  /** A map or list whose entries are checked one by one (a bad one is a warning and left out). */
  nested?: true;
  /** Changed by another command than `zhi config set` (a list changed an entry at a time), or by hand. */
  setWith?: 'zhi config allow' | 'zhi mcp add' | 'config.yaml';
}

const key = <T>(spec: KeySpec<T>): KeySpec<T> => spec;

/** Every key, in the order config.yaml is written and `zhi config show` lists them. */
export const CONFIG_SCHEMA = {
  api_key: key({
    check: isText,
    expected: 'config.expected.text',
    describe: 'config.key.api_key',
    secret: true,
    env: 'ZHI_API_KEY',
  }),
  platform: key({
    check: nonEmpty,
    expected: 'config.expected.platform',
    default: 'bigmodel',
    describe: 'config.key.platform',
  }),
  base_url: key({
    check: httpUrl,
    expected: 'config.expected.url',
    defaultText: 'config.default.base_url',
    describe: 'config.key.base_url',
    env: 'ZHI_BASE_URL',
  }),
  default_model: key({
    check: nonEmpty,
    expected: 'config.expected.model',
    defaultText: 'config.default.default_model',
    describe: 'config.key.default_model',
    env: 'ZHI_DEFAULT_MODEL',
  }),
  skill_model: key({
    check: nonEmpty,
    expected: 'config.expected.model',
    defaultText: 'config.default.skill_model',
    describe: 'config.key.skill_model',
    env: 'ZHI_SKILL_MODEL',
  }),
  output_dir: key({
    check: folderValue,
    expected: 'config.expected.folder',
    default: 'zhi-output',
    describe: 'config.key.output_dir',
    env: 'ZHI_OUTPUT_DIR',
  }),
  max_turns: key({
    check: numberIn(1, 200, true),
    expected: 'config.expected.maxTurns',
    default: 30,
    describe: 'config.key.max_turns',
    fromText: wholeFromText,
  }),
  language: key({
    check: oneOf('auto', 'en', 'zh'),
    default: 'auto',
    describe: 'config.key.language',
    env: 'ZHI_LANGUAGE',
    flag: '--language',
  }),
  log_level: key({
    check: oneOf('debug', 'info', 'warn', 'error'),
    default: 'info',
    describe: 'config.key.log_level',
  }),
  max_cost_per_run: key({
    check: numberIn(0, Number.POSITIVE_INFINITY),
    expected: 'config.expected.cost',
    describe: 'config.key.max_cost_per_run',
    fromText: numberFromText,
  }),
  compact_threshold: key({
    check: numberIn(0.3, 0.98),
    expected: 'config.expected.threshold',
    default: 0.85,
    describe: 'config.key.compact_threshold',
    fromText: numberFromText,
  }),
  status_line: key({
    check: oneOf('on', 'off'),
    default: 'on',
    describe: 'config.key.status_line',
    env: 'ZHI_STATUS_LINE',
  }),
  thinking_effort: key({
    check: oneOf('low', 'medium', 'high', 'max'),
    describe: 'config.key.thinking_effort',
  }),
  shell_sandbox: key({
    check: oneOf('auto', 'off', 'restricted'),
    default: 'auto',
    describe: 'config.key.shell_sandbox',
  }),
  shell_env: key({
    check: nameList(envNames),
    expected: 'config.expected.envNames',
    describe: 'config.key.shell_env',
  }),
  web_allow: key({
    check: nameList(siteNames),
    expected: 'config.expected.sites',
    describe: 'config.key.web_allow',
  }),
  web_search: key({ check: oneOf('ask', 'allow'), default: 'ask', describe: 'config.key.web_search' }),
  // Each server, hook and rule is checked on its own (a bad one is left out with a warning): see loadConfigFile.
  mcp_servers: key({
    nested: true,
    check: isServerMap as Check<Record<string, Record<string, unknown>>>,
    expected: 'config.expected.mcp',
    describe: 'config.key.mcp_servers',
    setWith: 'zhi mcp add',
  }),
  hooks: key({
    nested: true,
    check: anything,
    expected: 'config.expected.hooks',
    describe: 'config.key.hooks',
    setWith: 'config.yaml',
  }),
  allow: key({
    nested: true,
    check: anything,
    expected: 'config.expected.allow',
    describe: 'config.key.allow',
    setWith: 'zhi config allow',
  }),
  update_check: key({
    check: Object.assign(onOff, { words: ['true', 'false'] }),
    default: true,
    describe: 'config.key.update_check',
    env: 'ZHI_UPDATE_CHECK',
    fromText: onOffFromText,
  }),
} as const;

export type ConfigKey = keyof typeof CONFIG_SCHEMA;
export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA) as ConfigKey[];

/** The type a key's check guards. */
type Guarded<K extends ConfigKey> = (typeof CONFIG_SCHEMA)[K]['check'] extends Check<infer T> ? T : never;

/** config.yaml as read: every key optional, each of the type its check guards. */
export type ConfigFile = { [K in ConfigKey]?: Guarded<K> };

export function isConfigKey(k: string): k is ConfigKey {
  return Object.hasOwn(CONFIG_SCHEMA, k);
}

export function specOf(k: ConfigKey): KeySpec<unknown> {
  return CONFIG_SCHEMA[k] as KeySpec<unknown>;
}

/** The environment variable of each key that has one. */
export const ENV: Partial<Record<ConfigKey, string>> = Object.fromEntries(
  CONFIG_KEYS.flatMap((k) => (specOf(k).env ? [[k, specOf(k).env]] : [])),
);

/** A key's default, for a key whose default is a constant (asking for another's is a bug). */
export function defaultOf<K extends ConfigKey>(k: K): Guarded<K> {
  const value = specOf(k).default;
  if (value === undefined) throw new Error(`config key ${k} has no constant default`);
  return value as Guarded<K>;
}
