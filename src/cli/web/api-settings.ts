/**
 * The page's set-up and settings. `POST /api/setup` is the wizard's (cli/setup.ts): the key
 * checked live with the same one-token call, then written to config.yaml as the wizard writes it,
 * never echoed. `PUT /api/settings` changes the language, the chat model and the connected folder
 * (new conversations work there, with every containment rule of a start in that folder).
 */
import { realpathSync, statSync } from 'node:fs';
import { findModel } from '../../llm/models.js';
import { PLATFORM_IDS, PLATFORMS, type PlatformId } from '../../llm/platforms.js';
import { type ConfigFile, loadConfigFile, saveConfigFile } from '../../support/config.js';
import { CONFIG_SCHEMA } from '../../support/config-schema.js';
import { setLanguage, t } from '../../support/i18n/index.js';
import { processSecrets } from '../../support/redact.js';
import { buildContext } from '../context.js';
import { outputDirOf } from '../settings.js';
import { checkKey, describeProblem } from '../setup.js';
import { httpError, readJson, str } from './http.js';
import type { Router } from './router.js';
import type { WebState } from './state.js';

/** The languages the config takes (its schema's check). */
const isLanguage = CONFIG_SCHEMA.language.check;

function bad(name: string, value: string) {
  return httpError(400, { what: { key: 'web.err.badSetting', params: { name, value } } });
}

function checkModel(value: string | undefined, platform: string, name: string): string | undefined {
  if (value === undefined) return undefined;
  const model = value.trim().toLowerCase();
  if (platform !== 'custom' && !findModel(model)) throw bad(name, value);
  return model;
}

/** The context again from config.yaml, in the connected folder (process.cwd() is the start's). */
async function reload(state: WebState): Promise<void> {
  const { cwd } = state.ctx;
  const fresh = await buildContext(state.ctx.args, state.ctx.interrupt, state.ctx.env);
  state.ctx = { ...fresh, cwd, outputDir: outputDirOf({ args: fresh.args, config: fresh.config, cwd }) };
}

async function setup(state: WebState, body: Record<string, unknown>): Promise<void> {
  const { ctx } = state;
  const existing = (await loadConfigFile(ctx.paths.configFile)).file;
  const platform = (str(body, 'platform') ?? existing.platform ?? ctx.config.platform) as PlatformId;
  if (!PLATFORM_IDS.includes(platform) || platform === 'custom') throw bad('platform', platform);
  const file: ConfigFile = { ...existing, platform };
  const apiKey = str(body, 'apiKey')?.trim();
  if (apiKey) {
    processSecrets().add(apiKey);
    // Tests and gateways point ZHI_BASE_URL elsewhere; the wizard honours it for the check too.
    const problem = await checkKey(
      ctx.env.ZHI_BASE_URL || PLATFORMS[platform].baseUrl,
      apiKey,
      PLATFORMS[platform],
    );
    if (problem && body.save !== true) {
      throw httpError(400, {
        kind: problem.kind === 'auth' ? 'auth' : 'usage',
        what: { key: 'web.err.keyCheck', params: { problem: describeProblem(problem) } },
        tries: [{ key: 'web.err.keyCheckTry' }],
      });
    }
    file.api_key = apiKey;
  }
  const language = str(body, 'language');
  if (language !== undefined) {
    if (!isLanguage(language)) throw bad('language', language);
    file.language = language;
  }
  const model = checkModel(str(body, 'model'), platform, 'model');
  if (model) file.default_model = model;
  const skillModel = checkModel(str(body, 'skillModel'), platform, 'skillModel');
  if (skillModel) file.skill_model = skillModel;
  delete file.base_url;
  await saveConfigFile(ctx.paths.configFile, file);
  await reload(state);
}

async function settings(state: WebState, body: Record<string, unknown>): Promise<void> {
  const { ctx } = state;
  const language = str(body, 'language');
  const model = checkModel(str(body, 'model'), ctx.config.platform, 'model');
  const cwd = str(body, 'cwd');
  if (language !== undefined && !isLanguage(language)) throw bad('language', language);
  let folder: string | undefined;
  if (cwd !== undefined) {
    try {
      folder = realpathSync(cwd);
      if (!statSync(folder).isDirectory()) folder = undefined;
    } catch {
      folder = undefined;
    }
    if (!folder) {
      throw httpError(400, {
        what: { key: 'web.err.folder', params: { path: cwd, reason: t('web.err.folderMissing') } },
        tries: [{ key: 'web.err.folderTry' }],
      });
    }
  }
  if (language !== undefined || model) {
    const existing = (await loadConfigFile(ctx.paths.configFile)).file;
    const file: ConfigFile = { ...existing };
    if (language !== undefined) file.language = language;
    if (model) file.default_model = model;
    await saveConfigFile(ctx.paths.configFile, file);
    await reload(state);
    if (language === 'en' || language === 'zh') setLanguage(language);
  }
  if (folder) {
    const c = state.ctx;
    state.ctx = {
      ...c,
      cwd: folder,
      outputDir: outputDirOf({ args: c.args, config: c.config, cwd: folder }),
    };
  }
}

export function settingsRoutes(router: Router, state: WebState): void {
  router.add('POST', '/api/setup', async ({ req }) => {
    await setup(state, await readJson(req));
    return [200, { ok: true }];
  });
  router.add('PUT', '/api/settings', async ({ req }) => {
    await settings(state, await readJson(req));
    return [200, { ok: true, cwd: state.ctx.cwd, outputDir: state.ctx.outputDir }];
  });
}
