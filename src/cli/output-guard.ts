/**
 * The last line before a pipe: when stdout or stderr is not a terminal (`zhi -c … | cat`,
 * `| less -R`, a file), every string written to it passes `screenSafe`, so no escape sequence
 * reaches whatever shows it later — whichever path wrote it (an answer, a skill's description, a
 * session exported as Markdown). zhi's own colours stay when FORCE_COLOR asked for them. On a
 * terminal the renderers draw with escape sequences of their own and every text they draw has
 * passed `visible()` (cli/render/safe-event.ts).
 */
import { screenSafe } from '../support/sanitize.js';

type Write = NodeJS.WriteStream['write'];

const guarded = new WeakSet<NodeJS.WriteStream>();

export function guardOutput(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): void {
  if (stream.isTTY || guarded.has(stream)) return;
  guarded.add(stream);
  const keepColours = Boolean(env.FORCE_COLOR && env.FORCE_COLOR !== '0');
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  const decoder = new TextDecoder('utf-8');
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    let text: unknown = chunk;
    if (typeof chunk === 'string') text = screenSafe(chunk, { keepColours });
    else if (chunk instanceof Uint8Array)
      text = screenSafe(decoder.decode(chunk, { stream: true }), { keepColours });
    // A string decoded from bytes is written as UTF-8, whatever encoding came with the bytes.
    if (chunk instanceof Uint8Array && typeof rest[0] === 'string') rest = rest.slice(1);
    return write(text, ...rest);
  }) as Write;
}
