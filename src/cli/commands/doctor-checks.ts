/**
 * The checks of `zhi doctor`, each a small function of the context returning what it found (or
 * nothing, when it does not apply here). To add one, write a function and put it in `CHECKS`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describeApiError } from '../../llm/describe.js';
import { t } from '../../support/i18n/index.js';
import { installKind } from '../../support/install.js';
import { visible } from '../../support/sanitize.js';
import { findFfmpeg } from '../../tools/asr/ffmpeg.js';
import { findSoffice } from '../../tools/files/readers/soffice.js';
import { findInterpreter } from '../../tools/script/interpreters.js';
import { sandboxFacts, sandboxFor } from '../../tools/shell/sandbox.js';
import { makeClient } from '../client.js';
import type { AppContext } from '../context.js';
import type { Check } from './doctor-check.js';
import { nodeCheck } from './doctor-node.js';
import { audioCheck, officeCheck, sandboxCheck, scriptsCheck } from './doctor-sandbox.js';
import {
  aclCheck,
  asWindowsNote,
  codePageCheck,
  elevationCheck,
  jobCheck,
  shellCheck,
} from './doctor-windows.js';

export type { Check } from './doctor-check.js';

export type DoctorCheck = (ctx: AppContext) => Check | undefined | Promise<Check | undefined>;

/** The config file: where it is, and that it was read (a broken one was reported on loading). */
export function configCheck(ctx: AppContext): Check {
  const path = ctx.paths.configFile;
  if (!existsSync(path)) {
    return ctx.config.apiKey
      ? { ok: true, note: true, lines: [t('doctor.config.noneEnv', { path })] }
      : { ok: false, lines: [t('doctor.config.none', { path }), t('doctor.config.noneTry')] };
  }
  return {
    ok: true,
    lines: [t('doctor.config.ok', { path, platform: ctx.platform.id, language: ctx.config.language })],
  };
}

/**
 * The key and the way to the platform, tried for real: one tiny request (1 token of output) to
 * the platform's cheap model. A rejected key, an unreachable base URL and a network failure each
 * say so, in the words zhi's errors use.
 */
export async function keyCheck(ctx: AppContext): Promise<Check> {
  const source = ctx.config.sources.api_key;
  // Windows advice names `setx`, which keeps a variable for new windows.
  const windows = process.platform === 'win32';
  if (!ctx.config.apiKey)
    return {
      ok: false,
      lines: [t('doctor.key.missing'), t(windows ? 'doctor.win.noKeyTry' : 'doctor.key.missingTry')],
    };
  const baseUrl = ctx.config.baseUrl;
  const client = makeClient(ctx);
  const r = await client.complete({
    model: ctx.platform.skillModel,
    messages: [{ role: 'user', content: 'ping' }],
    thinking: false,
    maxTokens: 1,
    signal: AbortSignal.timeout(20_000),
  });
  if (r.type === 'done') return { ok: true, lines: [t('doctor.key.ok', { source, baseUrl })] };
  const err = describeApiError(r.error, ctx.platform);
  const head =
    r.error.kind === 'auth'
      ? t('doctor.key.rejected', { source })
      : r.error.kind === 'network' || r.error.kind === 'timeout'
        ? t('doctor.net.unreachable', { baseUrl })
        : t('doctor.key.failed', { baseUrl });
  const why = err.whyText();
  const proxy = windows && (r.error.kind === 'network' || r.error.kind === 'timeout');
  const tries = [...err.tryTexts(), ...(proxy ? [t('doctor.win.noNetworkTry')] : [])];
  return { ok: false, lines: [head, err.whatText(), ...(why ? [why] : []), ...tries] };
}

/** Each MCP server of the config, started and asked for its tools, then stopped again. */
export async function mcpCheck(ctx: AppContext): Promise<Check | undefined> {
  const servers = ctx.config.mcpServers;
  if (!Object.keys(servers).length) return undefined;
  const { McpManager } = await import('../../tools/mcp/manager.js');
  const manager = new McpManager(servers, ctx.cwd, undefined, {
    oauthFile: join(ctx.paths.configDir, 'mcp-oauth.json'),
  });
  try {
    await manager.start();
    const status = manager.status();
    const failed = status.filter((s) => s.state !== 'ready');
    const lines = status.map((s) =>
      s.state === 'ready'
        ? t('doctor.mcp.ready', { name: s.name, n: s.tools.length })
        : t('doctor.mcp.failed', { name: s.name, error: visible(s.error ?? s.state).slice(0, 200) }),
    );
    const head = failed.length ? t('doctor.mcp.someFailed', { n: failed.length }) : t('doctor.mcp.ok');
    return { ok: !failed.length, lines: [head, ...lines, ...(failed.length ? [t('doctor.mcp.try')] : [])] };
  } finally {
    await manager.close();
  }
}

/** Every check, in the order shown. */
export const CHECKS: DoctorCheck[] = [
  () => nodeCheck(installKind()),
  configCheck,
  keyCheck,
  mcpCheck,
  () => officeCheck(findSoffice()),
  () => audioCheck(findFfmpeg()),
  () => scriptsCheck({ python: findInterpreter('python'), node: findInterpreter('node') }),
  aclCheck,
  shellCheck,
  elevationCheck,
  codePageCheck,
  (ctx) => {
    const state = sandboxFor(ctx.config.shellSandbox);
    return asWindowsNote(sandboxCheck(state, state.kind === 'bwrap' ? sandboxFacts() : undefined));
  },
  jobCheck,
];
