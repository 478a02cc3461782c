import type { Key } from 'node:readline';
import type { TextBuffer } from './buffer.js';

/** What a key asks of the editor beyond changing the text (those it does itself). */
export type KeyAction =
  | 'edited'
  | 'ignored'
  | 'enter'
  | 'tab'
  | 'up'
  | 'down'
  | 'older'
  | 'newer'
  | 'search'
  | 'clear'
  | 'ctrl-x';

const CONTROL = /^[\x00-\x08\x0b-\x1f\x7f]$/;

const CTRL: Record<string, (b: TextBuffer) => KeyAction> = {
  a: (b) => (b.home(), 'edited'),
  e: (b) => (b.end(), 'edited'),
  b: (b) => (b.left(), 'edited'),
  f: (b) => (b.right(), 'edited'),
  d: (b) => (b.deleteForward(), 'edited'),
  h: (b) => (b.backspace(), 'edited'),
  u: (b) => (b.killBefore(), 'edited'),
  k: (b) => (b.killAfter(), 'edited'),
  w: (b) => (b.killWord(), 'edited'),
  left: (b) => (b.wordLeft(), 'edited'),
  right: (b) => (b.wordRight(), 'edited'),
  l: () => 'clear',
  x: () => 'ctrl-x',
  r: () => 'search',
  p: () => 'older',
  n: () => 'newer',
  j: () => 'enter',
  m: () => 'enter',
};

const PLAIN: Record<string, (b: TextBuffer) => KeyAction> = {
  return: () => 'enter',
  enter: () => 'enter',
  backspace: (b) => (b.backspace(), 'edited'),
  delete: (b) => (b.deleteForward(), 'edited'),
  left: (b) => (b.left(), 'edited'),
  right: (b) => (b.right(), 'edited'),
  home: (b) => (b.home(), 'edited'),
  end: (b) => (b.end(), 'edited'),
  up: () => 'up',
  down: () => 'down',
  tab: () => 'tab',
  escape: () => 'ignored',
};

/**
 * Apply an editing key to the text (Emacs keys as in bash and readline), or say what else it
 * asks for. Printable text — a key, or a whole word an input method commits at once — is
 * inserted at the cursor.
 */
export function applyKey(b: TextBuffer, s: string | undefined, k: Key): KeyAction {
  const name = k.name ?? '';
  if (k.ctrl && !k.meta) return CTRL[name]?.(b) ?? 'ignored';
  if (k.meta) {
    if (name === 'b' || name === 'left') b.wordLeft();
    else if (name === 'f' || name === 'right') b.wordRight();
    else if (name === 'backspace') b.killWord();
    else if (name === 'return' || name === 'enter') b.insert('\n');
    else return 'ignored';
    return 'edited';
  }
  const plain = PLAIN[name];
  if (plain) return plain(b);
  const text = s ?? '';
  if (!text || CONTROL.test(text) || (k.sequence?.startsWith('\x1b') && text.length > 1)) return 'ignored';
  b.insert(text.replace(/\r\n?/g, '\n'));
  return 'edited';
}
