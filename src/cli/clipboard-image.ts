/**
 * An image on the clipboard, saved as a PNG file (Ctrl+V and /paste in the REPL), read with what
 * the platform has: PowerShell's Get-Clipboard on Windows, pngpaste or osascript on a Mac,
 * wl-paste (Wayland) or xclip (X11) on Linux. The file is new, private and in the temp folder;
 * the caller deletes it once the image is attached.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPath } from './external-editor.js';

export type ClipboardImage =
  | { kind: 'image'; file: string; bytes: number }
  /** No tool to read the clipboard with; `install` names what would do. */
  | { kind: 'no-tool'; install: string }
  /** The clipboard holds something else (text, or nothing). */
  | { kind: 'no-image' };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TIMEOUT_MS = 10_000;
/** More than any screenshot; the vision check refuses what it cannot send anyway. */
const MAX_BYTES = 64 * 1024 * 1024;

interface Reader {
  /** Program that must be on PATH. */
  tool: string;
  /** Write the clipboard's PNG to `file`; false when there is no image. */
  read(file: string, env: NodeJS.ProcessEnv): boolean;
}

/** Run a tool that prints the PNG on stdout. */
function toStdout(cmd: string, args: string[]) {
  return (file: string, env: NodeJS.ProcessEnv): boolean => {
    const r = spawnSync(cmd, args, {
      env,
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_BYTES,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    if (r.error || r.status !== 0 || !r.stdout?.length) return false;
    writeFileSync(file, r.stdout, { mode: 0o600, flag: 'wx' });
    return true;
  };
}

/** Run a tool that writes the PNG into the file itself. */
function toFile(cmd: string, args: (file: string) => string[]) {
  return (file: string, env: NodeJS.ProcessEnv): boolean => {
    const r = spawnSync(cmd, args(file), { env, timeout: TIMEOUT_MS, stdio: 'ignore' });
    return !r.error && r.status === 0;
  };
}

/** Single quotes for PowerShell and AppleScript strings of a temp path (it holds none itself). */
const psQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

function readers(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Reader[] {
  if (platform === 'win32') {
    const script = (file: string) =>
      [
        'Add-Type -AssemblyName System.Drawing;',
        '$i = Get-Clipboard -Format Image;',
        'if (-not $i) { exit 3 };',
        `$i.Save(${psQuote(file)}, [System.Drawing.Imaging.ImageFormat]::Png)`,
      ].join(' ');
    return [
      {
        tool: 'powershell',
        read: toFile('powershell', (f) => ['-NoProfile', '-NonInteractive', '-STA', '-Command', script(f)]),
      },
    ];
  }
  if (platform === 'darwin') {
    const apple = (file: string) => [
      '-e',
      'set png to (the clipboard as «class PNGf»)',
      '-e',
      `set f to open for access (POSIX file "${file.replace(/["\\]/g, '')}") with write permission`,
      '-e',
      'write png to f',
      '-e',
      'close access f',
    ];
    return [
      { tool: 'pngpaste', read: toFile('pngpaste', (f) => [f]) },
      { tool: 'osascript', read: toFile('osascript', apple) },
    ];
  }
  const out: Reader[] = [];
  if (env.WAYLAND_DISPLAY)
    out.push({ tool: 'wl-paste', read: toStdout('wl-paste', ['--no-newline', '--type', 'image/png']) });
  if (env.DISPLAY || !env.WAYLAND_DISPLAY)
    out.push({
      tool: 'xclip',
      read: toStdout('xclip', ['-selection', 'clipboard', '-t', 'image/png', '-o']),
    });
  return out;
}

/** What to install for this platform when no reader is there. */
function installHint(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'Windows PowerShell (powershell.exe)';
  if (platform === 'darwin') return 'pngpaste (brew install pngpaste)';
  return env.WAYLAND_DISPLAY ? 'wl-clipboard (wl-paste)' : 'xclip';
}

/** Read the clipboard's image into a new temp PNG file. */
export function readClipboardImage(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  dir = tmpdir(),
): ClipboardImage {
  const usable = readers(env, platform).filter((r) => onPath(r.tool, env, platform));
  if (!usable.length) return { kind: 'no-tool', install: installHint(env, platform) };
  for (const reader of usable) {
    const file = join(dir, `zhi-clipboard-${randomBytes(6).toString('hex')}.png`);
    try {
      if (reader.read(file, env) && isPng(file)) return { kind: 'image', file, bytes: statSync(file).size };
    } catch {
      // this reader failed; the next may work
    }
    rmSync(file, { force: true });
  }
  return { kind: 'no-image' };
}

function isPng(file: string): boolean {
  try {
    return readFileSync(file).subarray(0, 8).equals(PNG_MAGIC);
  } catch {
    return false;
  }
}
