/**
 * Checking a value of config.yaml against its key's row in the schema (support/config-schema.ts),
 * the text that names what was expected, and the model check against the catalogue handed in.
 */
import { type ConfigKey, specOf } from './config-schema.js';
import { type ErrorText, ZhiError } from './errors.js';
import { nearest } from './suggest.js';

export { CONFIG_KEYS, type ConfigKey, envNames, siteNames } from './config-schema.js';

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

/** The "it must be …" of an error: the words it can be, or the key's catalogue sentence. */
function expectedText(key: ConfigKey, catalog?: ModelCatalog): ErrorText {
  const spec = specOf(key);
  const words = key === 'platform' && catalog ? catalog.platformIds : spec.check.words;
  if (words) return { key: 'config.err.expected', params: { expected: words.join(' | ') } };
  return { key: spec.expected ?? 'config.expected.text' };
}

/** Parse a value given as text (from `zhi config set` or the environment); the check comes after. */
export function coerce(key: ConfigKey, raw: string): unknown {
  const read = specOf(key).fromText;
  return read ? read(raw) : raw;
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
  const ok = specOf(key).check(value);
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
