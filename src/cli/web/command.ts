/**
 * `zhi serve [--port N]` and `zhi web [--no-open] [--port N]`: the local server, its address
 * (carrying the secret) as the first line of stdout, and for `zhi web` the page opened in the
 * person's browser. Loaded only by these two commands (app.ts imports it lazily).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import type { AppContext } from '../context.js';
import { Approvals } from './approvals.js';
import { Conversations } from './conversations.js';
import { ROUTES } from './routes.js';
import { type RunningServer, startServer } from './server.js';
import { SkillRuns } from './skill-runs.js';
import type { WebState } from './state.js';
import { escapeHtml } from './static.js';
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

/** The options these two commands take; any other is a mistake said before anything starts. */
const OPTIONS = new Set(['port', 'host', 'no-open']);

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const { extra, subcommand } = ctx.args;
  const unknown = Object.keys(extra).find(
    (k) => !OPTIONS.has(k) || (k === 'no-open' && subcommand !== 'web'),
  );
  if (unknown !== undefined) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.unknownFlag', params: { flag: `--${unknown}` } },
      tries: [{ key: 'cli.try.help' }],
    });
  }
  checkHost(extra.host);
  const server = await startWeb(ctx, portOf(extra.port));
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`${t('web.started')}\n${t('web.stopHint')}\n`);
  if (subcommand === 'web' && extra['no-open'] === undefined) openPage(ctx, server, server.url);
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
 * `/web` in the REPL: the page opened on this conversation (`#/chat/<id>`, the page's route, once its
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
  const url = sessionId ? `${server.url}#/chat/${encodeURIComponent(sessionId)}` : server.url;
  openPage(ctx, server, url, say);
  return url;
}

/**
 * The browser is given a private file that sends it on to the address, not the address itself:
 * a browser's command line is readable by every user of the computer (`ps`), and the address
 * carries the secret. The file (mode 0600, in zhi's own data folder) is removed when the server stops.
 */
function openerFile(ctx: AppContext, url: string, port: number): string {
  const dir = join(ctx.paths.dataDir, 'web');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `open-${port}.html`);
  const target = escapeHtml(url);
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>zhi</title><a href="${target}">zhi</a>\n`,
    { mode: 0o600 },
  );
  return file;
}

/** The system's way to open an address (or the opener file) in the default browser. */
function openBrowser(
  target: string,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): void {
  const [cmd, args] =
    process.platform === 'win32'
      ? ['rundll32', ['url.dll,FileProtocolHandler', target]]
      : process.platform === 'darwin'
        ? ['open', [target]]
        : ['xdg-open', [target]];
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

/** Open the page through a private opener file; it is removed with the server. */
function openPage(ctx: AppContext, server: RunningServer, url: string, write?: (line: string) => void): void {
  let file: string;
  try {
    file = openerFile(ctx, url, server.port);
  } catch (err) {
    (write ?? ((l: string) => process.stderr.write(`${l}\n`)))(
      t('web.openFailed', { reason: (err as Error).message }),
    );
    return;
  }
  const close = server.close;
  server.close = async () => {
    rmSync(file, { force: true });
    await close();
  };
  process.once('exit', () => rmSync(file, { force: true }));
  openBrowser(file, write);
}
