import { copyFile } from 'node:fs/promises';
import { MODEL_CATALOG } from '../../llm/catalog.js';
import { chatModelIds, findModel } from '../../llm/models.js';
import { maxOf } from '../../support/arrays.js';
import {
  CONFIG_KEYS,
  type ConfigFile,
  type ConfigKey,
  coerce,
  ENV,
  envRef,
  isConfigKey,
  loadConfigFile,
  maskKey,
  resolveConfig,
  saveConfigFile,
  validateValue,
} from '../../support/config.js';
import { defaultOf, specOf } from '../../support/config-schema.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { redact } from '../../support/redact.js';
import { nearest } from '../../support/suggest.js';
import { allowRulesLine } from '../allow-text.js';
import type { AppContext } from '../context.js';
import { formatWarning } from '../render/error.js';
import { runAllow } from './config-allow.js';

const out = (s: string) => process.stdout.write(`${s}\n`);

/** `zhi config show | path | get <key> | set <key> <value> | reset` */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [action, key, ...rest] = ctx.args.positionals;
  switch (action) {
    case undefined:
    case 'show':
      return show(ctx);
    case 'path':
      out(ctx.paths.configFile);
      return ExitCode.ok;
    case 'get':
      return get(ctx, key);
    case 'set':
      return set(ctx, key, rest.join(' '));
    case 'reset':
      return reset(ctx);
    case 'allow':
      return runAllow(ctx, ctx.args.positionals.slice(1));
    default:
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'cli.err.unknownCommand', params: { name: `config ${action}` } },
        why: { key: 'config.usage' },
      });
  }
}

function show(ctx: AppContext): ExitCodeValue {
  const c = ctx.config;
  // Every key, in CONFIG_KEYS' order: the type makes a forgotten one a build error.
  const values: Record<ConfigKey, string> = {
    api_key: maskKey(c.apiKey),
    platform: c.platform,
    // A proxy or gateway URL may carry a password: shown without it.
    base_url: redact(c.baseUrl),
    default_model: c.defaultModel,
    skill_model: c.skillModel,
    output_dir: c.outputDir,
    max_turns: String(c.maxTurns),
    language: c.language,
    log_level: c.logLevel,
    max_cost_per_run: c.maxCostPerRun === undefined ? '-' : String(c.maxCostPerRun),
    compact_threshold: String(c.compactThreshold),
    status_line: c.statusLine ? 'on' : 'off',
    thinking_effort: c.thinkingEffort ?? '-',
    shell_sandbox: c.shellSandbox,
    shell_env: c.shellEnv.join(', ') || '-',
    web_allow: c.webAllow.join(', ') || '-',
    web_search: c.webSearch,
    mcp_servers: Object.keys(c.mcpServers).join(', ') || '-',
    hooks: c.hooks.map((h) => `${h.event}: ${h.command}`).join('; ') || '-',
    allow: c.allowRules.length ? allowRulesLine(c.allowRules) : '-',
    update_check: String(c.updateCheck),
  };
  const rows = CONFIG_KEYS.map((k): [string, string] => [k, values[k]]);
  const width = maxOf(rows.map((r) => r[0].length));
  out(`# ${ctx.paths.configFile}`);
  // A value set in the environment wins over the file: say so, or a rejected key looks right.
  const from = (k: string) => {
    const name = ENV[k as ConfigKey];
    return name && ctx.env[name] ? `  ${t('config.show.source', { source: envRef(name) })}` : '';
  };
  for (const [k, v] of rows) out(`${k.padEnd(width)}  ${v}${from(k)}`);
  return ExitCode.ok;
}

async function get(ctx: AppContext, key: string | undefined): Promise<ExitCodeValue> {
  const k = checkKey(key);
  const file = (await loadConfigFile(ctx.paths.configFile)).file;
  const resolved = ctx.config as unknown as Record<string, unknown>;
  const camel = k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  const value = specOf(k).secret
    ? maskKey(ctx.config.apiKey)
    : (resolved[camel] ?? file[k as keyof ConfigFile] ?? '');
  out(typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? ''));
  return ExitCode.ok;
}

