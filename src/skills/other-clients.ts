/**
 * The personal skills folders other Agent Skills clients keep (Claude Code's `~/.claude/skills`,
 * Codex's `~/.codex/skills`). zhi does not read them as its own — a skill there was trusted by
 * another program, not by zhi — but offers to copy them (`zhi skill import --from claude`), once
 * said at the REPL. A project's `.claude/skills` is read already (discovery.ts).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const OTHER_CLIENTS = {
  claude: { folder: '.claude/skills', shown: 'Claude Code' },
  codex: { folder: '.codex/skills', shown: 'Codex' },
} as const;

export type OtherClient = keyof typeof OTHER_CLIENTS;

export function isOtherClient(name: string): name is OtherClient {
  return Object.hasOwn(OTHER_CLIENTS, name);
}

/** The SKILL.md files of a client's skills folder (one per subfolder), in name order. */
export async function otherSkillFiles(home: string, client: OtherClient): Promise<string[]> {
  const dir = join(home, OTHER_CLIENTS[client].folder);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const files = await Promise.all(
    names
      .filter((n) => !n.startsWith('.'))
      .map(async (n) => {
        const file = join(dir, n, 'SKILL.md');
        return (await stat(file).catch(() => undefined))?.isFile() ? file : undefined;
      }),
  );
  return files.filter((f): f is string => f !== undefined).sort((a, b) => a.localeCompare(b));
}
