/**
 * Issue 37's sandbox cases through the real shell tool, as a person approving them would live it:
 * a descriptor the calling shell left open, places outside the working folder, root-only files,
 * and system calls outside the allow-list. Each command is approved with "y"; the tool result the
 * model got says what the command could do.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxState } from '../../src/tools/shell/sandbox.js';
import { useE2E } from '../helpers/e2e.js';
import { PROBE_REFUSED, syscallProbe } from '../helpers/syscall-probe.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

const e = useE2E();
const sandboxed = process.platform === 'linux' && sandboxState().kind === 'bwrap';
if (process.platform === 'linux' && !sandboxed) {
  console.warn(
    '[skip] issue 37 sandbox end-to-end tests: bubblewrap missing or unusable (apt-get install bubblewrap)',
  );
}

/** The tool results the model got, in order (the last request carries them all). */
const toolResults = (): string[] =>
  (e.fake.chatBodies().at(-1)?.messages ?? [])
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => m.content);

/** Run these commands through the shell tool, each approved with `answer`; the results come back. */
async function approved(
  commands: string[],
  o: { before?: string; answer?: string; onQuestion?: (screen: string) => void } = {},
): Promise<string[]> {
  e.fake.script(
    ...commands.map((command) => ({
      kind: 'tools' as const,
      calls: [{ name: 'shell', arguments: { command } }],
    })),
    { kind: 'text', text: 'Done.' },
  );
  const s = e.pty({ args: ['-c', 'go'], ...(o.before ? { before: o.before } : {}) });
  try {
    for (let i = 0; i < commands.length; i++) {
      const from = s.mark();
      await s.waitFor('Allow?', 30_000, from);
      o.onQuestion?.(s.text().slice(from));
      s.write(o.answer ?? 'y\r');
    }
    expect((await s.exited()).exitCode).toBe(0);
    return toolResults();
  } finally {
    s.kill();
  }
}

describe.runIf(sandboxed)('issue 37: what an approved command can reach', () => {
  it('a descriptor open when zhi started is not usable inside; /var/tmp, /srv, /opt, /run and /etc/shadow are not there', async () => {
    const outside = tempDir('zhi-outside-');
    const target = join(outside, 'target.txt');
    writeFileSync(target, 'untouched\n');
    try {
      const [fd, places] = await approved(
        [
          'echo owned >> /proc/self/fd/40; ls /proc/self/fd',
          'ls /var/tmp /srv /opt /run 2>&1; cat /etc/shadow | wc -c',
        ],
        { before: `exec 40>>${JSON.stringify(target)}` },
      );
      expect(readFileSync(target, 'utf8')).toBe('untouched\n');
      expect(fd).toMatch(/\/proc\/self\/fd\/40: (No such file|Directory nonexistent)/);
      expect(places).toMatch(/\/srv.*No such file/);
      expect(places).toMatch(/\/opt.*No such file/);
      expect(places).toMatch(/\/run.*No such file/);
      expect(places).toMatch(/stdout:\n[\s\S]*\b0$/m);
    } finally {
      cleanup(outside);
    }
  });

  it('io_uring, the session keyring, AF_VSOCK and AF_UNIX sockets are refused inside; socketpair works', async () => {
    writeFileSync(join(e.cwd, 'probe.py'), syscallProbe());
    const [probe] = await approved(['python3 probe.py']);
    for (const line of PROBE_REFUSED) expect(probe).toMatch(line);
  });

  it('"also reach the internet" cannot reach this computer: the fake API on 127.0.0.1 gets nothing', async () => {
    const url = `${e.fake.baseUrl.replace(/\/api.*$/, '')}/ping`;
    const before = e.fake.chatBodies().length;
    let question = '';
    const [direct, around] = await approved(
      [`curl -sS -m 10 -o /dev/null -w "%{http_code}" ${url}`, `curl -sS -m 10 --noproxy '*' ${url}`],
      { answer: 'i\r', onQuestion: (q) => (question = q) },
    );
    // The choices wrap at words to the window: compared without line breaks and spaces.
    const squeeze = (x: string) => x.replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, '');
    expect(squeeze(question)).toContain(
      squeeze('i = also reach the internet (through a filter: no local or private addresses)'),
    );
    expect(direct).toMatch(/stdout:\n403/);
    expect(around).toMatch(/Exit code: [1-9]/);
    expect(direct).toContain('through a filtering proxy');
    expect(direct).toMatch(/The network filter refused[^\n]*\n.*127\.0\.0\.1/);
    // Three model calls and nothing else: neither curl reached the server.
    expect(e.fake.chatBodies().length - before).toBe(3);
    expect(e.fake.requests.filter((r) => r.path.includes('/ping'))).toEqual([]);
  });
});
