/**
 * Whether zhi runs in an elevated (administrator) console on Windows, found without a native
 * addon: `net session` succeeds only for an administrator (it lists the server's sessions, which
 * needs the Administrators group with the token elevated). Run once, lazily, and kept: elevation
 * does not change while a process runs. Elsewhere, and when the check cannot run, the answer is no.
 */
import { spawn } from 'node:child_process';

let cached: Promise<boolean> | undefined;

export function isElevated(platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (platform !== 'win32') return Promise.resolve(false);
  cached ??= new Promise((resolve) => {
    try {
      const p = spawn('net.exe', ['session'], { windowsHide: true, stdio: 'ignore' });
      // A console whose `net session` hangs (a domain lookup) is treated as not elevated.
      const timer = setTimeout(() => {
        p.kill();
        resolve(false);
      }, 5000);
      p.on('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
      p.on('close', (code) => {
        clearTimeout(timer);
        resolve(code === 0);
      });
    } catch {
      resolve(false);
    }
  });
  return cached;
}
