/**
 * The page's conversations: each a ChatSession built by createChat (as the REPL's is), recorded
 * by the same session recorder, so `zhi --resume <id>` goes on with a chat from the page and the
 * page shows one begun in the terminal. One run at a time per conversation; a run belongs to the
 * server, not to a tab: its events go to the conversation's channel, and a tab that closes only
 * stops listening.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { grantTyped } from '../../agent/permissions.js';
import { CHAT_KINDS } from '../../agent/sessions/format.js';
import { deleteSession, findSession, listSessions } from '../../agent/sessions/listing.js';
import { loadSession, type SessionSummary } from '../../agent/sessions/store.js';
import { toZhiError } from '../../support/errors.js';
import { type BuiltChat, createChat } from '../chat.js';
import type { AppContext } from '../context.js';
import { isDelta, streamJsonEvent } from '../render/formats/stream-json.js';
import type { Approvals } from './approvals.js';
import { uploadPaths, withAttachments } from './attachments.js';
import { EventChannel } from './channel.js';
import { type HistoryItem, historyItems } from './history.js';
import { errorBody, httpError, needKey } from './http.js';
import type { Uploads } from './uploads.js';

interface Live {
  id: string;
  channel: EventChannel;
  built?: BuiltChat;
  /** The session file's modification time when this server last wrote it (after a run). */
  synced?: number | undefined;
  run?: { id: string; abort: AbortController; done: Promise<void> };
}

export interface ConversationListItem {
  id: string;
  title: string;
  updatedAt: string;
  kind: string;
  model: string;
  turns: number;
  cwd: string;
  running: boolean;
}

export class Conversations {
  private readonly live = new Map<string, Live>();

  constructor(
    private readonly ctx: () => AppContext,
    private readonly approvals: Approvals,
    private readonly uploads: Uploads,
  ) {}

  /** A new chat; its id is its session's (the file is written with the first message). */
  async create(): Promise<string> {
    needKey(this.ctx().config);
    const channel = new EventChannel();
    const built = await createChat(this.ctx(), {
      kind: 'repl',
      prompter: this.approvals.prompter(channel),
      resumed: { loaded: undefined },
    });
    const id = built.chat.session!.recorder.id;
    this.live.set(id, { id, channel, built });
    return id;
  }

  /** The saved sessions (as `zhi sessions`, newest first; `q` searches) and the page's unsaved ones. */
  async list(query?: string): Promise<ConversationListItem[]> {
    // Conversations only, as `zhi sessions` lists them: skill runs are the runs page's.
    const saved = await listSessions(this.ctx().paths.sessionsDir, {
      kinds: [...CHAT_KINDS],
      ...(query ? { query } : {}),
    });
    const items = saved.map((s) => this.item(s));
    return items;
  }

  private item(s: SessionSummary): ConversationListItem {
    return {
      id: s.id,
      title: s.title,
      updatedAt: s.updated,
      kind: s.kind,
      model: s.model,
      turns: s.turns,
      cwd: s.cwd,
      running: Boolean(this.live.get(s.id)?.run),
    };
  }

  /**
   * A conversation to draw: while it runs, the live chat's context; else its session file's (the
   * terminal may have gone on with it since), or the live chat's when nothing is saved yet.
   */
  async get(
    id: string,
  ): Promise<{ id: string; title: string; model: string; running: boolean; items: HistoryItem[] }> {
    const live = this.live.get(id);
    const summary = await this.summary(id);
    if (live?.built && (live.run || !summary)) {
      const { chat } = live.built;
      return {
        id,
        title: summary?.title ?? '',
        model: chat.settings.model,
        running: Boolean(live.run),
        items: historyItems(chat.messages),
      };
    }
    const loaded = await this.load(id);
    return {
      id,
      title: loaded.title,
      model: loaded.model,
      running: false,
      items: historyItems(loaded.messages),
    };
  }

  /** The saved session of this exact id (the index finds it without reading every file). */
  private async summary(id: string): Promise<SessionSummary | undefined> {
    if (!/^[\w.-]+$/.test(id)) return undefined;
    const found = await findSession(this.ctx().paths.sessionsDir, id);
    return 'found' in found && found.found.id === id ? found.found : undefined;
  }

  private async load(id: string) {
    const summary = await this.summary(id);
    const loaded = summary ? await loadSession(summary.file) : undefined;
    if (!loaded) throw noConversation(id);
    return loaded;
  }

