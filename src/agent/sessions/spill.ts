import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCall } from '../../llm/types.js';
import { redact } from '../../support/redact.js';
import { formatBytes, truncateText } from '../../support/text.js';
import { MAX_RESULT_BYTES } from '../tool-calls.js';

/**
 * Save a tool result that is over the size cap in the session's folder (the `n`th saved there);
 * the model gets where it is plus the beginning. Undefined when it cannot be saved (the loop then
 * truncates).
 */
export function spillResult(dataDir: string, n: number, call: ToolCall, content: string): string | undefined {
  try {
    const dir = join(dataDir, 'tool-results');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60);
    const path = join(dir, `${String(n).padStart(3, '0')}-${safe(call.function.name)}-${safe(call.id)}.txt`);
    // Redacted like the session file itself: a tool result may quote a key or a token.
    writeFileSync(path, redact(content), { mode: 0o600, flag: 'wx' });
    const bytes = Buffer.byteLength(content, 'utf8');
    const head = Math.max(1024, MAX_RESULT_BYTES - 2048);
    return (
      `[This result is ${formatBytes(bytes)}, more than one tool result may hold. The complete text was saved to ${path} ` +
      `(tell the user if they need all of it). The beginning follows.]\n\n${truncateText(content, head).text}`
    );
  } catch {
    return undefined;
  }
}
