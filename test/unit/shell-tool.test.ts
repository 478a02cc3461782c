import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  descendants,
  type ProcessTools,
  parseTable,
  stopWindowsTree,
} from '../../src/tools/shell/kill-windows.js';
import { runCommand } from '../../src/tools/shell/run.js';
import shell, { visible } from '../../src/tools/shell/shell.js';
import type { ToolContext, ToolResult } from '../../src/tools/types.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const unix = process.platform !== 'win32';
let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-shell-');
});
afterEach(() => cleanup(dir));

const ctx = (over: Partial<ToolContext> = {}): ToolContext =>
  toolContext({ cwd: dir, outputDir: join(dir, 'zhi-output'), ...over });

/** Running (a killed process waiting to be reaped, a zombie, counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}

describe.runIf(unix)('runCommand', () => {
  it('captures stdout, stderr and the exit code, in the given folder', async () => {
    const r = await runCommand('pwd; echo oops >&2; exit 3', { cwd: dir, timeoutMs: 5000, maxBytes: 1000 });
    expect(r.exitCode).toBe(3);
    expect(r.stdout.trim()).toMatch(new RegExp(`${dir.split('/').pop()}$`));
    expect(r.stderr).toBe('oops\n');
    expect(r.timedOut).toBe(false);
  });

  it('kills the whole process group on timeout, background children included', async () => {
    const pidFile = join(dir, 'child.pid');
    const r = await runCommand(`sleep 30 & echo $! > ${pidFile}; sleep 30`, {
      cwd: dir,
      timeoutMs: 300,
      maxBytes: 1000,
      killGraceMs: 200,
    });
    expect(r.timedOut).toBe(true);
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(child).toBeGreaterThan(0);
    expect(await waitFor(() => !alive(child))).toBe(true);
  });

  it('stops what a finished command left running in the background', async () => {
    const pidFile = join(dir, 'bg.pid');
    const r = await runCommand(`sleep 30 & echo $! > ${pidFile}; echo started`, {
      cwd: dir,
      timeoutMs: 20_000,
      maxBytes: 1000,
    });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('started\n');
    expect(r.leftovers).toBe(true);
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitFor(() => !alive(child))).toBe(true);
  });

  it('a command that leaves nothing behind is not reported as such', async () => {
    const r = await runCommand('echo a', { cwd: dir, timeoutMs: 5000, maxBytes: 1000 });
    expect(r.leftovers).toBe(false);
  });

  it('stops on abort (Ctrl+C)', async () => {
    const abort = new AbortController();
    const p = runCommand('sleep 30', { cwd: dir, timeoutMs: 30_000, maxBytes: 1000, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    const r = await p;
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
  });

  it('keeps only the first bytes of a flood and counts the rest', async () => {
    const r = await runCommand('yes 0123456789 | head -c 300000', {
      cwd: dir,
      timeoutMs: 10_000,
      maxBytes: 1000,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBe(1000);
    expect(r.totalBytes).toBe(300_000);
    expect(r.droppedBytes).toBe(299_000);
  });
});

describe.runIf(unix)('the shell tool', () => {
  it('reports the exit code and both streams', async () => {
    const out = (await shell.execute(
      { command: 'echo hello; echo bad >&2; false', timeout: 5 },
      ctx(),
    )) as ToolResult;
    // A non-zero exit is a failed call (issue 30: the person saw ✓ above the error).
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/^Exit code: 1 \(/);
    expect(out.content).toContain('stdout:\nhello');
    expect(out.content).toContain('stderr:\nbad');
  });

  it('says when the output was capped at 100 KB', async () => {
    const out = (await shell.execute(
      { command: 'yes abcdefghi | head -c 250000', timeout: 10 },
      ctx(),
    )) as ToolResult;
    expect(out.content).toMatch(/\[output truncated: kept the first 100 KB of 244 KB/);
    expect(Buffer.byteLength(out.content)).toBeLessThan(110 * 1024);
  });

  it('a timeout is an error the model can read, and the command is stopped', async () => {
    // In the output folder: the one place a sandboxed command may write.
    mkdirSync(join(dir, 'zhi-output'), { recursive: true });
    const marker = join(dir, 'zhi-output', 'late.txt');
    // An argument no other process has, so the process table says whether this sleep still runs.
    const seconds = `30.${process.pid}`;
    const out = (await shell.execute(
      { command: `sleep ${seconds}; touch ${marker}`, timeout: 1 },
      ctx(),
    )) as ToolResult;
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/did not finish within 1 s and was stopped/);
    // Stopped means gone: a sleep left running would still be in the table when the wait ends
    // (it has 30 s to go; the wait gives up after 15), however slow the machine.
    const running = () => sleepsWith(seconds);
    for (let waited = 0; running() && waited < 15_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('does not pass the API key to commands', async () => {
    process.env.ZHI_API_KEY = 'secret-key-123';
    try {
      const out = (await shell.execute(
        { command: 'echo "key=[$ZHI_API_KEY]"', timeout: 5 },
        ctx(),
      )) as ToolResult;
      expect(out.content).toContain('key=[]');
    } finally {
      delete process.env.ZHI_API_KEY;
    }
  });
});

/** Whether a `sleep <seconds>` process runs (Linux's process table). */
function sleepsWith(seconds: string): boolean {
  if (!existsSync('/proc/self/cmdline')) return false; // no process table to read (not Linux)
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv.includes(seconds) && argv.some((a) => a.endsWith('sleep'))) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

