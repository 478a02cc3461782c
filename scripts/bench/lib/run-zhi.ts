/** Shared by the bench rows that run the built zhi as a child process. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const zhi = join(process.cwd(), 'dist/zhi.js');

/** Run zhi to the end without a terminal or piped input (the fake server answers from this process). */
export function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [zhi, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`zhi ${args.join(' ')}: exit ${code}\n${err}`)),
    );
  });
}
