/**
 * File descriptors zhi inherited and has no use for (issue 37): a shell that ran `exec 5>/x`
 * before starting zhi hands fd 5 to zhi, and Node (libuv) passes every descriptor not marked
 * close-on-exec on to each child it starts — through bubblewrap into the sandbox, where
 * `/proc/self/fd/5` writes outside. zhi opens nothing without close-on-exec itself (Node opens
 * with O_CLOEXEC), so every descriptor above 2 lacking it is inherited, and is closed. On Linux the
 * flag is read from `/proc/self/fdinfo`; elsewhere nothing is done (macOS has no such listing).
 */
import { closeSync, readdirSync, readFileSync } from 'node:fs';

/** O_CLOEXEC as `/proc/self/fdinfo` shows it in its octal `flags:` line (the same on x86-64 and arm64). */
const O_CLOEXEC = 0o2000000;

/** The descriptors above 2 that a child would inherit, read from fdinfo (exported for tests). */
export function inheritableFds(fdinfo = '/proc/self/fdinfo'): number[] {
  let names: string[];
  try {
    names = readdirSync(fdinfo);
  } catch {
    return [];
  }
  // Node's own channel to a parent that forked it (a test runner) is kept.
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    let text: string;
    try {
      text = readFileSync(`${fdinfo}/${name}`, 'utf8');
    } catch {
      continue; // the descriptor readdir itself used, closed again
    }
    const flags = /^flags:\s*([0-7]+)/m.exec(text)?.[1];
    if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) found.push(fd);
  }
  return found;
}

/** Close every inherited descriptor above 2, so no child zhi starts can use one. Linux only. */
export function closeInheritedFds(platform: NodeJS.Platform = process.platform): number[] {
  if (platform !== 'linux') return [];
  const fds = inheritableFds();
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
  return fds;
}