describe('schema, preview and assessment', () => {
  it('timeout defaults to 30 and must be 1-300', () => {
    expect(shell.schema.parse({ command: 'ls' })).toEqual({ command: 'ls', timeout: 30 });
    expect(shell.schema.safeParse({ command: 'ls', timeout: 0 }).success).toBe(false);
    expect(shell.schema.safeParse({ command: 'ls', timeout: 301 }).success).toBe(false);
    expect(shell.schema.safeParse({ command: '   ' }).success).toBe(false);
  });

  it('the preview shows the command with control characters made visible; a long line is cut with a way to see all', async () => {
    const long = `echo ${'x'.repeat(3000)}`;
    const shown = shell.preview!({ command: long, timeout: 30 });
    expect(shown).toMatch(/^\$ echo x{393} … 2607 more characters — v to view all$/);
    expect((await shell.assess!({ command: long, timeout: 30 }, ctx())).full).toBe(`$ ${long}`);
    const sneaky = 'rm -rf ~/Documents\u001b[2K\recho harmless';
    expect(shell.preview!({ command: sneaky, timeout: 30 })).toBe('$ rm -rf ~/Documents␛[2K\\recho harmless');
    expect(shell.preview!({ command: 'ls', timeout: 90 })).toBe('$ ls\ntime limit: 90 s');
    expect(shell.preview!({ command: 'ls', timeout: 30 }, ctx())).toBe(`$ ls\nin folder: ${dir}`);
    expect(visible('a\u202eb')).toBe('a\\u202eb');
  });

  it('numbers the lines of a multi-line command and folds a long one, so the warning stays on screen', async () => {
    const padded = `rm -rf thesis${'\n'.repeat(40)}ls -la`;
    const preview = shell.preview!({ command: padded, timeout: 30 }).split('\n');
    // Forty empty lines are one line of the preview: both real lines stay in sight.
    expect(preview).toEqual([' 1 │ rm -rf thesis', '  ┆ … 39 empty lines …', '41 │ ls -la']);
    // Padding hidden in a long script: the last lines are always shown after the fold.
    const script = [
      'echo hello',
      ...Array.from({ length: 30 }, (_, i) => `echo step ${i}`),
      'tar czf zhi-output/d.tgz ~/Documents',
    ];
    const long = shell.preview!({ command: script.join('\n'), timeout: 30 }).split('\n');
    expect(long).toHaveLength(9);
    expect(long[6]).toBe('… 24 more lines — v to view all');
    expect(long[8]).toBe('32 │ tar czf zhi-output/d.tgz ~/Documents');
    const a = await shell.assess!({ command: padded, timeout: 30 }, ctx());
    expect(a.warning).toContain('deletes files (rm)');
    expect(a.full!.split('\n')).toHaveLength(41);
    expect(a.full!.split('\n')[40]).toBe('41 │ ls -la');
    expect(shell.preview!({ command: 'cd x\nls', timeout: 30 })).toBe('1 │ cd x\n2 │ ls');
  });

  it('refuses a command holding control characters or escape sequences, naming them', async () => {
    for (const command of ['ls\u001b[?7l', 'echo ok\rrm -rf x', 'ls \u202e', 'ls\u0007']) {
      const a = await shell.assess!({ command, timeout: 30 }, ctx());
      expect(a.refuse, command).toMatch(/control characters or escape sequences/);
    }
    expect((await shell.assess!({ command: 'ls\u001b[?7l', timeout: 30 }, ctx())).refuse).toContain('␛');
    expect(
      (await shell.assess!({ command: 'printf "a\tb"\nls', timeout: 30 }, ctx())).refuse,
    ).toBeUndefined();
  });

  it('assess refuses catastrophic commands and warns on destructive ones', async () => {
    expect((await shell.assess!({ command: 'rm -rf ~', timeout: 30 }, ctx())).refuse).toBeTruthy();
    const warned = await shell.assess!({ command: 'rm old.txt', timeout: 30 }, ctx());
    expect(warned.refuse).toBeUndefined();
    expect(warned.warning).toContain('deletes files (rm)');
    expect(shell.kind).toBe('shell');
  });
});

