/**
 * The Windows executable double-clicked in Explorer (no command typed): zhi opens its page
 * instead of a console REPL the person never asked for. Told apart by the parent process:
 * Explorer starts a double-clicked program; a console (cmd, PowerShell, Windows Terminal) is the
 * parent of one typed there. Asked only by the standalone executable on Windows, with no arguments.
 */
import { execFileSync } from 'node:child_process';

/** The parent's image name from `tasklist` (CSV: `"explorer.exe","1234",…`), lower case. */
export function parentName(csv: string): string | undefined {
  const m = /^"([^"]+)"/.exec(csv.trim());
  return m?.[1]?.toLowerCase();
}

export function startedFromExplorer(ppid: number = process.ppid): boolean {
  try {
    const out = execFileSync('tasklist', ['/FI', `PID eq ${ppid}`, '/FO', 'CSV', '/NH'], {
      encoding: 'utf8',
      timeout: 3000,
      windowsHide: true,
    });
    return parentName(out) === 'explorer.exe';
  } catch {
    return false;
  }
}
