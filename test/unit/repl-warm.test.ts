import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/agent/chat.js';
import type { Prompter } from '../../src/agent/loop.js';
import type { AppContext } from '../../src/cli/context.js';
import { warmTurn } from '../../src/cli/repl/warm.js';
import { answerFrames, warmApi } from '../../src/cli/repl/warm-api.js';
import { warmSend } from '../../src/cli/repl/warm-send.js';
import { sessionWiring } from '../../src/cli/sessions/attach.js';
import { UsageTracker } from '../../src/llm/usage.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { terminalContext } from '../helpers/app-context.js';
import { ScriptedLlm } from '../helpers/fake-llm.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
/** The warm-up's temporary folders go here (os.tmpdir() reads TMPDIR): it must be empty after. */
let tmp: string;
const savedTmp = process.env.TMPDIR;
beforeEach(() => {
  dir = tempDir();
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  cleanup(dir);
});

function context(): AppContext {
  return terminalContext(dir, { color: true, env: { TERM: 'xterm-256color' } });
}

/** Everything written to process.stdout and stderr while `fn` runs. */
async function terminalDuring(fn: () => Promise<void>): Promise<string> {
  let written = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  const capture = ((s: string) => {
    written += String(s);
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    await fn();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  return written;
}

const NO_QUESTIONS: Prompter = {
  interactive: false,
  confirmTool: async () => false,
  ask: async () => false,
};

/** A REPL's chat in `ctx`, with its session wiring, talking through `llm`. */
function replChat(ctx: AppContext, llm: ScriptedLlm): ChatSession {
  const usage = new UsageTracker(ctx.platform);
  const tools = new ToolRegistry();
  const settings = {
    model: 'glm-5',
    thinking: true,
    mode: 'approve' as const,
    maxTurns: 8,
    systemPrompt: 'system',
  };
  const session = sessionWiring(ctx, { kind: 'repl', llm, usage, tools, ...settings });
  return new ChatSession(
    { llm, tools, prompter: NO_QUESTIONS, usage, cwd: dir, outputDir: ctx.outputDir },
    settings,
    { session },
  );
}

/** What is on disk of the person's own: session files, the ledger, the history; and the warm-up's leftovers. */
function traces(ctx: AppContext): {
  sessions: string[];
  ledger: boolean;
  history: boolean;
  temporary: string[];
} {
  const sessions = ctx.paths.sessionsDir;
  return {
    sessions: existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith('.jsonl')) : [],
    // Made ahead, empty, so the first entry only appends: a ledger with no line is no trace.
    ledger: existsSync(ctx.paths.usageLedger) && readFileSync(ctx.paths.usageLedger, 'utf8') !== '',
    history: existsSync(ctx.paths.historyFile),
    temporary: readdirSync(tmp),
  };
}
const NO_TRACES = { sessions: [], ledger: false, history: false, temporary: [] };

describe('REPL idle warm-up', () => {
  it('runs a made-up turn that leaves the conversation, its usage, the model and the terminal alone', async () => {
    const ctx = context();
    const llm = new ScriptedLlm([]);
    const chat = replChat(ctx, llm);
    const session = chat.session!;
    const written = await terminalDuring(() => warmTurn(ctx, chat, () => false));
    expect(written).toBe('');
    expect(chat.messages).toEqual([{ role: 'system', content: 'system' }]);
    expect(chat.deps.usage.total().totalTokens).toBe(0);
    expect(llm.requests).toHaveLength(0);
    // No session file, ledger line or history line; its own temporary folder is gone. The file's
    // first lines wait for the first message.
    expect(traces(ctx)).toEqual(NO_TRACES);
    // The session file is made ahead, where no listing looks; the first event moves it into place.
    const pending = join(ctx.paths.sessionsDir, '.pending');
    expect(readdirSync(pending)).toEqual([`${process.pid}-${basename(session.recorder.file)}`]);
    chat.consume({ type: 'user', message: { role: 'user', content: 'hi' } });
    expect(readdirSync(pending)).toEqual([]);
    const lines = readFileSync(session.recorder.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['session', 'system', 'message', 'title']);
    expect(lines[0].id).toBe(session.recorder.id);
    session.recorder.close();
  });

  it('types made-up messages into REPLs of their own, each sent to a twin of the chat, leaving nothing behind', async () => {
    const ctx = context();
    const chat = replChat(ctx, new ScriptedLlm([]));
    const twin = new ScriptedLlm([{ text: 'Hello!' }, { text: '你好！' }]);
    const written = await terminalDuring(() =>
      warmSend(ctx, { chat, llm: twin, texts: ['Hi!', '你好'], stopped: () => false }),
    );
    expect(written).toBe('');
    // Each was the first message of a conversation of its own.
    expect(twin.requests.map((r) => r.messages.map((m) => m.role))).toEqual([
      ['system', 'user'],
      ['system', 'user'],
    ]);
    expect(twin.requests.map((r) => r.messages[1]?.content)).toEqual(['Hi!', '你好']);
    expect(chat.messages).toEqual([{ role: 'system', content: 'system' }]);
    expect(chat.deps.usage.total().totalTokens).toBe(0);
    expect(chat.session?.recorder.started).toBe(false);
    expect(traces(ctx)).toEqual(NO_TRACES);
  });

  it("removes the folders of warm-ups whose zhi was killed, never a running one's", async () => {
    const ctx = context();
    const chat = replChat(ctx, new ScriptedLlm([]));
    // A process that has ended (its folder is left over) and this one's parent (still running).
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const left = join(tmp, `zhi-warm-${gone}-abc123`);
    const alive = join(tmp, `zhi-warm-${process.ppid}-def456`);
    for (const d of [left, alive]) mkdirSync(join(d, 'data-0', 'sessions'), { recursive: true });
    await warmSend(ctx, {
      chat,
      llm: new ScriptedLlm([{ text: 'Hello!' }]),
      texts: ['Hi!'],
      stopped: () => false,
    });
    expect(readdirSync(tmp)).toEqual([`zhi-warm-${process.ppid}-def456`]);
  });

  it('sends no further made-up message once the person has sent something', async () => {
    const ctx = context();
    const chat = replChat(ctx, new ScriptedLlm([]));
    const twin = new ScriptedLlm([{ text: 'Hello!' }, { text: 'again' }]);
    let sent = false;
    const llm = {
      stream: (req: Parameters<ScriptedLlm['stream']>[0]) => {
        sent = true; // the person presses Enter while the first made-up answer streams
        return twin.stream(req);
      },
    };
    await warmSend(ctx, { chat, llm, texts: ['Hi!', 'again'], stopped: () => sent });
    expect(twin.requests).toHaveLength(1);
    expect(traces(ctx)).toEqual(NO_TRACES);
  });

  it('answers the made-up messages from 127.0.0.1, or from memory when fetch may go through a proxy', async () => {
    const frames = answerFrames();
    const api = await warmApi(frames, {});
    try {
      expect(api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
      expect(api.baseUrl).not.toBe('http://127.0.0.1:9/v4');
      const res = await api.fetch(`${api.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
      expect(await res.text()).toBe(frames);
    } finally {
      api.close();
    }
    for (const env of [{ NODE_USE_ENV_PROXY: '1' }, { NODE_OPTIONS: '--use-env-proxy' }]) {
      const memory = await warmApi(frames, env);
      expect(memory.baseUrl).toBe('http://127.0.0.1:9/v4');
      expect(await (await memory.fetch(memory.baseUrl, {})).text()).toBe(frames);
    }
  });
});
