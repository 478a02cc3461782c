/** How a shell rule says what it found: refuse or warn, with the catalogue key of its reason. */
import { posix } from 'node:path';
import type { MessageKey, Params } from '../../support/i18n/index.js';

/** One rule's verdict on a command: refused, or a warning shown before the question. */
export interface Finding {
  level: 'refuse' | 'warn';
  /** Stable name of the rule, for tests and logs. */
  rule: string;
  key: MessageKey;
  params?: Params;
}

/** A finding of `level`; without params when the message takes none. */
function finding(level: Finding['level'], rule: string, key: Finding['key'], params?: Params): Finding {
  return { level, rule, key, ...(params ? { params } : {}) };
}

export function refuse(rule: string, key: Finding['key'], params?: Params): Finding {
  return finding('refuse', rule, key, params);
}

export function warn(rule: string, key: Finding['key'], params?: Params): Finding {
  return finding('warn', rule, key, params);
}

/** `-`, `/dev/stdin`, `/dev/./stdin`, `/dev/fd/3`, `/proc/self/fd/0`: code arriving on a descriptor. */
export function isStdinScript(word: string): boolean {
  if (word === '-') return true;
  const p = posix.normalize(word.replace(/\\/g, '/'));
  return /^\/dev\/(stdin|fd\/\d+)$/.test(p) || /^\/proc\/[^/]+\/fd\/\d+$/.test(p);
}
