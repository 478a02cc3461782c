/** `GET /api/status` and `GET /api/strings`: what the page shows before anything else. */
import { chatModelIds, findModel } from '../../llm/models.js';
import { areaStrings, getLanguage } from '../../support/i18n/index.js';
import { sandboxFor } from '../../tools/shell/sandbox.js';
import { sandboxSummary } from '../../tools/shell/shell.js';
import { startModel } from '../chat.js';
import type { Router } from './router.js';
import type { WebState } from './state.js';

export function statusRoutes(router: Router, state: WebState): void {
  router.add('GET', '/api/status', () => [200, status(state)]);
  router.add('GET', '/api/strings', () => [200, { language: getLanguage(), strings: areaStrings('page') }]);
}

function status(state: WebState) {
  const { ctx } = state;
  const sandbox = sandboxFor(ctx.config.shellSandbox);
  const summary = sandboxSummary(sandbox, ctx).summary;
  return {
    version: __ZHI_VERSION__,
    language: getLanguage(),
    configured: Boolean(ctx.config.apiKey),
    platform: ctx.config.platform,
    model: startModel(ctx),
    skillModel: ctx.config.skillModel,
    models: chatModelIds().map((id) => {
      const info = findModel(id);
      return {
        id,
        label: id,
        thinks: Boolean(info?.thinking),
        vision: info?.kind === 'vision',
        tools: Boolean(info?.tools),
      };
    }),
    cwd: ctx.cwd,
    outputDir: ctx.outputDir,
    sandbox: { available: sandbox.kind !== 'none', note: summary?.text ?? '' },
  };
}
