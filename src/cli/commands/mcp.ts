/**
 * `zhi mcp list | test <name> | add <name> … | remove <name> | import [file]`: the MCP servers of
 * config.yaml (`import` reads Claude Code's `.mcp.json`).
 * `list` and `test` start the servers to show their state and tools, then stop them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadConfigFile, saveConfigFile } from '../../support/config.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { mcpProblemText, mcpServerProblem } from '../../support/mcp-config.js';
import { visible } from '../../support/sanitize.js';
import type { AppContext } from '../context.js';
import { statusLines } from '../mcp/render.js';

export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [action, name, ...rest] = ctx.args.positionals;
  switch (action) {
    case undefined:
    case 'list':
      return show(ctx, undefined);
    case 'test':
      return show(ctx, [known('test', name, ctx.config.mcpServers)]);
    case 'add':
      return add(ctx, name, rest);
    case 'remove':
      return remove(ctx, name);
    case 'import':
      return importFile(ctx, name);
    case 'login':
      return login(ctx, known('login', name, ctx.config.mcpServers));
    default:
      throw usage({ key: 'mcp.err.usage', params: { what: action } });
  }
}

function usage(what: ConstructorParameters<typeof ZhiError>[0]['what']): ZhiError {
  return new ZhiError({ kind: 'usage', what, why: { key: 'mcp.usage' } });
}

/** A server name given on the command line (after `action`) that is one of `names`. */
function known(action: string, name: string | undefined, names: object): string {
  if (!name) throw usage({ key: 'mcp.err.needName', params: { action } });
  if (!(name in names)) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'mcp.err.unknown', params: { name } },
      tries: [{ key: 'mcp.try.list' }],
    });
  }
  return name;
}

/** Start the servers (all, or the named ones), print their state and tools, stop them. */
async function show(ctx: AppContext, names: string[] | undefined): Promise<ExitCodeValue> {
  const servers = ctx.config.mcpServers;
  if (!Object.keys(servers).length) {
    process.stdout.write(`${t('mcp.none')}\n`);
    return ExitCode.ok;
  }
  const { McpManager } = await import('../../tools/mcp/manager.js');
  const picked = Object.fromEntries(Object.entries(servers).filter(([n]) => !names || names.includes(n)));
  const manager = new McpManager(picked, ctx.cwd, undefined, { oauthFile: oauthFile(ctx) });
  try {
    await manager.start();
    const status = manager.status();
    process.stdout.write(`${statusLines(status, ctx.out).join('\n')}\n`);
    return status.some((s) => s.state === 'failed') && names ? ExitCode.failure : ExitCode.ok;
  } finally {
    await manager.close();
  }
}

/** `add <name> [--trust t] -- <command> [args…]` or `add <name> --url <url> [--trust t]`. */
async function add(ctx: AppContext, name: string | undefined, words: string[]): Promise<ExitCodeValue> {
  if (!name) throw usage({ key: 'mcp.err.needAdd' });
  if (name in ctx.config.mcpServers) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'mcp.err.exists', params: { name } },
      tries: [{ key: 'mcp.try.remove', params: { name } }],
    });
  }
  const extra = ctx.args.extra;
  const entry: Record<string, unknown> = {};
  if (typeof extra.url === 'string') entry.url = extra.url;
  else if (words.length) {
    entry.command = words[0];
    if (words.length > 1) entry.args = words.slice(1);
  }
  if (typeof extra.trust === 'string') entry.trust = extra.trust;
  const env = pairs(extra.env, '=');
  if (env) entry.env = env;
  const headers = pairs(extra.header, ':');
  if (headers) entry.headers = headers;
  const problem = mcpServerProblem(name, entry);
  if (problem) throw usage({ key: 'mcp.err.bad', params: { problem: mcpProblemText(problem) } });
  const loaded = await loadConfigFile(ctx.paths.configFile);
  const file = { ...loaded.file, mcp_servers: { ...(loaded.file.mcp_servers ?? {}), [name]: entry } };
  await saveConfigFile(ctx.paths.configFile, file);
  process.stderr.write(`${t('mcp.added', { name, file: ctx.paths.configFile })}\n`);
  return ExitCode.ok;
}

/**
 * `--env A=B --env C=D` (or `--header "Authorization: Bearer x"`): one pair a line, split at the
 * first separator. A value without one is refused rather than dropped.
 */
