import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Cost } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { Message, ToolCall, Usage } from '../../llm/types.js';
import { redact } from '../../support/redact.js';
import { formatBytes, truncateText } from '../../support/text.js';
import type { RunEvent } from '../events.js';
import { appendLedger, ledgerEntry } from '../ledger.js';
import { MAX_RESULT_BYTES } from '../tool-calls.js';
import {
  messageText,
  now,
  SESSION_FORMAT_VERSION,
  type SessionEvent,
  type SessionHeader,
  type SessionKind,
  serialiseLine,
  type UsagePurpose,
} from './format.js';
import { noteLive, noteSession } from './index-file.js';
import { type LoadedSession, newSessionId, sessionDataDir, sessionFile, titleFrom } from './store.js';

export interface OpenSessionOptions {
  kind: SessionKind;
  /** appPaths().sessionsDir */
  sessionsDir: string;
  /** appPaths().usageLedger; omit to keep this session out of the ledger. */
  ledgerFile?: string;
  cwd: string;
  model: string;
  platform: Platform;
  /** The skill of a `run` session. */
  skill?: string;
  systemPrompt?: string;
  /** The title to list it under (otherwise the first user message's beginning). */
  title?: string;
  /** Append to this session's file instead of starting a new one (--continue, --resume, /resume). */
  resume?: LoadedSession;
  /** Called once if saving fails (full disk, read-only folder); recording then stops quietly. */
  onError?: (err: unknown) => void;
}

export interface UsageRecord {
  model: string;
  usage: Usage;
  cost: Cost;
  purpose: UsagePurpose;
  skill?: string | undefined;
}

export interface CompactionRecord {
  reason: 'auto' | 'manual' | 'overflow';
  inserted: Message[];
  kept: number;
  replaced: number;
  tokensBefore: number;
  tokensAfter: number;
  model: string;
  focus?: string | undefined;
}

/**
 * Records one conversation as it happens. Nothing is written until the first event (so starting
 * the REPL and leaving leaves no empty session). Every event is one `write` on an append-only
 * file, so a killed process loses at most the line being written; the user message and each
 * run's end are also synced to disk.
 *
 * Use from any mode:
 * ```ts
 * const rec = openSession({ kind: 'run', skill: 'translate', sessionsDir, ledgerFile, cwd, model, platform });
 * rec.consume({ type: 'user', message });          // the task
 * for await (const ev of run) rec.consume(ev);     // every RunEvent: usage (nested too), the final `done`
 * deps.spill = rec.spill;                          // large tool results go to the session folder
 * rec.close();
 * ```
 * A ChatSession gets it through its SessionWiring (agent/sessions/wiring.ts).
 */
export class SessionRecorder {
  private _id: string;
  private _file: string;
  readonly kind: SessionKind;
  private fd: number | undefined;
  private failed = false;
  private closed = false;
  private resumed: boolean;
  private titled: boolean;
  private lastModel: string;
  /** The context as recorded so far (without the system prompt), by identity. */
  private recorded: Message[];
  private live: Message[] | undefined;
  private spills = 0;

  constructor(private readonly o: OpenSessionOptions) {
    this.kind = o.resume?.kind ?? o.kind;
    this._id = o.resume?.id ?? newSessionId();
    this._file = o.resume?.file || sessionFile(o.sessionsDir, this._id);
    this.resumed = Boolean(o.resume);
    this.titled = Boolean(o.resume?.title);
    this.lastModel = o.resume?.model ?? o.model;
    this.recorded = o.resume ? [...o.resume.messages] : [];
  }

  /** The session id (a /reset moves recording to a new one). */
  get id(): string {
    return this._id;
  }

  get file(): string {
    return this._file;
  }

  /** Where this session keeps its large tool results. */
  get dataDir(): string {
    return sessionDataDir(this.o.sessionsDir, this._id);
  }

  /** The live message array of a ChatSession (system prompt first), to notice /undo and /reset. */
  attach(messages: Message[]): void {
    this.live = messages;
  }

  /** Whether anything was written (a session file exists). */
  get started(): boolean {
    return this.fd !== undefined;
  }

