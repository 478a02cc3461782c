/**
 * Issue 38 point 5 under Wine: zhi-sandbox.exe (native/win-sandbox/) runs a command line in a
 * Job Object, so a stop, zhi going away or the helper's end takes the whole tree with it.
 * Skipped with a reason where Wine or a Windows node.exe is missing (test/helpers/wine.ts).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stretched } from '../helpers/slowdown.js';
import { missing, wineScript, winPath } from '../helpers/wine.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const root = resolve(import.meta.dirname, '../..');

/** Processes Wine runs for the command, still alive (not yet reaped zombies): none may remain. */
function livePings(): string[] {
  const ps = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => /ping/i.test(l) && !/^Z/.test(l.trim()) && /127\.0\.0\.9/.test(l));
}

/**
 * Issue 38 point 5: zhi-sandbox.exe (native/win-sandbox/) runs the line in a Job Object. Under
 * Wine, what `start /b` leaves running is ended with the rest at the time limit, at once, and the
 * helper counts the job empty; the restricted token is set up (Wine does not enforce ACLs, so
 * only that it starts and runs is checked here).
 */
describe.skipIf(Boolean(missing))('the Job Object helper under Wine', () => {
  it(
    'stops the whole tree at the time limit at once, and ends what the command left behind',
    async () => {
      const dir = tempDir('zhi-wine-job-');
      try {
        const helper = winPath(join(root, 'native/win-sandbox/zhi-sandbox.exe'));
        // 127.0.0.9: this test's pings, told apart from anything else on the machine.
        const tree = 'echo before & start /b ping -n 60 127.0.0.9 & ping -n 60 127.0.0.9 > nul';
        const r = await wineScript(
          dir,
          'run.mjs',
          `import { runCommand } from ${JSON.stringify(join(root, 'src/tools/shell/run.ts'))};
            import { mkdirSync } from 'node:fs';
            const job = { jobHelper: { file: ${JSON.stringify(helper)}, request: { maxProcesses: 256 } } };
            const o = { cwd: process.cwd(), maxBytes: 10000, ...job };
            const out = {};
            out.exit = await runCommand('echo hi & exit 7', { ...o, timeoutMs: 20000 });
            out.tree = await runCommand(${JSON.stringify(tree)}, { ...o, timeoutMs: 3000 });
            out.left = await runCommand('echo a & start /b ping -n 60 127.0.0.9 > nul', { ...o, timeoutMs: 20000 });
            out.missing = await runCommand('echo plain', { ...o, jobHelper: { file: 'Z:\\\\no-such-helper.exe' }, timeoutMs: 20000 });
            mkdirSync('zhi-output');
            const writable = [process.cwd() + '\\\\zhi-output'];
            out.restricted = await runCommand('echo x > zhi-output\\\\a.txt & echo done', { ...o, jobHelper: { file: ${JSON.stringify(helper)}, request: { writable } }, timeoutMs: 20000 });
            out.old = await runCommand(${JSON.stringify(tree.replaceAll('127.0.0.9', '127.0.0.8'))}, { cwd: process.cwd(), maxBytes: 10000, timeoutMs: 3000 });
            console.log(JSON.stringify(out));`,
        );
        const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
        expect(out.exit, r.stderr).toMatchObject({ exitCode: 7, stdout: 'hi \n', timedOut: false });
        // Stopped at 3 s with everything it started, checked by the job's own count.
        expect(out.tree).toMatchObject({ timedOut: true, stdout: 'before \n' });
        expect(out.tree.stopFailed).toBeUndefined();
        const stopMs = out.tree.durationMs - 3000;
        expect(stopMs).toBeLessThan(1500);
        // What `start /b` left is ended half a second after the shell, and said.
        expect(out.left).toMatchObject({ exitCode: 0, leftovers: true, timedOut: false });
        expect(out.left.durationMs).toBeLessThan(5000);
        expect(livePings()).toEqual([]);
        // Without the helper (or with a broken one) the command still runs, the way it did before.
        expect(out.missing).toMatchObject({ exitCode: 0, stdout: 'plain\n' });
        // The restricted token is made and the command runs under it (what it may write: not checked).
        expect(out.restricted).toMatchObject({ exitCode: 0, stdout: 'done\n' });
        expect(out.restricted.helperError).toBeUndefined();
        console.log(
          `Job Object stop under Wine: ${stopMs} ms after the time limit (taskkill path: ${out.old.durationMs - 3000} ms, ${out.old.stopFailed ? 'not confirmed' : 'confirmed'})`,
        );
      } finally {
        cleanup(dir);
      }
    },
    stretched(240_000),
  );
});

describe.skipIf(Boolean(missing))('the Job Object helper when zhi dies', () => {
  it(
    'ends the whole tree with zhi: its end of the control pipe closes',
    async () => {
      const dir = tempDir('zhi-wine-die-');
      try {
        const helper = winPath(join(root, 'native/win-sandbox/zhi-sandbox.exe'));
        await wineScript(
          dir,
          'die.mjs',
          `import { runCommand } from ${JSON.stringify(join(root, 'src/tools/shell/run.ts'))};
            void runCommand('start /b ping -n 60 127.0.0.7 & ping -n 60 127.0.0.7 > nul', {
              cwd: process.cwd(), maxBytes: 1000, timeoutMs: 60000, jobHelper: { file: ${JSON.stringify(helper)} } });
            // zhi goes away without stopping anything (a crash, a closed window).
            setTimeout(() => process.exit(0), 3000);`,
        );
        await new Promise((r) => setTimeout(r, 1000));
        const ps = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
        expect(ps.split('\n').filter((l) => /127\.0\.0\.7/.test(l) && !/^Z/.test(l.trim()))).toEqual([]);
      } finally {
        cleanup(dir);
      }
    },
    stretched(120_000),
  );
});
