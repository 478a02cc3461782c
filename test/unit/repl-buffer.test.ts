import { describe, expect, it } from 'vitest';
import { TextBuffer } from '../../src/cli/repl/buffer.js';

describe('a draft whose first line is empty (issue 44 point 3)', () => {
  it('Up, Ctrl+A and Ctrl+U work at its very start', () => {
    const b = new TextBuffer();
    b.insert('\nsecond line');
    b.cursor = 1; // the start of the second line
    b.vertical(-1);
    expect(b.cursor).toBe(0);
    expect(b.onFirstLine).toBe(true);
    b.home();
    expect(b.cursor).toBe(0);
    b.killBefore();
    expect(b.text).toBe('\nsecond line');
    expect(b.cursor).toBe(0);
  });
});
