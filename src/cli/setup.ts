import { ZhipuClient } from '../llm/client.js';
import { chatModelIds, findModel } from '../llm/models.js';
import { PLATFORM_IDS, PLATFORMS, type PlatformId } from '../llm/platforms.js';
import type { ApiErrorInfo } from '../llm/types.js';
import { type ConfigFile, loadConfigFile, saveConfigFile } from '../support/config.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../support/errors.js';
import { getLanguage, setLanguage, t } from '../support/i18n/index.js';
import { type AppContext, buildContext } from './context.js';

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
  const { select, input, password, confirm } = await import('@inquirer/prompts');
  const say = (s: string) => process.stderr.write(`${s}\n`);
  const existing = (await loadConfigFile(ctx.paths.configFile)).file;
  try {
    say(ctx.err.bold(t('setup.welcome', { version: __ZHI_VERSION__ })));
    say(t('setup.intro'));

    const language = await select({
      message: t('setup.language'),
      choices: [
        { name: 'English', value: 'en' as const },
        { name: '中文', value: 'zh' as const },
      ],
      // The language zhi already speaks (flag, config, LANG or the system locale), not `auto`.
      default: getLanguage(),
    });
    setLanguage(language);

    const platform = await select<PlatformId>({
      message: t('setup.platform'),
      choices: PLATFORM_IDS.map((id) => ({
        name: t(`setup.platform.${id}` as 'setup.platform.bigmodel'),
        value: id,
      })),
      default: existing.platform ?? 'bigmodel',
    });
    let baseUrl = PLATFORMS[platform].baseUrl;
    if (platform === 'custom') {
      baseUrl = await input({
        message: t('setup.baseUrl'),
        default: existing.base_url ?? ctx.config.baseUrl,
        validate: (v) => /^https?:\/\/\S+$/.test(v.trim()) || t('setup.baseUrlBad'),
      });
    }
    // Tests and gateways point ZHI_BASE_URL elsewhere; honour it for the key check.
    const checkUrl = ctx.env.ZHI_BASE_URL || baseUrl;

    let apiKey = '';
    for (;;) {
      say(t('setup.keyWhere', { url: PLATFORMS[platform].keyUrl }));
      apiKey = (
        await password({
          message: t('setup.key'),
          mask: '*',
          validate: (v) => v.trim().length > 0 || t('setup.keyEmpty'),
        })
      ).trim();
      say(t('setup.checking'));
      const problem = await checkKey(checkUrl, apiKey, PLATFORMS[platform].probeModel);
      if (!problem) {
        say(ctx.err.green(`✓ ${t('setup.keyOk')}`));
        break;
      }
      say(ctx.err.red(`✗ ${describeProblem(problem)}`));
      const next = await select({
        message: t('setup.retry'),
        choices: [
          { name: t('setup.retry.again'), value: 'again' },
          { name: t('setup.retry.save'), value: 'save' },
          { name: t('setup.retry.quit'), value: 'quit' },
        ],
      });
      if (next === 'save') break;
      if (next === 'quit') return ExitCode.config;
    }

    const models = chatModelIds();
    const modelValidate = (v: string) =>
      platform === 'custom' ||
      Boolean(findModel(v.trim())) ||
      t('setup.modelUnknown', { models: models.join(', ') });
    const defaultModel = await input({
      message: t('setup.chatModel'),
      default: existing.default_model ?? ctx.config.defaultModel,
      validate: modelValidate,
    });
    const skillModel = await input({
      message: t('setup.skillModel'),
      default: existing.skill_model ?? ctx.config.skillModel,
      validate: modelValidate,
    });
    const outputDir = await input({
      message: t('setup.outputDir'),
      default: existing.output_dir ?? ctx.config.outputDir,
    });

    const file: ConfigFile = {
      ...existing,
      api_key: apiKey,
      platform,
      default_model: defaultModel.trim().toLowerCase(),
      skill_model: skillModel.trim().toLowerCase(),
      output_dir: outputDir.trim(),
      language,
    };
    if (platform === 'custom') file.base_url = baseUrl.trim();
    else delete file.base_url;
    await saveConfigFile(ctx.paths.configFile, file);
    say(ctx.err.green(`✓ ${t('setup.saved', { path: ctx.paths.configFile })}`));

    const demo = await confirm({ message: t('setup.demo'), default: true });
    if (demo || opts.thenChat) {
      // The demo runs in the chat itself: its answer is rendered, and the chat stays open after it.
      say(t('input.setup.doneChat'));
      const chatCtx = await buildContext(
        { ...ctx.args, flags: { ...ctx.args.flags, setup: false } },
        ctx.interrupt,
        ctx.env,
      );
      const { runRepl } = await import('./repl/index.js');
      return runRepl(chatCtx, demo ? { first: t('setup.demoPrompt') } : {});
    }
    say(t('setup.done'));
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof Error && err.name === 'ExitPromptError') {
      say(t('setup.cancelled'));
      return ExitCode.interrupted;
    }
    throw err;
  }
}

async function checkKey(baseUrl: string, apiKey: string, model: string): Promise<ApiErrorInfo | undefined> {
  const client = new ZhipuClient({ baseUrl, apiKey, maxRetries: 0, idleTimeoutMs: 20_000 });
  const res = await client.complete({
    model,
    messages: [{ role: 'user', content: 'hi' }],
    thinking: false,
    maxTokens: 1,
  });
  return res.type === 'error' ? res.error : undefined;
}

function describeProblem(err: ApiErrorInfo): string {
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
