import { existsSync } from 'node:fs';
import { loadConfigFile } from '../support/config.js';
import { ExitCode, type ExitCodeValue, toZhiError, ZhiError } from '../support/errors.js';
import { resolveLanguage, setLanguage, t } from '../support/i18n/index.js';
import { closeInheritedFds } from '../support/inherited-fds.js';
import { installKind } from '../support/install.js';
import { log } from '../support/log.js';
import { appPaths, schedulesDir } from '../support/paths.js';
import { installSecrets, SecretRegistry } from '../support/redact.js';
import { nearest } from '../support/suggest.js';
import { type ParsedArgs, parseArgs, SUBCOMMANDS } from './args.js';
import { type AppContext, buildContext } from './context.js';
import { endSessions } from './hooks.js';
import { Interrupt } from './interrupt.js';
import { guardOutput } from './output-guard.js';
import { errorJson, formatError, formatWarning } from './render/error.js';
import { dataAsJson } from './render/formats/index.js';
import { colorEnabled, makeStyle } from './render/style.js';
import { attachDocument, readStdin } from './stdin.js';

type Handler = (ctx: AppContext) => Promise<ExitCodeValue>;

/** Subcommands, each loaded only when used. */
const commands: Record<string, () => Promise<{ run: Handler }>> = {
  config: () => import('./commands/config.js'),
  sessions: () => import('./commands/sessions.js'),
  usage: () => import('./commands/usage.js'),
  models: () => import('./commands/models.js'),
  run: () => import('./commands/run.js'),
  skill: () => import('./commands/skill.js'),
  doctor: () => import('./commands/doctor.js'),
  mcp: () => import('./commands/mcp.js'),
  batch: () => import('./commands/batch.js'),
  // The local server and its page: loaded only by these two commands.
  serve: () => import('./web/command.js'),
  web: () => import('./web/command.js'),
  schedule: () => import('./commands/schedule.js'),
  watch: () => import('./commands/watch.js'),
  completion: () => import('./commands/completion.js'),
  __complete: () => import('./commands/completion.js'),
};

export async function main(argv: string[]): Promise<void> {
  let code: ExitCodeValue;
  let parsed: ParsedArgs | undefined;
  // The one Ctrl+C of this process: every mode stops through it (see interrupt.ts).
  const interrupt = new Interrupt({ exit });
  interrupt.listen();
  // A descriptor the calling shell left open (`exec 5>file`) must reach no child zhi starts.
  closeInheritedFds();
  // The process's secret registry, first: a key typed on this command line is redacted in every
  // log line and error from the start (buildContext adds the configured key).
  installSecrets(new SecretRegistry()).addFromArgv(argv);
  // Output that is not a terminal gets no escape sequence from anywhere (see output-guard.ts).
  guardOutput(process.stdout);
  guardOutput(process.stderr);
  try {
    parsed = parseArgs(argv);
    code = await dispatch(parsed, interrupt);
  } catch (err) {
    if (!languageSettled) await settleLanguage(argv);
    code = report(err, parsed, argv);
  }
  const style = makeStyle(colorEnabled(process.stderr, parsed?.flags.noColor ?? argv.includes('--no-color')));
  await endSessions((line) => process.stderr.write(formatWarning(line, style)));
  exit(code);
}

/** Set once the language of this run is decided (by buildContext, or for --help/--version). */
let languageSettled = false;

/**
 * An error before the context was built (an unknown option, a config file that cannot be read)
 * is still said in the person's language: `--language`, then config.yaml's `language` if it can
 * be read, then the environment.
 */
async function settleLanguage(argv: string[]): Promise<void> {
  const at = argv.findIndex((a) => a === '--language' || a.startsWith('--language='));
  const flag = at < 0 ? undefined : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  const file = await loadConfigFile(appPaths(process.env).configFile).catch(() => undefined);
  const config = typeof file?.file.language === 'string' ? file.file.language : undefined;
  setLanguage(resolveLanguage({ flag, config }));
}

async function dispatch(args: ParsedArgs, interrupt: Interrupt): Promise<ExitCodeValue> {
  if (args.flags.version) {
    (await import('./version.js')).printVersion(args.flags.language);
    return ExitCode.ok;
  }
  if (args.flags.help) return printHelp(args);
  const ctx = await buildContext(args, interrupt);
  languageSettled = true;
  await startNotices(ctx, args);
  if (args.flags.setup) {
    const { runSetup } = await import('./setup.js');
    return runSetup(ctx);
  }
  if (args.subcommand) return runSubcommand(ctx, args.subcommand);
  if (args.flags.command !== undefined) return runCommandFlag(ctx, args.flags.command);
  if (args.positionals.length) throw unknownWord(args.positionals[0]!);
  if (!ctx.stdinIsTTY) {
    const piped = await readStdin();
    return chatOnce(ctx, piped, 'stdin');
  }
  // The Windows executable double-clicked in Explorer: the page, where a newcomer can set up and chat.
  if (process.argv.length <= 2 && process.platform === 'win32' && installKind() === 'exe') {
    const { startedFromExplorer } = await import('./web/double-click.js');
    if (startedFromExplorer()) {
      const web = await import('./web/command.js');
      return web.run({ ...ctx, args: { ...ctx.args, subcommand: 'web' } });
    }
  }
  if (!ctx.config.apiKey) {
    // A first run: the wizard, then straight into the chat.
    const { runSetup } = await import('./setup.js');
    return runSetup(ctx, { thenChat: true });
  }
  await offerOtherClientsSkills(ctx);
  const { runRepl } = await import('./repl/index.js');
  return runRepl(ctx);
}

