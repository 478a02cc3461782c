/**
 * The macOS Seatbelt profile cannot run here; this checks the profile zhi generates for a real
 * policy (policyFor, with the one secrets list) holds the same rules as the Linux sandbox: the
 * same secrets hidden, the same write area, no unix sockets, no network unless allowed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { policyFor } from '../../src/tools/shell/sandbox.js';
import {
  bwrapArgs,
  type SandboxPolicy,
  seatbeltArgs,
  seatbeltProfile,
} from '../../src/tools/shell/sandbox-args.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let root = '';
let home = '';
let savedHome: string | undefined;
let env: NodeJS.ProcessEnv = {};

function touch(path: string, text = 'secret'): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

beforeEach(() => {
  root = tempDir('zhi-seatbelt-');
  home = join(root, 'Users', 'ann');
  for (const f of [
    '.ssh/id_ed25519',
    '.netrc',
    '.config/gh/hosts.yml',
    '.aws/credentials',
    '.bash_history',
    '.pgpass',
  ])
    touch(join(home, f));
  touch(join(home, 'work', '.env'));
  touch(join(home, 'work', 'zhi-output', 'earlier.md'), 'an earlier result');
  mkdirSync(join(home, '.zhi'), { recursive: true });
  savedHome = process.env.HOME;
  process.env.HOME = home;
  env = { HOME: home, ZHI_HOME: join(home, '.zhi') };
  return () => {
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
    cleanup(root);
  };
});

function policies(over: { allowNetwork?: boolean } = {}): { linux: SandboxPolicy; mac: SandboxPolicy } {
  const opts = {
    cwd: join(home, 'work'),
    outputDir: join(home, 'work', 'zhi-output'),
    timeoutMs: 1000,
    maxBytes: 1000,
    ...over,
  };
  return {
    linux: policyFor(opts, '/tmp', env, 'linux'),
    mac: policyFor(opts, join(root, 'tmp'), env, 'darwin'),
  };
}

/** The value of `-D NAME=value` in sandbox-exec's arguments. */
function param(args: string[], name: string): string | undefined {
  return args.find((a, i) => args[i - 1] === '-D' && a.startsWith(`${name}=`))?.slice(name.length + 1);
}

describe('the Seatbelt profile holds the Linux rules', () => {
  it('hides the same secrets as bubblewrap, each denied for reading by its parameter', () => {
    const { linux, mac } = policies();
    expect(mac.hidden).toEqual(linux.hidden);
    const hidden = mac.hidden.map((h) => h.path);
    const under = (dir: string, p: string) => p === dir || p.startsWith(`${dir}/`);
    const visible = [mac.cwd, ...(mac.shown ?? []), ...mac.writable, ...mac.extraReadable];
    // Each secret is denied by name, or lies in a hidden home folder that nothing shows again.
    for (const f of ['.ssh', '.netrc', '.config/gh', '.aws', '.bash_history', '.pgpass', '.zhi']) {
      const path = join(home, f);
      const byName = hidden.some((h) => under(h, path));
      const byRoot =
        (mac.privateRoots ?? []).some((r) => under(r, path)) && !visible.some((v) => under(v, path));
      expect(byName || byRoot, f).toBe(true);
    }
    expect(hidden).toContain(join(home, 'work', '.env'));
    const args = seatbeltArgs(mac);
    const profile = seatbeltProfile(mac);
    const denyRead = profile.split('\n').find((l) => l.startsWith('(deny file-read* '))!;
    mac.hidden.forEach((h, i) => {
      expect(param(args, `H${i}`)).toBe(h.path);
      expect(denyRead).toContain(h.dir ? `(subpath (param "H${i}"))` : `(literal (param "H${i}"))`);
    });
    // Every path bubblewrap hides is hidden on macOS too.
    const bw = bwrapArgs(linux);
    for (const h of linux.hidden) expect(bw).toContain(h.path);
  });

  it('writes only to the output folder and its private temp folder, never over an earlier result', () => {
    const { linux, mac } = policies();
    expect(mac.writable).toEqual(linux.writable);
    const args = seatbeltArgs(mac);
    const profile = seatbeltProfile(mac);
    expect(param(args, 'W0')).toBe(join(home, 'work', 'zhi-output'));
    expect(param(args, 'W1')).toBeUndefined();
    expect(param(args, 'TMP')).toBe(join(root, 'tmp'));
    expect(profile).toMatch(
      /^\(deny file-write\* \(require-not \(require-any \(subpath \(param "W0"\)\) \(subpath \(param "TMP"\)\)/m,
    );
    const earlier = mac.protected!.findIndex((p) => p.path.endsWith('earlier.md'));
    expect(earlier).toBeGreaterThanOrEqual(0);
    expect(profile).toContain(`(deny file-write* `);
    expect(profile).toContain(`(literal (param "P${earlier}"))`);
  });

  it('hides the home folders but the current folder and installed programs', () => {
    const { mac } = policies();
    const args = seatbeltArgs(mac);
    expect(mac.privateRoots!.map((_, i) => param(args, `X${i}`))).toContain(home);
    // Other drives and the shared temp folder are not read (issue 37).
    expect(mac.privateRoots).toEqual(expect.arrayContaining(['/Volumes', '/private/var/tmp']));
    expect(seatbeltProfile(mac)).toMatch(/\(allow file-read-data .*\(subpath \(param "CWD"\)\)/);
    expect(param(args, 'CWD')).toBe(join(home, 'work'));
  });

  it('reaches no unix socket, no other program by Apple Events, and no network unless allowed', () => {
    const closed = seatbeltProfile(policies().mac);
    expect(closed).toContain('(deny network-outbound (remote unix-socket))');
    expect(closed).toContain('(deny appleevent-send)');
    expect(closed).toContain('(deny network-outbound (remote ip))');
    expect(closed).toContain('(deny network-bind (local ip))');
    const open = seatbeltProfile(policies({ allowNetwork: true }).mac);
    expect(open).toContain('(deny network-outbound (remote unix-socket))');
    expect(open).not.toContain('(remote ip)');
  });

  it('never splices a path into the profile text', () => {
    const { mac } = policies();
    const profile = seatbeltProfile(mac);
    expect(profile).not.toContain(home);
    expect(profile).not.toContain(root);
  });
});
