/**
 * The small capability cache: what zhi learned about models outside its registry (today: that a
 * model refuses `thinking: disabled`). Kept as JSON in the data folder so the lesson is learned
 * once, not on every start. A missing or unreadable file is simply an empty cache.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../support/atomic.js';
import { log } from '../support/log.js';
import { learnCapability, learnedCapabilities } from './models.js';

export function loadCapabilities(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  try {
    const data = JSON.parse(text) as Record<string, { thinkingForced?: unknown }>;
    for (const [model, caps] of Object.entries(data)) {
      if (caps && caps.thinkingForced === true) learnCapability(model, { thinkingForced: true });
    }
  } catch {
    log().warn('ignoring an unreadable model capability cache', { path });
  }
}

export async function saveCapabilities(path: string): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify(learnedCapabilities(), null, 2)}\n`, 0o600);
  } catch (err) {
    log().warn('could not save the model capability cache', { path, error: String(err) });
  }
}
