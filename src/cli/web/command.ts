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
import { type RunningServer, startServer } from './server.js';
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

/** The server with everything its routes share, started on 127.0.0.1. */
async function startWeb(ctx: AppContext, port: number): Promise<RunningServer> {
  const approvals = new Approvals();
  const uploads = new Uploads();
  const state: WebState = {
    ctx,
    approvals,
    uploads,
    conversations: new Conversations(() => state.ctx, approvals, uploads),
    skillRuns: new SkillRuns(() => state.ctx, approvals),
  };
  return startServer(state, ROUTES, port).catch((err: NodeJS.ErrnoException) => {
    throw new ZhiError({
      kind: 'io',
      what: { key: 'web.err.listen', params: { port, reason: err.code ?? err.message } },
      tries: [{ key: 'web.err.listenTry' }],
    });
  });
}

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const { extra, subcommand } = ctx.args;
  checkHost(extra.host);
  const server = await startWeb(ctx, portOf(extra.port));
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

/** The REPL's server (`/web`): started once, in the REPL's process, until it ends. */
let inRepl: Promise<RunningServer> | undefined;

/**
 * `/web` in the REPL: the page opened on this conversation (`#conversation=<id>`, once its
 * session file exists), served by this process. Returns the address, for the REPL to show.
 */
export async function openFromRepl(
  ctx: AppContext,
  sessionId: string | undefined,
  say: (line: string) => void,
): Promise<string> {
  inRepl ??= startWeb(ctx, 0);
  const server = await inRepl.catch((err: unknown) => {
    inRepl = undefined;
    throw err;
  });
  const url = sessionId ? `${server.url}#conversation=${encodeURIComponent(sessionId)}` : server.url;
  openBrowser(url, say);
  return url;
}

/** The system's way to open an address in the default browser. */
function openBrowser(
  url: string,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): void {
  const [cmd, args] =
    process.platform === 'win32'
      ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : ['xdg-open', [url]];
  const say = (reason: string) => write(t('web.openFailed', { reason }));
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', (err) => say(err.message));
    child.once('spawn', () => write(t('web.opened')));
    child.unref();
  } catch (err) {
    say((err as Error).message);
  }
}