async function set(ctx: AppContext, key: string | undefined, raw: string): Promise<ExitCodeValue> {
  const k = checkKey(key);
  const spec = specOf(k);
  // A list of rules is changed a rule at a time.
  if (k === 'allow') throw new ZhiError({ kind: 'usage', what: { key: 'allow.usage' } });
  if (spec.setWith === 'config.yaml') {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'config.err.byHand', params: { key: k, file: ctx.paths.configFile } },
    });
  }
  if (spec.setWith) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'config.err.setWith', params: { key: k, command: spec.setWith } },
    });
  }
  if (!raw) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'config.usage' },
      why: { key: 'config.set.what', params: { key: k, description: t(spec.describe) } },
      tries: [{ key: 'cli.try.help' }],
    });
  }
  const loaded = await loadConfigFile(ctx.paths.configFile);
  // A value zhi refuses is a bad argument (exit 2, by its source), not a broken config file (exit 3).
  const value = validateValue(k, coerce(k, raw), 'zhi config set', MODEL_CATALOG);
  const next: ConfigFile = { ...loaded.file, [k]: value };
  checkResult(loaded, next);
  if (!(await saveConfigFile(ctx.paths.configFile, next)))
    process.stderr.write(formatWarning(t('doctor.win.noAcl', { file: ctx.paths.configFile }), ctx.err));
  out(t('config.set.done', { key: k, value: spec.secret ? maskKey(String(value)) : String(value) }));
  if ((k === 'default_model' || k === 'skill_model') && !findModel(String(value))) {
    const suggestion = nearest(String(value), chatModelIds());
    process.stderr.write(
      formatWarning(
        `${t('llm.warn.unknownModel', { model: String(value) })}${suggestion ? ` ${t('cli.try.didYouMean', { suggestion })}` : ''}`,
        ctx.err,
      ),
    );
  }
  return ExitCode.ok;
}

/**
 * Check the whole result (a model must exist on the chosen platform) before saving. Only a
 * failure the new value causes is the argument's fault; a file already broken stays exit 3.
 */
function checkResult(loaded: Awaited<ReturnType<typeof loadConfigFile>>, next: ConfigFile): void {
  const resolves = (file: ConfigFile) => resolveConfig({ ...loaded, file }, MODEL_CATALOG, {});
  try {
    resolves(next);
  } catch (err) {
    try {
      resolves(loaded.file);
    } catch {
      throw err;
    }
    typedArgument(() => {
      throw err;
    });
  }
}

/** Run `fn`; a configuration error it throws is about a value typed on the command line: a usage error. */
function typedArgument<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof ZhiError) || err.kind !== 'config') throw err;
    throw new ZhiError({ kind: 'usage', what: err.what, why: err.why, tries: err.tries, cause: err });
  }
}

async function reset(ctx: AppContext): Promise<ExitCodeValue> {
  const loaded = await loadConfigFile(ctx.paths.configFile);
  if (!loaded.exists) {
    out(t('config.reset.none'));
    return ExitCode.ok;
  }
  const backup = `${ctx.paths.configFile}.bak`;
  await copyFile(ctx.paths.configFile, backup);
  await saveConfigFile(ctx.paths.configFile, { platform: defaultOf('platform') });
  out(t('config.reset.done', { backup }));
  return ExitCode.ok;
}

function checkKey(key: string | undefined): ConfigKey {
  if (key && isConfigKey(key)) return key;
  const suggestion = key ? nearest(key, CONFIG_KEYS) : undefined;
  throw new ZhiError({
    kind: 'usage',
    what: key ? { key: 'config.err.unknownKey', params: { key } } : { key: 'config.usage' },
    why: { key: 'config.err.unknownKeyWhy', params: { keys: CONFIG_KEYS.join(', ') } },
    tries: suggestion ? [{ key: 'cli.try.didYouMean', params: { suggestion } }] : [],
  });
}
