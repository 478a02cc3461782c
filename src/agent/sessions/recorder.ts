import type { Cost } from '../../llm/models.js';
import type { Platform } from '../../llm/platforms.js';
import type { Message, ToolCall, Usage } from '../../llm/types.js';
import { exhaustive } from '../../support/exhaustive.js';
import { isFolderEvent, type RunEvent } from '../events.js';
import { appendLedger, ledgerEntry, prepareLedger } from '../ledger.js';
import {
  type CompactionRecord,
  messageText,
  now,
  SESSION_FORMAT_VERSION,
  type SessionEvent,
  type SessionKind,
  type SessionLine,
  type UsagePurpose,
} from './format.js';
import { noteLive, noteSession } from './index-file.js';
import { SessionFile } from './session-file.js';
import { spillResult } from './spill.js';
import { type LoadedSession, newSessionId, sessionDataDir, sessionFile, titleFrom } from './store.js';

export type { CompactionRecord } from './format.js';

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
  private out: SessionFile;
  readonly kind: SessionKind;
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
    this.resumed = Boolean(o.resume);
    this.out = this.fileFor(o.resume?.file || sessionFile(o.sessionsDir, this._id));
    this.titled = Boolean(o.resume?.title);
    this.lastModel = o.resume?.model ?? o.model;
    this.recorded = o.resume ? [...o.resume.messages] : [];
  }

  /** The session id (a /reset moves recording to a new one). */
  get id(): string {
    return this._id;
  }

  get file(): string {
    return this.out.path;
  }

  /** Where this session keeps its large tool results. */
  get dataDir(): string {
    return sessionDataDir(this.o.sessionsDir, this._id);
  }

  /** The live message array of a ChatSession (system prompt first), to notice /undo and /reset. */
  attach(messages: Message[]): void {
    this.live = messages;
  }

  /**
   * Make the session file and the usage ledger while the prompt waits, so the first message only
   * appends to them as a later one does (the header is dated then, as the session's id is). The
   * session is listed from its first message, not before (SessionFile.prepare).
   */
  prepare(): void {
    if (this.closed || this.failed) return;
    this.out.prepare();
    if (this.o.ledgerFile) prepareLedger(this.o.ledgerFile);
  }

  /**
   * The run was stopped: what it still records (the partial answer, its usage, its end) is
   * written on the next turn of the event loop, once the prompt is back (see SessionFile.defer).
   */
  deferWrites(): void {
    this.out.defer();
  }

  /** Whether anything was written (a session file exists). */
  get started(): boolean {
    return this.out.started;
  }

  /** A message of the person's: written at once (with what they typed), and the title from the first. */
  private user(ev: Extract<RunEvent, { type: 'user' }>): void {
    this.syncContext();
    this.recorded.push(ev.message);
    this.write({
      type: 'message',
      role: 'user',
      t: now(),
      message: ev.message,
      // What the person typed, and whether an answer is due: a `!command`'s note expects none.
      ...(ev.typed ? { typed: ev.typed } : {}),
      ...(ev.note ? { note: true } : {}),
    });
    if (!this.titled) {
      this.titled = true;
      const title = titleFrom(this.o.title || ev.typed || messageText(ev.message));
      if (title) this.write({ type: 'title', title });
    }
    this.sync();
  }

  /** The consumer of a run's events: messages, model changes, errors, ends and every call's usage. */
  readonly consume = (ev: RunEvent): void => {
    // A folder run's progress is recorded by its run record (agent/batch), not the session file.
    if (isFolderEvent(ev)) return;
    switch (ev.type) {
      case 'user':
        this.user(ev);
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
      case 'text_delta':
      case 'thinking_delta':
      case 'retry':
      case 'tool_start':
      case 'permission':
      case 'tool_end':
      case 'progress':
      case 'warning':
      case 'skill_start':
      case 'skill_step':
      case 'skill_kept':
      case 'skill_ocr':
      case 'skill_asr':
      case 'tool_call_writing':
        break;
      default:
        exhaustive(ev);
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
    this.spills += 1;
    return spillResult(this.dataDir, this.spills, call, content);
  };

  /** Stop recording (further events are ignored), close the file and note it in the index. */
  close(): void {
    this.closed = true;
    this.out.close();
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
    this.out.close();
    this._id = newSessionId();
    this.resumed = false;
    this.out = this.fileFor(sessionFile(this.o.sessionsDir, this._id));
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

  /** The file a session is written to: a new one starts with its header, a resumed one says so. */
  private fileFor(path: string): SessionFile {
    const append = this.resumed;
    return new SessionFile(path, this.o.sessionsDir, {
      append,
      head: () => (append ? this.resumeLines() : this.headerLines()),
      // Until close() notes its final state, the index must read this file rather than trust
      // its line (--continue takes closed sessions from the index).
      opened: () => noteLive(this.o.sessionsDir, path),
      fail: (err) => this.fail(err),
      closed: () => {
        if (!this.failed) noteSession(this.o.sessionsDir, path);
      },
    });
  }

  private headerLines(): SessionLine[] {
    const lines: SessionLine[] = [
      {
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
      },
    ];
    if (this.o.systemPrompt) lines.push({ type: 'system', t: now(), content: this.o.systemPrompt });
    return lines;
  }

  private resumeLines(): SessionLine[] {
    const lines: SessionLine[] = [{ type: 'resume', t: now(), mode: this.o.kind }];
    // Placeholder results were added on loading: write them, so counts in later lines match.
    if (this.o.resume?.repaired) lines.push({ type: 'context', t: now(), messages: this.o.resume.messages });
    return lines;
  }

  private write(event: SessionEvent): void {
    if (!this.failed) this.out.write(event);
  }

  private sync(): void {
    this.out.sync();
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.close();
    this.o.onError?.(err);
  }
}

export function openSession(o: OpenSessionOptions): SessionRecorder {
  return new SessionRecorder(o);
}
