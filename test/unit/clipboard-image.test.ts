import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readClipboardImage } from '../../src/cli/clipboard-image.js';
import { makePng } from '../helpers/media.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => cleanup(dir));

/** A clipboard tool on PATH that prints `out`. */
function tool(name: string, out: Buffer | string, status = 0): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(dir, 'out'), out);
  writeFileSync(join(bin, name), `#!/bin/sh\n/bin/cat "${join(dir, 'out')}"\nexit ${status}\n`);
  chmodSync(join(bin, name), 0o755);
  return bin;
}

describe.skipIf(process.platform === 'win32')('readClipboardImage', () => {
  it('saves the PNG xclip prints (X11) to a new temp file', () => {
    const png = makePng(2, 2);
    const bin = tool('xclip', png);
    const got = readClipboardImage({ PATH: bin, DISPLAY: ':0' }, 'linux', dir);
    expect(got.kind).toBe('image');
    if (got.kind === 'image') expect(readFileSync(got.file)).toEqual(png);
  });

  it('uses wl-paste under Wayland', () => {
    const bin = tool('wl-paste', makePng(2, 2));
    expect(readClipboardImage({ PATH: bin, WAYLAND_DISPLAY: 'wayland-0' }, 'linux', dir).kind).toBe('image');
  });

  it('no image: text on the clipboard, or the tool failing', () => {
    expect(readClipboardImage({ PATH: tool('xclip', 'just text'), DISPLAY: ':0' }, 'linux', dir)).toEqual({
      kind: 'no-image',
    });
    expect(readClipboardImage({ PATH: tool('xclip', '', 1), DISPLAY: ':0' }, 'linux', dir).kind).toBe(
      'no-image',
    );
  });

  it('no tool: names what to install on each platform', () => {
    const empty = join(dir, 'nothing');
    expect(readClipboardImage({ PATH: empty, DISPLAY: ':0' }, 'linux', dir)).toEqual({
      kind: 'no-tool',
      install: 'xclip',
    });
    expect(readClipboardImage({ PATH: empty, WAYLAND_DISPLAY: 'w' }, 'linux', dir)).toEqual({
      kind: 'no-tool',
      install: 'wl-clipboard (wl-paste)',
    });
    expect(readClipboardImage({ PATH: empty }, 'darwin', dir)).toMatchObject({ kind: 'no-tool' });
    expect(readClipboardImage({ PATH: empty, PATHEXT: '.EXE' }, 'win32', dir)).toMatchObject({
      kind: 'no-tool',
      install: 'Windows PowerShell (powershell.exe)',
    });
  });
});
