/** zhi's REPL in a real pseudo-terminal against the fake server, for the rows that drive it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IPty, spawn } from 'node-pty';
import { TEST_KEY } from '../../../test/fake-zhipu/server.js';
import { cpuOfPid } from './floors.js';
import { zhi } from './run-zhi.js';

const PROMPT = /zhi \[(approve|auto)\]>/g;
const ESC = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]/g;

export class Term {
  readonly pty: IPty;
  readonly home: string;
  readonly started = performance.now();
  /** Bytes zhi wrote to the terminal so far. */
  bytes = 0;
  /** Output with escape codes removed; only its end is searched, so waiting costs little. */
  private plain = '';
  private promptCount = 0;
  private want = '';
  private seenText = false;

  constructor(
    baseUrl: string,
    o: { cols?: number; rows?: number; env?: Record<string, string>; nodeArgs?: string[] } = {},
  ) {
    this.home = mkdtempSync(join(tmpdir(), 'zhi-bench-term-'));
    // A real user has a config file (the wizard writes one), so the YAML parser is part of start-up.
    writeFileSync(
      join(this.home, 'config.yaml'),
      'platform: bigmodel\ndefault_model: glm-5\nlanguage: auto\n',
    );
    this.pty = spawn(process.execPath, [...(o.nodeArgs ?? []), zhi], {
      name: 'xterm-256color',
      cols: o.cols ?? 120,
      rows: o.rows ?? 40,
      cwd: this.home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: this.home,
        ZHI_HOME: this.home,
        ZHI_API_KEY: TEST_KEY,
        ZHI_BASE_URL: baseUrl,
        ZHI_LANGUAGE: 'en',
        // The prompt count reads the last line; the status line would sit below it.
        ZHI_STATUS_LINE: 'off',
        TERM: 'xterm-256color',
        ...o.env,
      },
    });
    this.pty.onData((d) => {
      this.bytes += Buffer.byteLength(d, 'utf8');
      const tail = this.plain.slice(-40);
      this.plain = tail + d.replace(ESC, '');
      this.promptCount += this.plain.match(PROMPT)?.length ?? 0;
      this.promptCount -= tail.match(PROMPT)?.length ?? 0;
      this.seenText ||= this.want !== '' && this.plain.includes(this.want);
    });
  }

  prompts(): number {
    return this.promptCount;
  }

  /** Start watching for `text` (escape codes between its characters ignored). */
  watch(text: string): void {
    this.want = text;
    this.seenText = false;
  }

  seen(): boolean {
    return this.seenText;
  }

  async until(test: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
    const start = performance.now();
    while (!test()) {
      if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /** Type a message and wait for the next prompt. */
  async turn(text: string, timeoutMs = 120_000): Promise<void> {
    const before = this.prompts();
    this.pty.write(`${text}\r`);
    await this.until(() => this.prompts() > before, 'the answer to finish', timeoutMs);
  }

  /** Stop zhi, and remove its home once it has exited (it saves its session as it goes). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(ceiling);
        rmSync(this.home, { recursive: true, force: true });
        resolve();
      };
      const ceiling = setTimeout(done, 5000);
      this.pty.onExit(done);
      this.pty.kill();
    });
  }
}

/** A REPL ready for input. */
export async function openTerm(baseUrl: string, o?: ConstructorParameters<typeof Term>[1]): Promise<Term> {
  const term = new Term(baseUrl, o);
  await term.until(() => term.prompts() >= 1, 'the prompt', 20_000);
  return term;
}

/**
 * Wait until the process has used no CPU for `quietMs` (a person types their first message for a
 * few seconds; on a loaded machine the work zhi does meanwhile takes longer in wall time).
 */
export async function untilQuiet(pid: number, quietMs = 300, maxMs = 15_000): Promise<void> {
  const start = performance.now();
  let last = cpuOfPid(pid);
  while (performance.now() - start < maxMs) {
    await sleep(quietMs);
    const now = cpuOfPid(pid);
    if (now === last) return;
    last = now;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
