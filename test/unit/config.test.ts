import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '../../src/llm/catalog.js';
import {
  type ConfigKey,
  loadConfigFile,
  maskKey,
  resolveConfig,
  saveConfigFile,
  validateValue,
} from '../../src/support/config.js';
import { ZhiError } from '../../src/support/errors.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const dirs: string[] = [];
afterEach(() => cleanup(...dirs.splice(0)));
function file(content?: string) {
  const d = tempDir();
  dirs.push(d);
  const p = join(d, 'config.yaml');
  if (content !== undefined) writeFileSync(p, content);
  return p;
}

describe('config', () => {
  it('uses defaults when there is no file', async () => {
    const loaded = await loadConfigFile(file());
    const c = resolveConfig(loaded, MODEL_CATALOG, {});
    expect(c).toMatchObject({
      platform: 'bigmodel',
      baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
      defaultModel: 'glm-5',
      skillModel: 'glm-4-flash',
      outputDir: 'zhi-output',
      maxTurns: 30,
      fileExists: false,
    });
  });

  it('saves atomically with mode 0600 and reads back', async () => {
    const p = file();
    await saveConfigFile(p, { api_key: 'abc.def12345', platform: 'zai', max_turns: 12 });
    expect(statSync(p).mode & 0o777).toBe(0o600);
    const c = resolveConfig(await loadConfigFile(p), MODEL_CATALOG, {});
    expect(c).toMatchObject({
      apiKey: 'abc.def12345',
      platform: 'zai',
      maxTurns: 12,
      baseUrl: 'https://api.z.ai/api/paas/v4',
    });
    expect((await readdir(join(p, '..'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('names a value of the wrong type in a clear error', async () => {
    const p = file('max_turns: lots\n');
    const err = await loadConfigFile(p).catch((e) => e);
    expect(err).toBeInstanceOf(ZhiError);
    expect(err.kind).toBe('config');
    expect(err.exitCode).toBe(3);
    expect(err.whatText()).toContain('max_turns');
    expect(err.whatText()).toContain('lots');
    expect(err.whyText()).toContain('whole number');
  });

  it('allows a model it does not know (newer than the registry), but refuses an id that cannot be one', async () => {
    const loaded = await loadConfigFile(file('default_model: glm-5.9-preview\n'));
    expect(resolveConfig(loaded, MODEL_CATALOG, {}).defaultModel).toBe('glm-5.9-preview');
    const bad = await loadConfigFile(file('default_model: "glm 5!"\n'));
    const err = (() => {
      try {
        resolveConfig(bad, MODEL_CATALOG, {});
      } catch (e) {
        return e as ZhiError;
      }
    })();
    expect(err?.whatText()).toContain('glm 5!');
  });

  it('defaults the skill model to a free model the platform serves', async () => {
    const zai = await loadConfigFile(file('platform: zai\n'));
    expect(resolveConfig(zai, MODEL_CATALOG, {}).skillModel).toBe('glm-4.7-flash');
    const bigmodel = await loadConfigFile(file('platform: bigmodel\n'));
    expect(resolveConfig(bigmodel, MODEL_CATALOG, {}).skillModel).toBe('glm-4-flash');
  });

  it('warns about unknown keys but keeps the rest', async () => {
    const loaded = await loadConfigFile(file('colour: blue\nmax_turns: 5\n'));
    expect(loaded.warnings).toEqual([
      { kind: 'unknown_key', key: 'colour', file: expect.stringMatching(/config\.yaml$/) },
    ]);
    expect(resolveConfig(loaded, MODEL_CATALOG, {}).maxTurns).toBe(5);
  });

  it('backs up a corrupt file, recovers the key, and starts fresh', async () => {
    const p = file('api_key: 0123456789abcdef0123456789abcdef.Secret9\nplatform: [oops\n  : : :\n');
    const loaded = await loadConfigFile(p);
    expect(loaded.warnings[0]).toMatchObject({ kind: 'corrupt', keyRecovered: true });
    const backup = (loaded.warnings[0] as { backup: string }).backup;
    expect(readFileSync(backup, 'utf8')).toContain('[oops');
    expect(resolveConfig(await loadConfigFile(p), MODEL_CATALOG, {}).apiKey).toBe(
      '0123456789abcdef0123456789abcdef.Secret9',
    );
    expect(statSync(p).mode & 0o777).toBe(0o600);
  });

  it('a corrupt file keeps every readable setting and names the broken line (issue 30 #12)', async () => {
    const p = file(
      'api_key: 0123456789abcdef0123456789abcdef.Secret9\nlanguage: zh\nplatform: zai\ndefault_model: glm-4.6\nmax_turns: many\nmcp_servers:\n  files: [oops\n',
    );
    const loaded = await loadConfigFile(p);
    expect(loaded.warnings[0]).toMatchObject({
      kind: 'corrupt',
      keyRecovered: true,
      recovered: ['language', 'platform', 'default_model'],
    });
    expect((loaded.warnings[0] as { line?: number }).line).toBeGreaterThanOrEqual(7);
    const again = resolveConfig(await loadConfigFile(p), MODEL_CATALOG, {});
    expect(again).toMatchObject({ language: 'zh', platform: 'zai', defaultModel: 'glm-4.6' });
  });

  it('environment beats the file; flags beat both', async () => {
    const loaded = await loadConfigFile(file('default_model: glm-4.6\noutput_dir: out-file\n'));
    const env = { ZHI_DEFAULT_MODEL: 'glm-4.7', ZHI_OUTPUT_DIR: 'out-env', ZHI_API_KEY: 'k.k' };
    expect(resolveConfig(loaded, MODEL_CATALOG, env)).toMatchObject({
      defaultModel: 'glm-4.7',
      outputDir: 'out-env',
      apiKey: 'k.k',
    });
    // --model and --output-dir are settings of the invocation (chatModel, outputFolder), never
    // folded into the config; only the language flag is.
    expect(resolveConfig(loaded, MODEL_CATALOG, env, { language: 'zh' })).toMatchObject({
      defaultModel: 'glm-4.7',
      outputDir: 'out-env',
      language: 'zh',
    });
  });

  it('masks the key', () => {
    expect(maskKey('0123456789abcdef0123456789abcdef.Secret9')).toBe('0123…t9');
    // Short keys: at most the last 2 (issue 11: 8 of a 10-character key was shown).
    expect(maskKey('abcdefghij')).toBe('…ij');
    expect(maskKey('abcdefghijkl')).toBe('…kl');
    expect(maskKey('abc')).toBe('****');
    expect(maskKey(undefined)).toBe('(not set)');
  });

  it('checks every key: good values pass, bad ones are named', () => {
    const good: [ConfigKey, unknown][] = [
      ['api_key', 'abc.def'],
      ['platform', 'zai'],
      ['base_url', 'https://open.bigmodel.cn/api/paas/v4'],
      ['base_url', 'http://127.0.0.1:8080/v4'],
      ['default_model', 'glm-5'],
      ['output_dir', '结果'],
      ['max_turns', 1],
      ['max_turns', 200],
      ['language', 'zh'],
      ['log_level', 'debug'],
      ['max_cost_per_run', 0],
      ['max_cost_per_run', 2.5],
      ['compact_threshold', 0.3],
      ['compact_threshold', 0.98],
    ];
    for (const [key, value] of good)
      expect(validateValue(key, value, 'test', MODEL_CATALOG), key).toBe(value);
    const bad: [ConfigKey, unknown][] = [
      ['api_key', 42],
      ['platform', 'openai'],
      ['platform', ''],
      ['base_url', 'ftp://example.com'],
      ['base_url', 'not a url'],
      ['default_model', '  '],
      ['output_dir', ''],
      ['max_turns', 0],
      ['max_turns', 201],
      ['max_turns', 2.5],
      ['max_turns', '5'],
      ['language', 'fr'],
      ['log_level', 'verbose'],
      ['max_cost_per_run', -1],
      ['compact_threshold', 0.99],
      ['compact_threshold', Number.NaN],
    ];
    for (const [key, value] of bad) {
      expect(() => validateValue(key, value, 'test', MODEL_CATALOG), `${key}=${String(value)}`).toThrow(
        ZhiError,
      );
    }
  });
});

describe('the config schema', () => {
  it("every constant default passes its own key's check, and every allowed word is accepted as typed", async () => {
    const { CONFIG_KEYS, specOf } = await import('../../src/support/config-schema.js');
    const { coerce } = await import('../../src/support/config-values.js');
    for (const key of CONFIG_KEYS) {
      const spec = specOf(key);
      if (spec.default !== undefined) expect(spec.check(spec.default), key).toBe(true);
      for (const word of spec.check.words ?? []) {
        expect(() => validateValue(key, coerce(key, word), 'zhi config set'), `${key} ${word}`).not.toThrow();
      }
    }
  });

  it('a value outside the words is refused with the words, and the platform with the catalogue’s ids', () => {
    const refused = (key: ConfigKey, value: string) => {
      try {
        validateValue(key, value, 'zhi config set', MODEL_CATALOG);
      } catch (err) {
        return (err as ZhiError).whyText();
      }
      return 'accepted';
    };
    expect(refused('thinking_effort', 'huge')).toContain('low | medium | high | max');
    expect(refused('platform', 'nowhere')).toContain('openrouter');
  });
});
