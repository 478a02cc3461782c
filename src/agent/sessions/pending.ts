/**
 * Session files made ahead of their first line (session-file.ts `prepare`) wait in
 * `sessions/.pending/`, named with their zhi's process id. One whose zhi was killed before its
 * first message (`kill -9`, a closed terminal) holds only a header: removed once that process is
 * gone. Best effort.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { leftByGoneProcess } from '../../support/process-alive.js';

export function removeDeadPending(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names)
    if (leftByGoneProcess(name, /^(\d+)-/)) rmSync(join(folder, name), { force: true });
}