  /**
   * The live conversation, built from its session file when the page has not used it yet, and
   * brought up to date with it when another zhi (the terminal's `--resume`) wrote to it since.
   */
  private async ensure(id: string): Promise<Live & { built: BuiltChat }> {
    const live = this.live.get(id);
    const summary = await this.summary(id);
    if (live?.built) {
      const session = live.built.chat.session;
      if (summary && session && (await mtime(summary.file)) !== live.synced) {
        const loaded = await loadSession(summary.file);
        if (loaded) session.switchTo(loaded);
      }
      return live as Live & { built: BuiltChat };
    }
    needKey(this.ctx().config);
    const loaded = await this.load(id);
    const channel = live?.channel ?? new EventChannel();
    const built = await createChat(this.ctx(), {
      kind: 'repl',
      prompter: this.approvals.prompter(channel),
      resumed: { loaded },
    });
    const entry = { id, channel, built };
    this.live.set(id, entry);
    return entry;
  }

  /** Send a message: its run starts, and its events go to the channel. 409 while one runs. */
  async send(id: string, text: string, attachments: readonly string[] = []): Promise<string> {
    if (!text.trim()) throw httpError(400, { what: { key: 'web.err.emptyMessage' } });
    if (this.live.get(id)?.run) throw busy();
    const live = await this.ensure(id);
    if (live.run) throw busy();
    const { chat } = live.built;
    const paths = uploadPaths(this.uploads, attachments);
    if (chat.deps.grants) grantTyped(chat.deps.grants, text);
    chat.deps.named?.addText(text);
    const runId = randomBytes(6).toString('hex');
    const abort = new AbortController();
    live.channel.startRun(runId);
    const done = (async () => {
      let result: unknown;
      try {
        const attaching = {
          ctx: this.ctx(),
          built: live.built,
          channel: live.channel,
          approvals: this.approvals,
        };
        const content = await withAttachments(text, paths, {
          ...attaching,
          uploads: this.uploads,
          signal: abort.signal,
        });
        const run = chat.send(content, abort.signal);
        let step = await run.next();
        while (!step.done) {
          const ev = step.value;
          if (!(isDelta(ev) && ev.type === 'nested')) live.channel.emit('run', streamJsonEvent(ev));
          step = await run.next();
        }
        const { error, ...rest } = step.value;
        result = { ...rest, ...(error ? errorBody(error) : {}) };
      } catch (err) {
        result = { stopReason: 'error', ...errorBody(toZhiError(err)) };
      } finally {
        live.run = undefined;
        live.synced = await mtime(chat.session?.recorder.file);
        live.channel.emit('run_end', { runId, result });
      }
    })();
    live.run = { id: runId, abort, done };
    return runId;
  }

  /** Stop the conversation's run (as Esc in the terminal); false when none runs. */
  stop(id: string): boolean {
    const run = this.live.get(id)?.run;
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  /** The conversation's event stream (a saved one gets a channel, empty until it runs). */
  async attach(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let live = this.live.get(id);
    if (!live) {
      await this.load(id);
      live = { id, channel: new EventChannel() };
      this.live.set(id, live);
    }
    live.channel.attach(req, res);
  }

  async remove(id: string): Promise<void> {
    if (this.live.get(id)?.run) throw busy();
    const summary = await this.summary(id);
    const live = this.live.get(id);
    if (!summary && !live) throw noConversation(id);
    live?.channel.close();
    live?.built?.chat.session?.recorder.close();
    this.live.delete(id);
    if (summary) await deleteSession(this.ctx().paths.sessionsDir, summary.id);
  }

  /** The session file of a conversation (for export). */
  async loaded(id: string) {
    return this.load(id);
  }

  ping(): void {
    for (const live of this.live.values()) live.channel.ping();
  }

  /** The server stops: runs are stopped (their partial answers recorded), streams end. */
  async close(): Promise<void> {
    const runs: Promise<void>[] = [];
    for (const live of this.live.values()) {
      if (live.run) {
        live.run.abort.abort();
        runs.push(live.run.done);
      }
    }
    await Promise.all(runs);
    for (const live of this.live.values()) {
      live.channel.close();
      await live.built?.mcp?.manager()?.close();
      live.built?.chat.session?.recorder.close();
    }
  }
}

async function mtime(file: string | undefined): Promise<number | undefined> {
  return file ? (await stat(file).catch(() => undefined))?.mtimeMs : undefined;
}

function busy() {
  return httpError(409, { what: { key: 'web.err.busy' }, tries: [{ key: 'web.err.busyTry' }] });
}

function noConversation(id: string) {
  return httpError(404, { what: { key: 'web.err.noConversation', params: { id } } });
}
