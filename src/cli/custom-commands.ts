import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CommandTrust } from '../skills/command-trust.js';
import {
  type CommandProblem,
  type CustomCommand,
  commandDirs,
  expandCommand,
  type FoundCommands,
  findCommands,
  isProblem,
  parseCommand,
} from '../skills/commands.js';
import { ZhiError } from '../support/errors.js';
import { getLanguage, joinShown, type MessageKey, type Shown, t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import { nearest } from '../support/suggest.js';
import { terminalAsker } from './ask.js';
import type { AppContext } from './context.js';

/** The custom commands of this folder and of the person (read from disk each time: edits count). */
export function findCustom(ctx: AppContext): Promise<FoundCommands> {
  return findCommands(commandDirs(ctx.cwd, ctx.paths.configDir));
}

const gap = () => (getLanguage() === 'zh' ? '' : ' ');

export function problemText(p: CommandProblem): Shown {
  const problem = t(`commands.bad.${p.reason}` as MessageKey);
  return joinShown([t('commands.bad', { file: p.file, problem }), t('commands.badTry')], gap());
}

/** What asking the person takes: a question, and where to show the file first. */
export interface TrustAsk {
  /** Absent where nobody can answer (stdin is not a terminal). */
  ask?: (question: string) => Promise<boolean>;
  show(text: string): void;
}

/**
 * The command as it is on disk now (a file edited since the list was made is read again, so
 * trust is asked for what is sent), trusted by the person if it comes from the project.
 * Returns undefined when the person said no; throws when nobody can be asked.
 */
export async function trustedCommand(
  ctx: AppContext,
  listed: CustomCommand,
  io: TrustAsk,
): Promise<CustomCommand | undefined> {
  const text = await readFile(listed.file, 'utf8').catch(() => undefined);
  const cmd = text === undefined ? undefined : await parseCommand(text, { ...listed, name: listed.name });
  if (!cmd || isProblem(cmd)) {
    const reason = cmd ? cmd.reason : 'unreadable';
    throw new ZhiError({
      kind: 'config',
      what: { key: 'commands.bad', params: { file: listed.file, problem: t(`commands.bad.${reason}`) } },
      tries: [{ key: 'commands.badTry' }],
    });
  }
  if (cmd.source === 'user') return cmd;
  const store = await CommandTrust.open(join(ctx.paths.dataDir, 'trusted-commands.json'));
  if (store.isTrusted(cmd)) return cmd;
  if (!io.ask) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'commands.noTerminal', params: { name: cmd.name, file: cmd.file } },
      why: { key: 'commands.noTerminalWhy' },
      tries: [{ key: 'commands.tryTerminal', params: { name: cmd.name } }],
    });
  }
  io.show(trustSummary(ctx, cmd));
  if (!(await io.ask(t('commands.trustQuestion')))) return undefined;
  await store.trust(cmd);
  return cmd;
}

/** The file's words as the person sees them before trusting it (never run, only shown). */
function trustSummary(ctx: AppContext, cmd: CustomCommand): string {
  const st = ctx.err;
  const lines = visible(cmd.body, { keepNewlines: true, keepTabs: true }).split('\n');
  const shown = lines.slice(0, 20).map((l) => `  ${st.dim('│')} ${l}`);
  if (lines.length > 20) shown.push(`  ${st.dim(`│ … (+${lines.length - 20})`)}`);
  return [
    st.bold(t('commands.trustHeader', { name: cmd.name, file: cmd.file })),
    ...(cmd.model ? [`  ${t('commands.model', { model: visible(cmd.model) })}`] : []),
    ...shown,
  ].join('\n');
}

/** The prompt `/<name> args` sends. */
export function promptOf(cmd: CustomCommand, args: string): string {
  return expandCommand(cmd, args);
}

/** `/word rest` at the start of a `zhi -c` message, when the word could be a command name. */
export function slashWord(message: string): { name: string; args: string } | undefined {
  const m = /^\s*\/([A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/.exec(message);
  return m ? { name: m[1]!.toLowerCase(), args: (m[2] ?? '').trim() } : undefined;
}

/**
 * `zhi -c "/<name> words…"`: the message the command file makes, or undefined when the message
 * is not a command (no `/word` first, or `/word` is a path on disk). A name with no file is an
 * error that names both folders (or says the name is a chat command).
 */
export async function oneShotCommand(
  ctx: AppContext,
  message: string,
  io: TrustAsk,
): Promise<{ text: string; model?: string } | undefined> {
  const word = slashWord(message);
  if (!word || existsSync(resolve(ctx.cwd, message.trim().split(/\s/)[0]!))) return undefined;
  // `/mcp__<server>__<prompt>`: an MCP prompt, expanded once the chat's servers are up (modes/once.ts).
  if (word.name.startsWith('mcp__') && Object.keys(ctx.config.mcpServers).length) return undefined;
  const found = await findCustom(ctx);
  const listed = found.commands.get(word.name);
  if (!listed) throw await unknownCommand(ctx, word.name, found);
  const cmd = await trustedCommand(ctx, listed, io);
  if (!cmd)
    throw new ZhiError({ kind: 'usage', what: { key: 'commands.declined', params: { name: word.name } } });
  return { text: promptOf(cmd, word.args), ...(cmd.model ? { model: cmd.model } : {}) };
}

async function unknownCommand(ctx: AppContext, name: string, found: FoundCommands): Promise<ZhiError> {
  const { loadSlashCommands } = await import('./repl/commands/index.js');
  const builtins = await loadSlashCommands();
  if (builtins.some((c) => c.name === name || c.aliases?.includes(name))) {
    return new ZhiError({
      kind: 'usage',
      what: { key: 'commands.chatOnly', params: { name } },
      tries: [{ key: 'commands.tryChat', params: { name } }],
    });
  }
  const dirs = commandDirs(ctx.cwd, ctx.paths.configDir);
  const suggestion = nearest(name, new Set(found.commands.keys()));
  const bad = found.problems.find((p) => p.name.toLowerCase() === name);
  return new ZhiError({
    kind: 'usage',
    what: { key: 'commands.unknown', params: { name } },
    why: bad ? problemText(bad) : { key: 'commands.unknownWhy', params: { ...dirs, name } },
    tries: suggestion
      ? [{ key: 'commands.tryNearest', params: { suggestion } }]
      : [{ key: 'commands.tryCreate', params: { file: join(dirs.project, `${name}.md`) } }],
  });
}

/**
 * The `-c` text with a command file's prompt in place of `/<name> words…` (asked at a terminal,
 * refused without one when the file is the project's), and the context with the file's `model:`
 * unless --model was given.
 */
export async function expandOneShot(
  ctx: AppContext,
  typed: string,
): Promise<{ ctx: AppContext; text: string }> {
  const io: TrustAsk = {
    show: (text) => process.stderr.write(`${text}\n`),
    ...(ctx.stdinIsTTY ? { ask: (q: string) => terminalAsker(ctx.interrupt).yesNo(q) } : {}),
  };
  const custom = await oneShotCommand(ctx, typed, io);
  if (!custom) return { ctx, text: typed };
  if (!custom.model || ctx.args.flags.model) return { ctx, text: custom.text };
  const flags = { ...ctx.args.flags, model: custom.model };
  return { ctx: { ...ctx, args: { ...ctx.args, flags } }, text: custom.text };
}
