import type { RunEvent } from '../agent/events.js';
import type { PermissionMode } from '../agent/permissions.js';
import { MODEL_CATALOG } from '../llm/catalog.js';
import { PLATFORMS, type Platform, type PlatformId } from '../llm/platforms.js';
import { type ConfigWarning, loadConfigFile, type ResolvedConfig, resolveConfig } from '../support/config.js';
import { ZhiError } from '../support/errors.js';
import { getLanguage, resolveLanguage, setLanguage, t } from '../support/i18n/index.js';
import { createLogger, log, setLogger } from '../support/log.js';
import { mcpProblemText } from '../support/mcp-config.js';
import { type AppPaths, appPaths } from '../support/paths.js';
import { fixPrivateMode } from '../support/private-files.js';
import { processSecrets } from '../support/redact.js';
import { allowProblemText, toolRuleNotes } from './allow-text.js';
import type { ParsedArgs } from './args.js';
import { hookProblemText } from './hooks.js';
import type { Interrupt } from './interrupt.js';
import { formatWarning } from './render/error.js';
import { colorEnabled, makeStyle, type Style } from './render/style.js';
import { checkOutputDir, outputDirOf, permissionMode } from './settings.js';

/** Everything a mode needs, built once from the command line, the environment and config.yaml. */
export interface AppContext {
  args: ParsedArgs;
  paths: AppPaths;
  config: ResolvedConfig;
  platform: Platform;
  /** Colours for stderr (progress, errors) and stdout (the answer). */
  err: Style;
  out: Style;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  cwd: string;
  /** Where files are written (outputDirOf decides), and whether risky tools ask (permissionMode). */
  outputDir: string;
  mode: PermissionMode;
  env: NodeJS.ProcessEnv;
  /** Ctrl+C for the whole process (one per process, made in app.ts): every mode stops through it. */
  interrupt: Interrupt;
  /** A scheduled run (`zhi schedule run`): nobody is asked, nothing is read from stdin. */
  unattended?: boolean;
  /** Sees every event of a skill run as it passes (a scheduled run records what was refused). */
  watchRun?: (ev: RunEvent) => void;
}

export async function buildContext(
  args: ParsedArgs,
  interrupt: Interrupt,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AppContext> {
  const paths = appPaths(env);
  const err = makeStyle(colorEnabled(process.stderr, args.flags.noColor, env));
  const out = makeStyle(colorEnabled(process.stdout, args.flags.noColor, env));
  // Language first (from the flag and environment) so that config errors are already translated.
  setLanguage(resolveLanguage({ flag: args.flags.language }, env));
  const loaded = await loadConfigFile(paths.configFile);
  const config = resolveConfig(loaded, MODEL_CATALOG, env, { language: args.flags.language });
  setLanguage(resolveLanguage({ flag: args.flags.language, config: config.language }, env));
  // Before anything is logged: the key's exact value is redacted everywhere from now on.
  const secrets = processSecrets();
  for (const key of [config.apiKey, loaded.file.api_key, env.ZHI_API_KEY]) secrets.add(key);
  setLogger(
    createLogger({
      dir: paths.logDir,
      level: args.flags.debug ? 'debug' : config.logLevel,
      stderr: args.flags.debug,
    }),
  );
  log().debug('start', { argv: process.argv.slice(2), language: getLanguage(), platform: config.platform });
  reportWarnings(loaded.warnings, err);
  for (const note of await toolRuleNotes(config.allowRules, paths.configFile))
    process.stderr.write(formatWarning(note, err));
  if (loaded.exists) {
    // A config others can read (made by hand, copied, unpacked from a backup) is fixed, and said.
    const fix = await fixPrivateMode(paths.configFile).catch(() => ({ fileMode: undefined }));
    if (fix.fileMode !== undefined) {
      const mode = fix.fileMode.toString(8);
      process.stderr.write(
        formatWarning(t('config.warn.madePrivate', { path: paths.configFile, mode }), err),
      );
    }
  }
  const cwd = process.cwd();
  const outputDir = outputDirOf({ args, config, cwd });
  checkOutputDir({ args, outputDir });
  return {
    args,
    paths,
    config,
    platform:
      config.platform === 'custom'
        ? { ...PLATFORMS.custom, baseUrl: config.baseUrl }
        : PLATFORMS[config.platform as PlatformId],
    err,
    out,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    cwd,
    outputDir,
    mode: permissionMode(args),
    env,
    interrupt,
  };
}

function reportWarnings(warnings: ConfigWarning[], style: Style): void {
  for (const w of warnings) {
    if (w.kind === 'unknown_key')
      process.stderr.write(formatWarning(t('config.warn.unknownKey', { key: w.key, file: w.file }), style));
    else if (w.kind === 'mcp_server') {
      const { name } = w.problem;
      const text = t('mcp.warn.badEntry', { name, file: w.file, problem: mcpProblemText(w.problem) });
      const gap = getLanguage() === 'zh' ? '' : ' ';
      process.stderr.write(formatWarning(`${text}${gap}${t('mcp.warn.badEntryTry', { name })}`, style));
    } else if (w.kind === 'hook')
      process.stderr.write(formatWarning(hookProblemText(w.problem, w.file), style));
    else if (w.kind === 'allow')
      process.stderr.write(formatWarning(allowProblemText(w.problem, w.file, w.line), style));
    else {
      const parts = [
        w.line
          ? t('config.warn.corruptLine', { file: w.file, line: w.line })
          : t('config.warn.corruptFile', { file: w.file }),
        t('config.warn.corrupt', { backup: w.backup }),
        w.keyRecovered ? t('config.warn.corruptKept') : t('config.warn.corruptLost'),
        w.recovered.length
          ? t('config.warn.corruptRecovered', { keys: w.recovered.join(', ') })
          : t('config.warn.corruptNone'),
      ];
      process.stderr.write(formatWarning(parts.join(getLanguage() === 'zh' ? '' : ' '), style));
    }
  }
}

/** The API key, or a configuration error (exit 3) that says how to provide one. */
export function requireKey(ctx: AppContext): string {
  if (ctx.config.apiKey) return ctx.config.apiKey;
  throw new ZhiError({
    kind: 'config',
    what: { key: 'config.noKey.what' },
    why: ctx.stdinIsTTY ? undefined : { key: 'cli.notTty' },
    tries: [{ key: 'config.noKey.try1' }, { key: 'config.noKey.try2' }],
  });
}
