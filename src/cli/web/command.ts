/**
 * `zhi serve [--port N]` and `zhi web [--no-open] [--port N]`: the local server, its address
 * (carrying the secret) as the first line of stdout, and for `zhi web` the page opened in the
 * person's browser. Loaded only by these two commands (app.ts imports it lazily).
 */
import { spawn } from 'node:child_process';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import type { AppContext } from '../context.js';
import { Approvals } from './approvals.js';
import { Conversations } from './conversations.js';
import { ROUTES } from './routes.js';
import { startServer } from './server.js';
import { SkillRuns } from './skill-runs.js';
import type { WebState } from './state.js';
import { Uploads } from './uploads.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The port asked for: 0 (any free one) unless --port says otherwise. */
export function portOf(value: string | true | undefined): number {
  if (value === undefined) return 0;
  const n = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 65535)) {
    throw new ZhiError({ kind: 'usage', what: { key: 'web.err.port', params: { value: String(value) } } });
  }
  return n;
}

/** Only loopback: another interface would hand the person's files and key to the network. */
export function checkHost(value: string | true | undefined): void {
  if (value === undefined || (typeof value === 'string' && LOOPBACK.has(value.toLowerCase()))) return;
  throw new ZhiError({
    kind: 'usage',
    what: { key: 'web.err.host', params: { host: String(value) } },
    why: { key: 'web.err.hostWhy' },
    tries: [{ key: 'web.err.hostTry' }],
  });
}

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const { extra, subcommand } = ctx.args;
  checkHost(extra.host);
  const port = portOf(extra.port);
  const approvals = new Approvals();
  const uploads = new Uploads();
  const state: WebState = {
    ctx,
    approvals,
    uploads,
    conversations: new Conversations(() => state.ctx, approvals, uploads),
    skillRuns: new SkillRuns(() => state.ctx, approvals),
  };
  const server = await startServer(state, ROUTES, port).catch((err: NodeJS.ErrnoException) => {
    throw new ZhiError({
      kind: 'io',
      what: { key: 'web.err.listen', params: { port, reason: err.code ?? err.message } },
      tries: [{ key: 'web.err.listenTry' }],
    });
  });
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`${t('web.started')}\n${t('web.stopHint')}\n`);
  if (subcommand === 'web' && extra['no-open'] === undefined) openBrowser(server.url);
  await ctx.interrupt.run(
    (signal) =>
      new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(), { once: true });
        process.once('SIGTERM', () => resolve());
      }),
  );
  await server.close();
  process.stderr.write(`${t('web.stopped')}\n`);
  return ExitCode.ok;
}

/** The system's way to open an address in the default browser. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'win32'
      ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : ['xdg-open', [url]];
  const say = (reason: string) => process.stderr.write(`${t('web.openFailed', { reason })}\n`);
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', (err) => say(err.message));
    child.once('spawn', () => process.stderr.write(`${t('web.opened')}\n`));
    child.unref();
  } catch (err) {
    say((err as Error).message);
  }
}
