import { pushAll } from '../support/arrays.js';
/**
 * Repair of a damaged SSE line. Z.ai has been seen (2026, glm-4.7 and glm-5.1) to cut a frame
 * mid-JSON and glue the next `data:` frame onto the same line:
 *   data: {"id":"…","object":"chat.cdata: {"id":"…","choices":[{"delta":{"content":"11"}}]}
 * The complete frames are recovered; from a damaged one, only whole `content` and
 * `reasoning_content` strings are salvaged. The caller reports the damage as a warning.
 */

export interface Repaired<T> {
  frames: T[];
  /** Damaged pieces that could not be parsed (salvaged text already folded into `salvaged`). */
  damaged: number;
  /** Whole text fields found in the damaged pieces, in order. */
  salvaged: Array<{ field: 'content' | 'reasoning_content'; text: string }>;
}

const GLUE = /data:[ \t]*(?=\{)/;

function tryParse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Split a line that failed to parse into the frames glued inside it. */
export function repairLine<T>(data: string): Repaired<T> {
  const parts = data.split(GLUE);
  const out: Repaired<T> = { frames: [], damaged: 0, salvaged: [] };
  let current = parts[0] ?? '';
  const flush = (piece: string, last: boolean) => {
    const json = tryParse<T>(piece);
    if (json !== undefined) out.frames.push(json);
    else if (piece.trim() || last) {
      out.damaged += 1;
      pushAll(out.salvaged, salvage(piece));
    }
  };
  for (const part of parts.slice(1)) {
    // A `data: {` inside a string of a frame that is otherwise whole: put the piece back.
    if (tryParse(current) === undefined && tryParse(part) === undefined && !looksLikeFrameStart(part)) {
      current = `${current}data: ${part}`;
      continue;
    }
    flush(current, false);
    current = part;
  }
  flush(current, true);
  return out;
}

function looksLikeFrameStart(part: string): boolean {
  return /^\{\s*"(id|choices|created|object|model)"/.test(part);
}

const FIELD = /"(content|reasoning_content)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** Whole string values of the text fields in a cut frame (a half string is lost). */
function salvage(piece: string): Repaired<unknown>['salvaged'] {
  const found: Repaired<unknown>['salvaged'] = [];
  for (const m of piece.matchAll(FIELD)) {
    const text = tryParse<string>(`"${m[2]}"`);
    if (text) found.push({ field: m[1] as 'content' | 'reasoning_content', text });
  }
  return found;
}

const OPEN = '<|begin_of_box|>';
const CLOSE = '<|end_of_box|>';

/**
 * Removes the vision models' box markers from streamed text. A marker split across deltas is
 * held back until it is whole (or proves not to be a marker).
 */
export class BoxMarkerFilter {
  private held = '';

  push(text: string): string {
    let s = this.held + text;
    this.held = '';
    s = s.replaceAll(OPEN, '').replaceAll(CLOSE, '');
    const lt = s.lastIndexOf('<|');
    const tail = lt >= 0 ? s.slice(lt) : s.endsWith('<') ? '<' : '';
    if (tail && (OPEN.startsWith(tail) || CLOSE.startsWith(tail))) {
      this.held = tail;
      s = s.slice(0, s.length - tail.length);
    }
    return s;
  }

  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}