  /** The consumer of a run's events: messages, model changes, errors, ends and every call's usage. */
  readonly consume = (ev: RunEvent): void => {
    switch (ev.type) {
      case 'user':
        this.syncContext();
        this.recorded.push(ev.message);
        this.write({ type: 'message', role: 'user', t: now(), message: ev.message });
        if (!this.titled) {
          this.titled = true;
          const title = this.o.title ? titleFrom(this.o.title) : titleFrom(messageText(ev.message));
          if (title) this.write({ type: 'title', title });
        }
        this.sync();
        break;
      case 'turn_start':
        if (ev.model !== this.lastModel) {
          this.lastModel = ev.model;
          this.write({ type: 'model', t: now(), model: ev.model });
        }
        break;
      case 'message':
        this.recorded.push(ev.message);
        this.write({ type: 'message', role: ev.message.role, t: now(), message: ev.message });
        break;
      case 'error':
        this.write({ type: 'error', t: now(), kind: ev.error.kind, message: ev.error.message });
        break;
      case 'usage': {
        const purpose: UsagePurpose =
          ev.purpose === 'compact' ? 'compact' : this.kind === 'run' ? 'skill' : 'chat';
        this.recordUsage({ model: ev.model, usage: ev.usage, cost: ev.cost, purpose, skill: this.o.skill });
        break;
      }
      case 'nested':
        // A skill run inside this one (a composite's step, a skill called from chat): its calls count here.
        if (ev.event.type === 'usage') {
          const u = ev.event;
          this.recordUsage({
            model: u.model,
            usage: u.usage,
            cost: u.cost,
            purpose: 'skill',
            skill: ev.chain.at(-1),
          });
        }
        break;
      case 'done':
        this.write({
          type: 'end',
          t: now(),
          stopReason: ev.result.stopReason,
          turns: ev.result.turns,
          toolCalls: ev.result.toolCalls,
        });
        this.sync();
        break;
      default:
        break;
    }
  };

  /** Usage of one model call: a line in the session and one in the ledger. */
  recordUsage(r: UsageRecord): void {
    if (this.closed) return;
    this.write({
      type: 'usage',
      t: now(),
      model: r.model,
      purpose: r.purpose,
      ...(r.skill ? { skill: r.skill } : {}),
      usage: r.usage,
      cost: r.cost.amount,
      currency: r.cost.currency,
      covered: r.cost.covered,
    });
    if (!this.o.ledgerFile) return;
    try {
      appendLedger(
        this.o.ledgerFile,
        ledgerEntry({
          session: this.id,
          kind: r.purpose,
          skill: r.skill,
          model: r.model,
          usage: r.usage,
          cost: r.cost,
          platform: this.o.platform.id,
        }),
      );
    } catch (err) {
      this.fail(err);
    }
  }

  /**
   * The context was compacted: `before` is what it was (without the system prompt), `after` what
   * it is now. Replaying the file rebuilds `after` from the recorded `before` and this line.
   */
  recordCompaction(c: CompactionRecord, before: Message[], after: Message[]): void {
    this.syncTo(before);
    this.write({ type: 'compaction', t: now(), ...c });
    this.recorded = [...after];
    this.sync();
  }

