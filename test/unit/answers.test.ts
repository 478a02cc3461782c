import { describe, expect, it } from 'vitest';
import { parseApprovalAnswer } from '../../src/cli/approval.js';
import { isYes } from '../../src/support/answers.js';

describe('isYes: the one reading of a yes', () => {
  it('accepts the English and Chinese yes-words, any case, full-width, with a closing mark', () => {
    for (const a of [
      'y',
      'Y',
      'yes',
      'YES',
      'ok',
      ' 可以 ',
      '好的',
      '是的',
      '是',
      '好',
      '对',
      '确认',
      '允许',
      '行',
      '同意',
      'ｙｅｓ',
      '可以。',
      '好的！',
      'ok!',
    ]) {
      expect(isYes(a), a).toBe(true);
    }
  });

  it('denies everything else, Ctrl+C (null) and an empty answer unless yes is the default', () => {
    for (const a of ['n', 'no', '不', '不行', '不可以', '否', 'yess', 'y es', '可以吗', 'why', '好的。。']) {
      expect(isYes(a), a).toBe(false);
    }
    expect(isYes(null)).toBe(false);
    expect(isYes(null, true)).toBe(false);
    expect(isYes('')).toBe(false);
    expect(isYes('  ', true)).toBe(true);
  });

  it('a tool approval reads the same words (可以 approves, extra keys still grant)', () => {
    const req = {
      name: 'shell',
      args: {},
      preview: 'ls',
      choices: [{ key: 'w', label: 'widen', grant: 'write' }],
    } as unknown as Parameters<typeof parseApprovalAnswer>[1];
    expect(parseApprovalAnswer('可以', req)).toBe(true);
    expect(parseApprovalAnswer('好的。', req)).toBe(true);
    expect(parseApprovalAnswer('不', req)).toBe(false);
    expect(parseApprovalAnswer('w', req)).toEqual({ grants: ['write'] });
  });
});
