/** Drive the built `zhi` in a real pseudo-terminal (node-pty), as a person at a keyboard would. */
import { type IPty, spawn as ptySpawn } from 'node-pty';
import { stretched } from './slowdown.js';
import { VirtualTerminal } from './vt.js';
import { testEnv, ZHI_BIN } from './zhi.js';

export interface PtyOptions {
  args?: string[];
  home: string;
  cwd?: string;
  baseUrl?: string;
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  /** Shell words run before zhi in the same process (`exec 5>file`: zhi inherits fd 5; bash, so any number). */
  before?: string;
}

/**
 * Every wait is a ceiling, never a pace: a test goes on as soon as what it waits for is on the
 * screen. On a machine shared with other test runs and a bench (load 20 on 2 cores) one zhi start
 * can take seconds, so no wait gives up before this (a shorter ceiling a test passes is raised to
 * it), stretched by the machine's load when the wait starts (helpers/slowdown.ts).
 */
const MIN_CEILING_MS = 30_000;

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]/g;

export class PtySession {
  readonly pty: IPty;
  private buffer = '';
  private exit: Promise<{ exitCode: number; signal?: number }>;

  constructor(o: PtyOptions) {
    const [file, args] = o.before
      ? ['/bin/bash', ['-c', `${o.before}\nexec "$@"`, 'sh', process.execPath, ZHI_BIN, ...(o.args ?? [])]]
      : [process.execPath, [ZHI_BIN, ...(o.args ?? [])]];
    this.pty = ptySpawn(file, args, {
      name: 'xterm-256color',
      cols: o.cols ?? 100,
      rows: o.rows ?? 30,
      cwd: o.cwd ?? o.home,
      env: testEnv({
        home: o.home,
        ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
        env: { TERM: 'xterm-256color', ...(o.env ?? {}) },
      }) as Record<string, string>,
    });
    this.pty.onData((d) => {
      this.buffer += d;
    });
    this.exit = new Promise((resolve) => this.pty.onExit(resolve));
  }

  /** Everything printed so far, without escape sequences. */
  text(): string {
    return this.buffer.replace(ANSI, '');
  }

  raw(): string {
    return this.buffer;
  }

  /**
   * Wait until the output (since `from`) matches. It checks as output arrives (a few ms after,
   * so a long stream is not re-scanned per chunk) and fails at once when zhi exits without it;
   * `timeoutMs` is only a ceiling.
   */
  waitFor(pattern: string | RegExp, timeoutMs = MIN_CEILING_MS, from = 0): Promise<void> {
    const matches = () => {
      const t = this.text().slice(from);
      return typeof pattern === 'string' ? t.includes(pattern) : pattern.test(t);
    };
    return this.until(matches, `waiting for ${String(pattern)}`, timeoutMs);
  }

  /**
   * Wait until `ok()` holds; it is checked as output arrives, so it must depend on the output.
   * Fails when zhi exits without it, or at the ceiling.
   */
  until(ok: () => boolean, what: string, timeoutMs = MIN_CEILING_MS): Promise<void> {
    if (ok()) return Promise.resolve();
    timeoutMs = stretched(Math.max(timeoutMs, MIN_CEILING_MS));
    return new Promise((resolve, reject) => {
      let pending: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(ceiling);
        clearTimeout(pending);
        data.dispose();
        exit.dispose();
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        pending = undefined;
        if (ok()) finish();
      };
      const data = this.pty.onData(() => {
        pending ??= setTimeout(check, 10);
      });
      // Output can still be in flight when the exit is reported: look once more a moment later.
      const exit = this.pty.onExit(() => {
        setTimeout(() => {
          if (ok()) finish();
          else finish(new Error(`zhi exited ${what}. Screen:\n${this.text().slice(-2000)}`));
        }, 100);
      });
      const ceiling = setTimeout(
        () => finish(new Error(`Timed out ${what}. Screen so far:\n${this.text().slice(-2000)}`)),
        timeoutMs,
      );
    });
  }

  /** Position to pass as `from` to waitFor so only new output counts. */
  mark(): number {
    return this.text().length;
  }

  write(data: string): void {
    this.pty.write(data);
  }

  async exited(timeoutMs = MIN_CEILING_MS): Promise<{ exitCode: number; signal?: number }> {
    timeoutMs = stretched(Math.max(timeoutMs, MIN_CEILING_MS));
    return Promise.race([
      this.exit,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit. Screen:\n${this.text().slice(-1500)}`)), timeoutMs),
      ),
    ]);
  }

  kill(): void {
    try {
      this.pty.kill();
    } catch {
      // already gone
    }
  }
}

export const KEY = {
  enter: '\r',
  down: '\x1b[B',
  up: '\x1b[A',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlR: '\x12',
  tab: '\t',
};

/** The REPL's prompt in approve mode (the default), in the person's language. */
export const promptFor = (lang: 'en' | 'zh'): string => (lang === 'zh' ? 'zhi [确认]> ' : 'zhi [approve]> ');

/** What a terminal `cols` wide shows now: every byte so far with its redraws applied. */
export function screen(s: PtySession, cols = 100): string {
  const vt = new VirtualTerminal(cols);
  vt.write(s.raw());
  return vt.text();
}

/** Wait until the screen as drawn (redraws applied) satisfies `ok`; fail with it at the ceiling. */
export async function waitScreen(
  s: PtySession,
  cols: number,
  ok: (view: string) => boolean,
  what: string,
): Promise<string> {
  const start = Date.now();
  for (;;) {
    const view = screen(s, cols);
    if (ok(view)) return view;
    if (Date.now() - start > MIN_CEILING_MS)
      throw new Error(`Timed out waiting for ${what}. Screen:\n${view}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Type `line`, press Enter, and wait until zhi has handled it: the screen's last prompt line is a
 * new one, below the line submitted, and empty again. Waiting for the prompt's text alone is not
 * enough: typing a long line redraws the prompt with it before Enter is even read, and keys typed
 * while zhi works wait for the next prompt (an Enter among them does not send them).
 * Returns the output since the line was typed.
 */
export async function submit(s: PtySession, line: string, prompt: string): Promise<string> {
  const bare = prompt.trimEnd();
  const lastPrompt = (view: string) => {
    const lines = view.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (lines[i]!.startsWith(bare)) return { at: i, empty: lines[i]!.trimEnd() === bare };
    }
    return { at: -1, empty: false };
  };
  const cols = s.pty.cols;
  const before = lastPrompt(screen(s, cols)).at;
  const from = s.mark();
  s.write(line);
  s.write(KEY.enter);
  await waitScreen(
    s,
    cols,
    (view) => {
      const p = lastPrompt(view);
      return p.at > before && p.empty;
    },
    `the prompt after ${line}`,
  );
  return s.text().slice(from);
}