  /**
   * Save a tool result that is over the size cap in the session folder; the model gets where it
   * is plus the beginning. Undefined when it cannot be saved (the loop then truncates).
   */
  readonly spill = async (call: ToolCall, content: string): Promise<string | undefined> => {
    if (this.failed) return undefined;
    try {
      const dir = join(this.dataDir, 'tool-results');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.spills += 1;
      const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60);
      const path = join(
        dir,
        `${String(this.spills).padStart(3, '0')}-${safe(call.function.name)}-${safe(call.id)}.txt`,
      );
      // Redacted like the session file itself: a tool result may quote a key or a token.
      writeFileSync(path, redact(content), { mode: 0o600, flag: 'wx' });
      const bytes = Buffer.byteLength(content, 'utf8');
      const head = Math.max(1024, MAX_RESULT_BYTES - 2048);
      return (
        `[This result is ${formatBytes(bytes)}, more than one tool result may hold. The complete text was saved to ${path} ` +
        `(tell the user if they need all of it). The beginning follows.]\n\n${truncateText(content, head).text}`
      );
    } catch {
      return undefined;
    }
  };

  /** Stop recording (further events are ignored), close the file and note it in the index. */
  close(): void {
    this.closed = true;
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
    if (!this.failed) noteSession(this.o.sessionsDir, this._file);
  }

  /**
   * The context was cut back between runs (/undo, a message that failed before any answer):
   * record it now, so `--continue` does not bring the removed exchange back.
   */
  recordCut(): void {
    if (!this.live || this.closed) return;
    const expected = this.live.slice(1);
    if (expected.length < this.recorded.length) this.syncTo(expected);
  }

  /** Compare the recorded context with the live one; record /undo, /reset or anything else done to it. */
  private syncContext(): void {
    if (!this.live) return;
    // At a `user` event the live array already holds the new message; leave it out.
    const expected = this.live.slice(1, -1);
    if (!expected.length && this.recorded.length) this.startOver();
    else this.syncTo(expected);
  }

  /** The conversation was cleared (/reset): what follows is a new session; the old one stays listed. */
  private startOver(): void {
    this.close();
    this.closed = false;
    this._id = newSessionId();
    this._file = sessionFile(this.o.sessionsDir, this._id);
    this.resumed = false;
    this.titled = false;
    this.recorded = [];
    this.spills = 0;
  }

  private syncTo(expected: Message[]): void {
    const same = (n: number) => {
      for (let i = 0; i < n; i++) if (expected[i] !== this.recorded[i]) return false;
      return true;
    };
    if (expected.length === this.recorded.length && same(expected.length)) return;
    if (expected.length < this.recorded.length && same(expected.length)) {
      this.write({ type: 'truncate', t: now(), keep: expected.length });
    } else {
      this.write({ type: 'context', t: now(), messages: expected });
    }
    this.recorded = [...expected];
  }

  private open(): number | undefined {
    if (this.fd !== undefined || this.failed || this.closed) return this.fd;
    try {
      mkdirSync(this.o.sessionsDir, { recursive: true, mode: 0o700 });
      const fd = openSync(this.file, 'a+', 0o600);
      this.fd = fd;
      // Until close() notes its final state, the index must read this file, not trust its line.
      noteLive(this.o.sessionsDir, this.file);
      if (this.resumed) {
        if (!endsWithNewline(fd)) writeSync(fd, '\n');
        this.write({ type: 'resume', t: now(), mode: this.o.kind });
        // Placeholder results were added on loading: write them, so counts in later lines match.
        if (this.o.resume?.repaired)
          this.write({ type: 'context', t: now(), messages: this.o.resume.messages });
      } else {
        const header: SessionHeader = {
          type: 'session',
          v: SESSION_FORMAT_VERSION,
          id: this.id,
          created: now(),
          cwd: this.o.cwd,
          model: this.lastModel,
          kind: this.o.kind,
          ...(this.o.skill ? { skill: this.o.skill } : {}),
          platform: this.o.platform.id,
          currency: this.o.platform.currency,
          zhi: typeof __ZHI_VERSION__ === 'string' ? __ZHI_VERSION__ : 'dev',
        };
        writeSync(fd, serialiseLine(header));
        if (this.o.systemPrompt) this.write({ type: 'system', t: now(), content: this.o.systemPrompt });
      }
      return fd;
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  private write(event: SessionEvent): void {
    const fd = this.open();
    if (fd === undefined) return;
    try {
      writeSync(fd, serialiseLine(event));
    } catch (err) {
      this.fail(err);
    }
  }

  private sync(): void {
    if (this.fd === undefined) return;
    try {
      fdatasyncSync(this.fd);
    } catch {
      // fsync is a best effort (some file systems refuse it); the data is written already.
    }
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.close();
    this.o.onError?.(err);
  }
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] === 0x0a;
}

export function openSession(o: OpenSessionOptions): SessionRecorder {
  return new SessionRecorder(o);
}
