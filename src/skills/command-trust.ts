import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../support/atomic.js';
import type { CustomCommand } from './commands.js';

interface CommandTrustFile {
  version: 1;
  /** command file (absolute path) → sha256 of its bytes when the person trusted it. */
  commands: Record<string, { hash: string; at: string }>;
}

/**
 * Which project command files the person has trusted, by path and content (as skills/trust.ts
 * does for skills): a cloned repository's `.zhi/commands/*.md` is text from others, so its first
 * use in a folder asks, and so does its first use after the file changed. Personal commands are
 * the person's own and never ask. Kept in `trusted-commands.json` in the data folder.
 */
export class CommandTrust {
  private data: CommandTrustFile = { version: 1, commands: {} };

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<CommandTrust> {
    const store = new CommandTrust(path);
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CommandTrustFile>;
      if (parsed?.commands && typeof parsed.commands === 'object') {
        store.data = { version: 1, commands: parsed.commands };
      }
    } catch {
      // Missing or damaged: nothing is trusted yet (asking again is the safe side).
    }
    return store;
  }

  isTrusted(cmd: CustomCommand): boolean {
    if (cmd.source === 'user') return true;
    return this.data.commands[cmd.file]?.hash === cmd.hash;
  }

  async trust(cmd: CustomCommand): Promise<void> {
    this.data.commands[cmd.file] = { hash: cmd.hash, at: new Date().toISOString() };
    await writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`, 0o600);
  }
}