async function printHelp(args: ParsedArgs): Promise<ExitCodeValue> {
  // `language: zh` in config.yaml counts here too (the rest of the config is not needed).
  const file = await loadConfigFile(appPaths(process.env).configFile).catch(() => undefined);
  setLanguage(resolveLanguage({ flag: args.flags.language, config: file?.file.language }));
  const { layoutHelp } = await import('./help.js');
  process.stdout.write(`${layoutHelp(t('cli.help', { version: __ZHI_VERSION__ }))}\n`);
  return ExitCode.ok;
}

/** What a start says before its work, at a terminal only: a newer zhi, a scheduled run gone wrong. */
async function startNotices(ctx: AppContext, args: ParsedArgs): Promise<void> {
  // A newer zhi found at an earlier start is said; the next look runs in the background.
  // Only at a terminal is it ever shown: scripts and pipes load none of its code.
  const completing = args.subcommand === '__complete' || args.subcommand === 'completion';
  if (!completing && ctx.config.updateCheck && ctx.stdinIsTTY && ctx.stderrIsTTY) {
    // The REPL's look waits for the first key: an idle prompt sends nothing and uses no CPU.
    const repl = !args.subcommand && args.flags.command === undefined && !args.positionals.length;
    const later = repl ? (await import('./first-key.js')).onFirstKey : undefined;
    (await import('./update-check.js')).checkForUpdate(ctx, later ? { later } : {});
  }
  // A scheduled run that went wrong (or was missed) is said at the next start, in a terminal.
  // Its code is loaded only where a job exists: every other start (the REPL's first) pays nothing.
  const scheduleRun = args.subcommand === 'schedule' && args.positionals[0] === 'run';
  if (ctx.stderrIsTTY && !scheduleRun && existsSync(schedulesDir(ctx.paths.dataDir)))
    await (await import('./schedule/tell.js')).tellScheduled(ctx);
}

async function runSubcommand(ctx: AppContext, name: string): Promise<ExitCodeValue> {
  const load = commands[name];
  if (!load) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.unknownCommand', params: { name } },
      tries: [{ key: 'cli.try.help' }],
    });
  }
  return (await load()).run(ctx);
}

/** `zhi -c "…"`: a custom command expanded, with a document piped beside it attached. */
async function runCommandFlag(ctx: AppContext, command: string): Promise<ExitCodeValue> {
  const { expandOneShot } = await import('./custom-commands.js');
  const expanded = await expandOneShot(ctx, command);
  let message = expanded.text;
  if (!ctx.stdinIsTTY) {
    const piped = await readStdin();
    if (piped.trim()) message = attachDocument(message, t('cli.stdinAttached'), piped);
  }
  return chatOnce(expanded.ctx, message, 'command', command);
}

/** `zhi summarise` (no such command): the nearest command, or how to quote a question. */
function unknownWord(word: string): ZhiError {
  const suggestion = nearest(word, [...SUBCOMMANDS]);
  return new ZhiError({
    kind: 'usage',
    what: { key: 'cli.err.unknownCommand', params: { name: word } },
    tries: suggestion
      ? [{ key: 'cli.try.didYouMean', params: { suggestion: `zhi ${suggestion}` } }, { key: 'cli.try.help' }]
      : [{ key: 'cli.try.help' }, { key: 'cli.try.quote' }],
  });
}

/**
 * Before the REPL: skills another client keeps (`~/.claude/skills`, `~/.codex/skills`) that zhi
 * does not have are said once per client. Only where such a folder exists is any of it loaded.
 */
async function offerOtherClientsSkills(ctx: AppContext): Promise<void> {
  const { homedir } = await import('node:os');
  if (!['.claude/skills', '.codex/skills'].some((f) => existsSync(`${homedir()}/${f}`))) return;
  try {
    const [{ loadCatalog }, { offerOtherSkills }] = await Promise.all([
      import('./skills/catalog.js'),
      import('./skills/import-other.js'),
    ]);
    await offerOtherSkills(ctx, await loadCatalog(ctx, () => {}));
  } catch (err) {
    log().debug("other clients' skills not offered", { error: String(err) });
  }
}

/** Where a one-shot message came from, so an empty one is explained in the person's terms. */
type MessageSource = 'command' | 'stdin';

async function chatOnce(
  ctx: AppContext,
  message: string,
  from: MessageSource,
  typed = message,
): Promise<ExitCodeValue> {
  if (!message.trim()) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.emptyMessage' },
      why: { key: from === 'stdin' ? 'cli.err.emptyStdinWhy' : 'cli.err.emptyMessageWhy' },
      tries:
        from === 'stdin'
          ? [{ key: 'cli.try.pipeText' }, { key: 'cli.try.quote' }]
          : [{ key: 'cli.try.quote' }],
    });
  }
  const { runOnce } = await import('./modes/once.js');
  return runOnce(ctx, message, typed);
}

function report(err: unknown, parsed: ParsedArgs | undefined, argv: string[]): ExitCodeValue {
  const zerr = toZhiError(err);
  log().error(zerr.message, err);
  const debug = parsed?.flags.debug ?? argv.includes('--debug');
  const json = parsed ? dataAsJson(parsed.flags.outputFormat) : false;
  if (json) process.stdout.write(`${JSON.stringify(errorJson(zerr), null, 2)}\n`);
  const style = makeStyle(colorEnabled(process.stderr, parsed?.flags.noColor ?? argv.includes('--no-color')));
  process.stderr.write(formatError(zerr, style, { debug }));
  return zerr.exitCode;
}

function exit(code: ExitCodeValue): void {
  process.exitCode = code;
  // Let stdout drain (a pipe may be slow), then leave even if a handle (stdin) is still open.
  process.stdout.write('', () => process.exit(code));
}
