/**
 * Running the person's hooks (config.yaml `hooks:`): each is their own command, run by their
 * shell outside zhi's sandbox (it is their config, like their shell's rc file), with the event as
 * JSON on stdin. A before_tool hook blocks the call by exiting 2 (its stderr is the reason, as in
 * Claude Code) or by printing {"decision":"block","reason":"…"}. Anything else that goes wrong
 * (another exit code, a timeout, a command that cannot start) is said to the person and zhi goes
 * on as if the hook were not there.
 */
import { spawn } from 'node:child_process';
import type { HookEvent, HookRunner, HookVerdict } from '../agent/hook-events.js';
import type { HookProblem, HookSpec } from '../support/hooks-config.js';
import { getLanguage, type MessageKey, t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';

/** What a hook's output may be; more is cut (a hook that prints a whole file). */
const MAX_OUTPUT = 64 * 1024;

export interface HookPlace {
  cwd: string;
  /** The session's id, when the conversation is saved. */
  sessionId?: () => string | undefined;
  env?: NodeJS.ProcessEnv;
}

/** The runner the agent calls; undefined when no hook is configured (nothing to do per call). */
export function hookRunner(specs: readonly HookSpec[], place: HookPlace): HookRunner | undefined {
  if (!specs.length) return undefined;
  return async (ev) => {
    const verdict: HookVerdict = { notes: [] };
    const tool = 'tool' in ev ? ev.tool : undefined;
    for (const spec of specs) {
      if (spec.event !== ev.event) continue;
      if (tool !== undefined && spec.match && !spec.match.includes(tool)) continue;
      const ran = await runHook(spec, stdinOf(ev, place), place);
      if (ran.note) verdict.notes.push(ran.note);
      // The first hook that blocks decides; the ones after it are not asked.
      if (ev.event === 'before_tool' && ran.block !== undefined) return { ...verdict, block: ran.block };
    }
    return verdict;
  };
}

/** The JSON a hook reads on stdin: the event, where, which session, and the event's own fields. */
function stdinOf(ev: HookEvent, place: HookPlace): string {
  const sessionId = place.sessionId?.();
  return JSON.stringify({ ...ev, cwd: place.cwd, ...(sessionId ? { session_id: sessionId } : {}) });
}

interface Ran {
  block?: string;
  note?: string;
}

/** Run one hook to its end (or its timeout). Never throws. */
export function runHook(spec: HookSpec, input: string, place: HookPlace): Promise<Ran> {
  return new Promise((resolve) => {
    const windows = process.platform === 'win32';
    const child = spawn(spec.command, {
      shell: true,
      cwd: place.cwd,
      env: place.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a timeout stops what it started too.
      detached: !windows,
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const take = (s: string, chunk: Buffer) => (s.length < MAX_OUTPUT ? s + chunk.toString('utf8') : s);
    child.stdout.on('data', (c: Buffer) => {
      stdout = take(stdout, c);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr = take(stderr, c);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child.pid, windows, () => child.kill('SIGKILL'));
    }, spec.timeoutMs);
    const said = (key: MessageKey, params: Record<string, string | number> = {}) =>
      t(key, { event: spec.event, command: visible(spec.command), ...params });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ note: said('hooks.notStarted', { reason: visible(err.message) }) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ note: said('hooks.timedOut', { seconds: spec.timeoutMs / 1000 }) });
      if (code === 2 && spec.event === 'before_tool') return resolve({ block: stderr.trim() });
      const decided = jsonBlock(stdout);
      if (decided !== undefined && spec.event === 'before_tool') return resolve({ block: decided });
      if (code !== 0) {
        const first = visible(stderr.trim().split('\n')[0] ?? '').slice(0, 200);
        const detail = first ? `${getLanguage() === 'zh' ? '：' : ': '}${first}` : '';
        return resolve({ note: said('hooks.failed', { code: code ?? -1, detail }) });
      }
      resolve({});
    });
    child.stdin.on('error', () => undefined); // A hook that does not read its stdin is fine.
    child.stdin.end(input);
  });
}

function kill(pid: number | undefined, windows: boolean, fallback: () => void): void {
  try {
    if (pid !== undefined && !windows) process.kill(-pid, 'SIGKILL');
    else fallback();
  } catch {
    fallback();
  }
}

/** `{"decision":"block","reason":"…"}` printed by the hook: its reason ('' when it gave none). */
function jsonBlock(stdout: string): string | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(text) as { decision?: unknown; reason?: unknown };
    if (v.decision !== 'block') return undefined;
    return typeof v.reason === 'string' ? v.reason : '';
  } catch {
    return undefined;
  }
}

/** A config warning about a hook entry, in the person's language. */
export function hookProblemText(p: HookProblem, file: string): string {
  const where = [p.event, p.index ? `#${p.index}` : undefined].filter(Boolean).join(' ') || t('hooks.where');
  const problem = t(`hooks.bad.${p.code}` as MessageKey);
  return t('hooks.bad', { file, where: visible(where), problem });
}

/** The session_end hooks of the chats of this process, run once as zhi leaves (app.ts). */
const endings: HookRunner[] = [];

/**
 * A chat's session hooks: session_start now (its notes on stderr), session_end when zhi leaves.
 */
export async function startSession(run: HookRunner, warn: (line: string) => void): Promise<void> {
  endings.push(run);
  for (const note of (await run({ event: 'session_start' })).notes) warn(note);
}

export async function endSessions(warn: (line: string) => void): Promise<void> {
  for (const run of endings.splice(0))
    for (const note of (await run({ event: 'session_end' })).notes) warn(note);
}
