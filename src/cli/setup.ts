import { connectPlatform } from '../llm/connect.js';
import { chatModelIds, findModel } from '../llm/models.js';
import { PLATFORM_IDS, PLATFORMS, type Platform, type PlatformId } from '../llm/platforms.js';
import type { ApiErrorInfo } from '../llm/types.js';
import { type ConfigFile, loadConfigFile, saveConfigFile } from '../support/config.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../support/errors.js';
import { getLanguage, setLanguage, t } from '../support/i18n/index.js';
import { type Asker, terminalAsker } from './ask.js';
import { type AppContext, buildContext } from './context.js';
import { thisStartCommand } from './start-command.js';

type Say = (s: string) => void;

/** Ctrl+C at one of the wizard's questions: it stops, and nothing is saved. */
class Cancelled extends Error {}

/** The answer, or the wizard stops (the person cancelled the question). */
function answered<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Cancelled();
  return value;
}

/** What the wizard asked, before it is written to the config file. */
interface SetupAnswers {
  language: 'en' | 'zh';
  platform: PlatformId;
  baseUrl: string;
  apiKey: string;
  defaultModel: string;
  skillModel: string;
  outputDir: string;
}

/**
 * The setup wizard: platform, API key (hidden, checked at once with a cheap call), default
 * models, output folder, language, and an optional demo — asked in the chat, which then stays
 * open (on a first run the chat opens even without the demo). Never runs without a terminal.
 */
export async function runSetup(ctx: AppContext, opts: { thenChat?: boolean } = {}): Promise<ExitCodeValue> {
  if (!ctx.stdinIsTTY) {
    throw new ZhiError({
      kind: 'config',
      what: { key: 'setup.noTty.what' },
      tries: [{ key: 'config.noKey.try1' }, { key: 'setup.noTty.try' }],
    });
  }
  const prompts = terminalAsker();
  const say: Say = (s) => process.stderr.write(`${s}\n`);
  const existing = (await loadConfigFile(ctx.paths.configFile)).file;
  try {
    say(ctx.err.bold(t('setup.welcome', { version: __ZHI_VERSION__ })));
    say(t('setup.intro'));
    const answers = await askAll(ctx, prompts, say, existing);
    if (!answers) return ExitCode.config;
    if (!(await saveConfigFile(ctx.paths.configFile, configFrom(existing, answers))))
      say(ctx.err.yellow(`! ${t('doctor.win.noAcl', { file: ctx.paths.configFile })}`));
    say(ctx.err.green(`✓ ${t('setup.saved', { path: ctx.paths.configFile })}`));
    return await offerDemo(ctx, prompts, say, opts.thenChat === true);
  } catch (err) {
    if (err instanceof Cancelled) {
      say(t('setup.cancelled'));
      return ExitCode.interrupted;
    }
    throw err;
  }
}

/** Asks every question in order; undefined when the person quits at the key check. */
async function askAll(
  ctx: AppContext,
  prompts: Asker,
  say: Say,
  existing: ConfigFile,
): Promise<SetupAnswers | undefined> {
  const language = answered(
    await prompts.choose(
      t('setup.language'),
      [
        { label: 'English', value: 'en' as const },
        { label: '中文', value: 'zh' as const },
      ],
      // The language zhi already speaks (flag, config, LANG or the system locale), not `auto`.
      { default: getLanguage() },
    ),
  );
  setLanguage(language);
  const { platform, baseUrl } = await askPlatform(ctx, prompts, existing);
  const apiKey = await askKey(ctx, prompts, say, platform, baseUrl);
  if (apiKey === undefined) return undefined;
  const models = await askModels(ctx, prompts, existing, platform);
  const outputDir = answered(
    await prompts.text(t('setup.outputDir'), { default: existing.output_dir ?? ctx.config.outputDir }),
  );
  return { language, platform, baseUrl, apiKey, ...models, outputDir };
}

async function askPlatform(
  ctx: AppContext,
  prompts: Asker,
  existing: ConfigFile,
): Promise<{ platform: PlatformId; baseUrl: string }> {
  const platform = answered(
    await prompts.choose<PlatformId>(
      t('setup.platform'),
      PLATFORM_IDS.map((id) => ({
        label: t(`setup.platform.${id}` as 'setup.platform.bigmodel'),
        value: id,
      })),
      { default: (existing.platform as PlatformId | undefined) ?? 'bigmodel' },
    ),
  );
  if (platform !== 'custom') return { platform, baseUrl: PLATFORMS[platform].baseUrl };
  const baseUrl = answered(
    await prompts.text(t('setup.baseUrl'), {
      default: existing.base_url ?? ctx.config.baseUrl,
      validate: (v) => /^https?:\/\/\S+$/.test(v.trim()) || t('setup.baseUrlBad'),
    }),
  );
  return { platform, baseUrl };
}

/**
 * Asks for the key and checks it with a cheap call until it works or the person chooses to save
 * it anyway. Undefined when they quit.
 */
