/** `zhi serve` started for a bench row against the fake API, in a home of its own. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeZhipu, TEST_KEY } from '../../../test/fake-zhipu/server.js';
import { zhi } from './run-zhi.js';

export interface Serve {
  /** The page's address with its secret: the first line `zhi serve` prints. */
  url: string;
  child: ChildProcess;
  /** When that line was read (performance.now()). */
  printedAt: number;
  stop(): Promise<void>;
}

export async function startServe(fake: FakeZhipu): Promise<Serve> {
  const home = mkdtempSync(join(tmpdir(), 'zhi-bench-serve-'));
  const child = spawn(process.execPath, [zhi, 'serve'], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ZHI_HOME: home,
      ZHI_API_KEY: TEST_KEY,
      ZHI_BASE_URL: fake.baseUrl,
      ZHI_LANGUAGE: 'en',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`zhi serve exited ${code}`)));
  });
  const printedAt = performance.now();
  return {
    url,
    child,
    printedAt,
    stop: async () => {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
      rmSync(home, { recursive: true, force: true });
    },
  };
}
