/**
 * The idle warm-up's made-up messages, typed the way the person's first one will be: into a REPL
 * of its own (its line editor, its send path, the renderer), each to a twin of the chat (its own
 * session wiring) through the agent loop. Their session files, index, usage ledger and history
 * are written in a temporary folder that is removed at once (or when the process exits first);
 * everything is drawn into a sink. So the first real message runs code that ran already — and
 * opens, writes and titles its session file through code that ran — instead of paying for that
 * on the first Enter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { ChatSession } from '../../agent/chat.js';
import type { Prompter } from '../../agent/loop.js';
import { newWebGrants } from '../../agent/permissions.js';
import { SessionWiring } from '../../agent/sessions/wiring.js';
import type { LlmClient } from '../../llm/types.js';
import { UsageTracker } from '../../llm/usage.js';
import { leftByGoneProcess } from '../../support/process-alive.js';
import type { AppContext } from '../context.js';
import { Interrupt } from '../interrupt.js';
import { History } from './history.js';
import { Repl } from './repl.js';

/** Nobody answers: the made-up message names no file and its answer calls no tool. */
const NO_QUESTIONS: Prompter = {
  interactive: false,
  confirmTool: async () => false,
  ask: async () => false,
};
/** A terminal that shows nothing. */
function sink(): Writable & { isTTY: true; columns: number; rows: number } {
  return Object.assign(new Writable({ write: (_c, _e, done) => done() }), {
    isTTY: true as const,
    columns: 80,
    rows: 24,
  });
}

const PREFIX = 'zhi-warm-';

/**
 * The folders of warm-ups whose zhi was killed before it could remove them (`kill -9`, a closed
 * terminal): named with their process id, removed once that process is gone. Best effort.
 */
async function removeLeftovers(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    if (!leftByGoneProcess(name, /^zhi-warm-(\d+)-/)) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A temporary folder, removed when `fn` ends or the process exits, whichever comes first. */
async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  await removeLeftovers();
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  try {
    return await fn(dir);
  } finally {
    process.removeListener('exit', remove);
    remove();
  }
}

/**
 * A twin of the chat: the same tools, settings and system prompt, but its own messages, usage,
 * web grants and session wiring (file, index and ledger in `dir`), talking through `llm`.
 */
function twinChat(ctx: AppContext, chat: ChatSession, llm: LlmClient, dir: string): ChatSession {
  const usage = new UsageTracker(ctx.platform);
  const { settings } = chat;
  const session = new SessionWiring({
    sessionsDir: join(dir, 'sessions'),
    ledgerFile: join(dir, 'usage.jsonl'),
    cwd: ctx.cwd,
    platform: ctx.platform,
    maxCostPerRun: ctx.config.maxCostPerRun,
    onError: () => undefined,
    // Throw-away files: a sync would hold the event loop (and the person's keys) for nothing.
    sync: false,
    kind: 'repl',
    llm,
    usage,
    tools: chat.deps.tools,
    model: settings.model,
    systemPrompt: settings.systemPrompt,
    summaryModel: ctx.config.skillModel,
    compactThreshold: ctx.config.compactThreshold,
    resumedModel: (model) => model,
  });
  const deps = {
    llm,
    tools: chat.deps.tools,
    prompter: NO_QUESTIONS,
    usage,
    cwd: chat.deps.cwd,
    outputDir: chat.deps.outputDir,
    webGrants: newWebGrants(),
  };
  return new ChatSession(deps, settings, { session });
}

/** What warmSend sends, and through what. */
export interface WarmSend {
  /** The person's chat: the twins are made from it (see twinChat). */
  chat: ChatSession;
  /** The twins' model client (the warm-up's made-up answers). */
  llm: LlmClient;
  /** The made-up messages: each is the first of a conversation of its own. */
  texts: readonly string[];
  /** True once the person has sent something: no further made-up message is sent. */
  stopped: () => boolean;
}

/**
 * Type each text into a REPL of its own, whose chat is a new twin of the person's (a command or a
 * message, added to the history, sent, drawn, then the next prompt): the person's conversation,
 * session, usage, ledger, history and terminal never see them.
 */
export async function warmSend(ctx: AppContext, o: WarmSend): Promise<void> {
  await inTempDir(async (dir) => {
    const history = new History(join(dir, 'history'));
    for (const [i, text] of o.texts.entries()) {
      if (o.stopped()) break;
      await typeInto(ctx, twinChat(ctx, o.chat, o.llm, join(dir, `data-${i}`)), history, text);
    }
  });
}

/**
 * What Repl.run does with one typed line, on a REPL of its own: keys in from a stream of its own,
 * everything drawn on a terminal that shows nothing, Ctrl+C of its own (the person's never stops
 * a made-up message), then Ctrl+D at the next prompt.
 */
async function typeInto(ctx: AppContext, twin: ChatSession, history: History, text: string): Promise<void> {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const terminal = sink();
  const repl = new Repl({
    ctx: { ...ctx, interrupt: new Interrupt({ exit: () => undefined }) },
    // No platform client: the made-up messages name no file to read by OCR or transcribe.
    chat: async () => ({ chat: twin }),
    commands: [],
    history,
    io: { input, output: terminal, stdout: terminal },
    // As the REPL draws: redraws coalesced on timers (unref'd: they never keep zhi running).
    animate: true,
  });
  try {
    const read = repl.editor.read();
    input.write(`${text}\r`);
    const r = await read;
    if (r.kind === 'line') {
      await history.add(r.text);
      await repl.handle(r.text);
    }
    const next = repl.editor.read();
    input.write('\x04');
    await next;
  } finally {
    repl.editor.close();
    twin.session?.recorder.close();
  }
}