async function askKey(
  ctx: AppContext,
  prompts: Asker,
  say: Say,
  platform: PlatformId,
  baseUrl: string,
): Promise<string | undefined> {
  // Tests and gateways point ZHI_BASE_URL elsewhere; honour it for the key check.
  const checkUrl = ctx.env.ZHI_BASE_URL || baseUrl;
  for (;;) {
    const url = PLATFORMS[platform].keyUrl;
    say(url ? t('setup.keyWhere', { url }) : t('setup.keyWhereCustom'));
    const apiKey = answered(
      await prompts.text(t('setup.key'), {
        secret: true,
        validate: (v) => v.trim().length > 0 || t('setup.keyEmpty'),
      }),
    ).trim();
    say(t('setup.checking'));
    const problem = await checkKey(checkUrl, apiKey, PLATFORMS[platform]);
    if (!problem) {
      say(ctx.err.green(`✓ ${t('setup.keyOk')}`));
      return apiKey;
    }
    say(ctx.err.red(`✗ ${describeProblem(problem)}`));
    const next = answered(
      await prompts.choose(t('setup.retry'), [
        { label: t('setup.retry.again'), value: 'again' },
        { label: t('setup.retry.save'), value: 'save' },
        { label: t('setup.retry.quit'), value: 'quit' },
      ]),
    );
    if (next === 'save') return apiKey;
    if (next === 'quit') return undefined;
  }
}

async function askModels(
  ctx: AppContext,
  prompts: Asker,
  existing: ConfigFile,
  platform: PlatformId,
): Promise<{ defaultModel: string; skillModel: string }> {
  const models = chatModelIds();
  // A custom platform serves models zhi does not know; any id is taken there.
  const validate = (v: string) =>
    platform === 'custom' ||
    Boolean(findModel(v.trim())) ||
    t('setup.modelUnknown', { models: models.join(', ') });
  const defaultModel = answered(
    await prompts.text(t('setup.chatModel'), {
      default: existing.default_model ?? ctx.config.defaultModel,
      validate,
    }),
  );
  const skillModel = answered(
    await prompts.text(t('setup.skillModel'), {
      default: existing.skill_model ?? ctx.config.skillModel,
      validate,
    }),
  );
  return { defaultModel, skillModel };
}

/** The config file with the answers in it; settings the wizard does not ask about are kept. */
function configFrom(existing: ConfigFile, answers: SetupAnswers): ConfigFile {
  const file: ConfigFile = {
    ...existing,
    api_key: answers.apiKey,
    platform: answers.platform,
    default_model: answers.defaultModel.trim().toLowerCase(),
    skill_model: answers.skillModel.trim().toLowerCase(),
    output_dir: answers.outputDir.trim(),
    language: answers.language,
  };
  if (answers.platform === 'custom') file.base_url = answers.baseUrl.trim();
  else delete file.base_url;
  return file;
}

async function offerDemo(
  ctx: AppContext,
  prompts: Asker,
  say: Say,
  thenChat: boolean,
): Promise<ExitCodeValue> {
  const demo = await prompts.yesNo(`${t('setup.demo')} [Y/n] `, { defaultYes: true });
  if (!demo && !thenChat) {
    say(t('setup.done', { command: thisStartCommand(ctx.env, ctx.cwd) }));
    return ExitCode.ok;
  }
  // The demo runs in the chat itself: its answer is rendered, and the chat stays open after it.
  say(t('input.setup.doneChat', { command: thisStartCommand(ctx.env, ctx.cwd) }));
  const chatCtx = await buildContext(
    { ...ctx.args, flags: { ...ctx.args.flags, setup: false } },
    ctx.interrupt,
    ctx.env,
  );
  const { runRepl } = await import('./repl/index.js');
  return runRepl(chatCtx, demo ? { first: t('setup.demoPrompt') } : {});
}

/** The wizard's live key check (a one-token call); also the page's set-up (cli/web/api-settings.ts). */
export async function checkKey(
  baseUrl: string,
  apiKey: string,
  platform: Platform,
): Promise<ApiErrorInfo | undefined> {
  const { modelPrefix } = platform;
  const client = connectPlatform({ baseUrl, apiKey, maxRetries: 0, idleTimeoutMs: 20_000, modelPrefix });
  const res = await client.complete({
    model: platform.probeModel,
    messages: [{ role: 'user', content: 'hi' }],
    thinking: false,
    maxTokens: 1,
  });
  return res.type === 'error' ? res.error : undefined;
}

export function describeProblem(err: ApiErrorInfo): string {
  switch (err.kind) {
    case 'auth':
      return t('setup.badKey');
    case 'balance':
      return t('setup.noBalance');
    case 'network':
    case 'timeout':
      return t('setup.network', { detail: err.message });
    default:
      return t('setup.otherProblem', { detail: err.code ? `${err.message} (${err.code})` : err.message });
  }
}
