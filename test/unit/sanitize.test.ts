import { describe, expect, it } from 'vitest';
import { hasControl, visible } from '../../src/support/sanitize.js';

describe('visible', () => {
  it('shows escape sequences instead of executing them', () => {
    expect(visible('a\x1b[?7lb')).toBe('a␛[?7lb');
    expect(visible('x\x1b]0;title\x07y')).toBe('x␛]0;title\\ay');
    expect(visible('\x9b2J')).toBe('\\x9b2J');
  });
  it('shows carriage returns, backspaces and bidi overrides', () => {
    expect(visible('ok\rrm -rf')).toBe('ok\\rrm -rf');
    expect(visible('a\bb')).toBe('a\\bb');
    expect(visible('abc\u202edef')).toBe('abc\\u202edef');
  });
  it('keeps newlines and tabs only when asked', () => {
    expect(visible('a\nb\tc')).toBe('a↵b→c');
    expect(visible('a\nb\tc', { keepNewlines: true, keepTabs: true })).toBe('a\nb\tc');
  });
  it('leaves ordinary text, Chinese and emoji alone', () => {
    const text = '你好，世界 👩‍💻 café';
    expect(visible(text)).toBe(text);
    expect(hasControl(text)).toBe(false);
    expect(hasControl('ls\x1b[2K')).toBe(true);
  });
});

describe('invisible characters are made visible too', () => {
  it('shows zero-width spaces, marks, word joiners and BOMs; keeps the joiners emoji need', async () => {
    const { visible: v, hasControl: has } = await import('../../src/support/sanitize.js');
    expect(v('a\u200bb')).toBe('a\\u200bb');
    expect(v('x\u200ey\u200fz\u2060\ufeff')).toBe('x\\u200ey\\u200fz\\u2060\\ufeff');
    expect(has('a\u200bb')).toBe(true);
    const family = '👨\u200d👩\u200d👧';
    expect(v(family)).toBe(family);
    expect(has('می\u200cخواهم')).toBe(false);
  });
});