function pairs(raw: string | true | undefined, sep: '=' | ':'): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  const flag = sep === '=' ? '--env' : '--header';
  const out: Record<string, string> = {};
  for (const line of raw === true ? [''] : raw.split('\n')) {
    const at = line.indexOf(sep);
    const key = at > 0 ? line.slice(0, at).trim() : '';
    if (!key)
      throw usage({
        key: 'mcp.err.pair',
        params: { flag, value: line, example: sep === '=' ? 'NAME=value' : '"Name: value"' },
      });
    out[key] = line.slice(at + 1).trim();
  }
  return out;
}

/** Also removes an entry zhi left out as unusable (that is how a person gets rid of it). */
async function remove(ctx: AppContext, name: string | undefined): Promise<ExitCodeValue> {
  const loaded = await loadConfigFile(ctx.paths.configFile);
  const servers = { ...(loaded.file.mcp_servers ?? {}) };
  const gone = known('remove', name, servers);
  delete servers[gone];
  const file = { ...loaded.file };
  if (Object.keys(servers).length) file.mcp_servers = servers;
  else delete file.mcp_servers;
  await saveConfigFile(ctx.paths.configFile, file);
  process.stderr.write(`${t('mcp.removed', { name: gone, file: ctx.paths.configFile })}\n`);
  return ExitCode.ok;
}

/**
 * `import [file]`: the servers of a `.mcp.json` (this folder's by default) added to config.yaml,
 * with `trust: ask` as `add` does; a name already there, or an entry zhi cannot use, is said and
 * left out.
 */
async function importFile(ctx: AppContext, given: string | undefined): Promise<ExitCodeValue> {
  const { readFile } = await import('node:fs/promises');
  const { resolve } = await import('node:path');
  const { importMcpJson } = await import('../../support/mcp-import.js');
  const file = resolve(ctx.cwd, given ?? '.mcp.json');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const found = text === undefined ? undefined : importMcpJson(text);
  if (!found) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: text === undefined ? 'mcp.import.missing' : 'mcp.import.notMcpJson', params: { file } },
      tries: [{ key: 'mcp.import.try' }],
    });
  }
  const loaded = await loadConfigFile(ctx.paths.configFile);
  const current = { ...(loaded.file.mcp_servers ?? {}) };
  const added: string[] = [];
  for (const [name, entry] of Object.entries(found.servers)) {
    if (name in current) process.stderr.write(`${t('mcp.import.exists', { name })}\n`);
    else {
      current[name] = entry;
      added.push(name);
    }
  }
  for (const p of found.problems)
    process.stderr.write(`${t('mcp.import.skipped', { problem: mcpProblemText(p) })}\n`);
  if (added.length) await saveConfigFile(ctx.paths.configFile, { ...loaded.file, mcp_servers: current });
  const names = added.join(', ') || '-';
  process.stderr.write(
    `${t('mcp.import.done', { count: added.length, names, from: file, file: ctx.paths.configFile })}\n`,
  );
  return added.length || !Object.keys(found.servers).length ? ExitCode.ok : ExitCode.failure;
}

/** Where OAuth sign-ins to MCP servers are kept (mode 0600). */
export const oauthFile = (ctx: AppContext): string => join(ctx.paths.configDir, 'mcp-oauth.json');

/** `login <name>`: sign in to a remote server in the browser (OAuth, authorization code with PKCE). */
async function login(ctx: AppContext, name: string): Promise<ExitCodeValue> {
  const config = ctx.config.mcpServers[name]!;
  if (!config.url)
    throw new ZhiError({ kind: 'usage', what: { key: 'mcp.login.notRemote', params: { name } } });
  const { signIn } = await import('../../tools/mcp/oauth.js');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const signed = await signIn({
      name,
      config,
      file: oauthFile(ctx),
      timeoutMs: LOGIN_WAIT_MS,
      open: (url) => {
        say(t('mcp.login.open', { url }));
        openInBrowser(url);
      },
    });
    say(t(signed ? 'mcp.login.done' : 'mcp.login.notNeeded', { name, file: oauthFile(ctx) }));
    return ExitCode.ok;
  } catch (err) {
    const { mcpCause } = await import('../../tools/mcp/errors.js');
    throw new ZhiError({
      kind: 'usage',
      what: {
        key: 'mcp.login.failed',
        params: { name, error: visible(mcpCause(err, config, LOGIN_WAIT_MS / 1000)) },
      },
    });
  }
}

/** Five minutes to sign in in the browser. */
const LOGIN_WAIT_MS = 5 * 60 * 1000;

/** The system's browser (a failure is fine: the address was printed). */
function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'win32'
      ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', () => undefined);
    child.unref();
  } catch {
    // The address is on the screen: the person opens it.
  }
}