describe('Windows: the whole tree is stopped, and the report is truthful', () => {
  type Call = [string, string[]];
  const fakeTools = (answers: (file: string, args: string[]) => { code: number | null; stdout: string }) => {
    const calls: Call[] = [];
    const tools: ProcessTools = {
      run: async (file, args) => {
        calls.push([file, args]);
        return answers(file, args);
      },
    };
    return { calls, tools };
  };

  /** A process table that changes as taskkill ends processes (those in `stubborn` never go). */
  const machine = (table: [pid: number, ppid: number][], stubborn: number[] = [], wmic = true) => {
    const alive = new Map(table);
    return fakeTools((file, args) => {
      if (file === 'wmic') {
        if (!wmic) return { code: null, stdout: '' };
        const rows = [...alive].map(([pid, ppid]) => `${ppid}  ${pid}`);
        return { code: 0, stdout: ['ParentProcessId  ProcessId', ...rows].join('\r\n') };
      }
      if (file === 'powershell.exe') {
        return { code: 0, stdout: [...alive].map(([pid, ppid]) => `${ppid} ${pid}`).join('\r\n') };
      }
      const pid = Number(args[1]);
      if (stubborn.includes(pid)) return { code: 1, stdout: '' };
      // /T: the process and everything below it.
      const gone = [pid, ...[...alive].filter(([, ppid]) => ppid === pid).map(([p]) => p)];
      for (const p of gone) alive.delete(p);
      return { code: 0, stdout: '' };
    });
  };

  it('ends the live tree of cmd.exe and checks that it is gone', async () => {
    const { calls, tools } = machine([
      [1, 0],
      [4242, 1],
      [5001, 4242],
      [6001, 5001],
    ]);
    const r = await stopWindowsTree(4242, true, { ...tools, sleep: async () => {} });
    expect(r).toEqual({ stopped: true, ended: 3, verified: true });
    expect(calls.find((c) => c[0] === 'taskkill')).toEqual(['taskkill', ['/PID', '4242', '/T', '/F']]);
    expect(calls.filter((c) => c[0] === 'wmic').length).toBeGreaterThanOrEqual(2);
  });

  it('once cmd.exe has exited, finds what it left (start /b) by parent id and ends each tree', async () => {
    const { calls, tools } = machine([
      [5001, 4242],
      [5002, 4242],
      [7000, 1],
    ]);
    const r = await stopWindowsTree(4242, false, { ...tools, sleep: async () => {} });
    expect(r).toEqual({ stopped: true, ended: 2, verified: true });
    expect(calls.filter((c) => c[0] === 'taskkill').map((c) => c[1][1])).toEqual(['5001', '5002']);
  });

  it('says so when something is still running after taskkill, or when nothing could be checked', async () => {
    const { tools } = machine(
      [
        [5001, 4242],
        [5002, 4242],
      ],
      [5002],
    );
    expect(await stopWindowsTree(4242, false, { ...tools, sleep: async () => {} })).toEqual({
      stopped: false,
      ended: 1,
      verified: true,
    });
    // taskkill's exit code alone is not believed: a process it "ended" that is still there counts.
    const liar = machine([[5001, 4242]]);
    const lying: ProcessTools = {
      run: async (file, args) => (file === 'taskkill' ? { code: 0, stdout: '' } : liar.tools.run(file, args)),
      sleep: async () => {},
    };
    expect((await stopWindowsTree(4242, false, lying)).stopped).toBe(false);
    const { tools: none } = fakeTools(() => ({ code: null, stdout: '' }));
    expect(await stopWindowsTree(4242, false, none)).toEqual({ stopped: false, ended: 0, verified: false });
  });

  it('reads the table from PowerShell when wmic is missing, and wmic in any column order', async () => {
    const { tools } = machine(
      [
        [1, 0],
        [5001, 4242],
      ],
      [],
      false,
    );
    expect((await stopWindowsTree(4242, false, { ...tools, sleep: async () => {} })).stopped).toBe(true);
    expect([...parseTable('ProcessId ParentProcessId\r\n10 4\r\n11 10\r\n')]).toEqual([
      [10, 4],
      [11, 10],
    ]);
    expect(descendants(parseTable('1 10\n10 11\n11 12\n1 13'), 10)).toEqual([11, 12]);
  });

  it.runIf(unix)(
    'a timeout on Windows calls taskkill on the live shell, and a failure is reported',
    async () => {
      const { calls, tools } = fakeTools(() => ({ code: 1, stdout: '' }));
      const r = await runCommand('sleep 2', {
        cwd: dir,
        timeoutMs: 200,
        maxBytes: 1000,
        platform: 'win32',
        processTools: tools,
        killGraceMs: 300,
      });
      expect(calls.find((c) => c[0] === 'taskkill')).toEqual([
        'taskkill',
        ['/PID', expect.any(String), '/T', '/F'],
      ]);
      expect(r.timedOut).toBe(true);
      expect(r.stopFailed).toBe(true);
    },
  );
});
