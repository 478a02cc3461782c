/**
 * Asking a person: one interface for every question zhi puts to the person at the keyboard —
 * yes or no, one of several choices, a line of text. Two adapters implement it: the terminal
 * one here (readline for lines, @inquirer for pickers and checked or hidden input, both confined
 * to this file) for the one-shot modes, `zhi run`, the commands and the setup wizard; and the
 * REPL's line editor (repl/ask.ts), which owns the keyboard while the REPL runs.
 */
import { createInterface, type Interface } from 'node:readline';
import { isYes } from '../support/answers.js';
import { type MessageKey, t } from '../support/i18n/index.js';
import type { Interrupt } from './interrupt.js';
import { Spinner } from './render/spinner.js';
import { colorEnabled, makeStyle } from './render/style.js';
import { wrapText } from './render/width.js';

export interface Choice<T> {
  value: T;
  label: string;
}

export interface TextOptions {
  signal?: AbortSignal | undefined;
  /** Offered, and taken when the answer is empty. */
  default?: string | undefined;
  /** True, or the reason shown before asking again. */
  validate?: ((answer: string) => true | string) | undefined;
  /** Hidden input (an API key). */
  secret?: boolean | undefined;
}

export interface Asker {
  /** One typed line; null on Ctrl+C, Ctrl+D or an abort. */
  text(question: string, o?: TextOptions): Promise<string | null>;
  /** Yes or no, read by the one reading of yes (support/answers.ts); Ctrl+C is no. */
  yesNo(question: string, o?: { signal?: AbortSignal | undefined; defaultYes?: boolean }): Promise<boolean>;
  /** One of `choices`; undefined when the person cancels. */
  choose<T>(
    question: string,
    choices: Choice<T>[],
    o?: { default?: T; pageSize?: number },
  ): Promise<T | undefined>;
}

/**
 * The terminal adapter: questions on stderr (stdout carries only the answer), spinners held
 * while a question waits. With an interrupt, Ctrl+C at a question also stops the run that asked,
 * as in the REPL. A conversation (`zhi skill new`) keeps one line reader open between its
 * questions (`keepOpen`), so that keys typed ahead — Ctrl+D to end — are never lost while the
 * terminal switches modes; it must then be closed.
 */
export function terminalAsker(
  interrupt?: Interrupt,
  o: { keepOpen?: boolean } = {},
): Asker & { close(): void } {
  const lines = new LineReader(interrupt, o.keepOpen === true);
  // Opened at once: from now on the terminal stays in the reader's mode until it is closed.
  if (o.keepOpen) lines.open();
  return {
    text: (question, to = {}) =>
      Spinner.holdWhile(() =>
        to.default !== undefined || to.validate || to.secret
          ? checkedLine(question, to)
          : lines.read(question, to.signal),
      ),
    yesNo: async (question, yo = {}) => {
      if (yo.signal?.aborted) return false;
      const answer = await Spinner.holdWhile(() => lines.read(question, yo.signal));
      return isYes(answer, yo.defaultYes);
    },
    choose: (question, choices, co = {}) => Spinner.holdWhile(() => pick(question, choices, co)),
    close: () => lines.close(),
  };
}

/** Lines typed on the terminal through readline; null on Ctrl+C, Ctrl+D or an abort. */
class LineReader {
  private rl: Interface | undefined;
  private pending: ((answer: string | null) => void) | undefined;

  constructor(
    private readonly interrupt: Interrupt | undefined,
    private readonly keepOpen: boolean,
  ) {}

  async read(question: string, signal?: AbortSignal): Promise<string | null> {
    if (signal?.aborted) return null;
    const rl = this.open();
    const onAbort = () => this.answer(null);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await new Promise<string | null>((resolve) => {
        this.pending = resolve;
        rl.question(question, (a) => this.answer(a));
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!this.keepOpen) this.close();
    }
  }

  close(): void {
    this.rl?.close();
  }

  open(): Interface {
    if (this.rl) return this.rl;
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    rl.on('SIGINT', () => {
      this.answer(null);
      this.interrupt?.press();
    });
    rl.on('close', () => {
      this.rl = undefined;
      this.answer(null);
    });
    this.rl = rl;
    return rl;
  }

  private answer(value: string | null): void {
    const resolve = this.pending;
    this.pending = undefined;
    resolve?.(value);
  }
}

/** Ctrl+C in an @inquirer prompt rejects with ExitPromptError: the person cancelled. */
function cancelled(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}

async function checkedLine(question: string, o: TextOptions): Promise<string | null> {
  const { input, password } = await import('@inquirer/prompts');
  const validate = o.validate;
  try {
    if (o.secret)
      return await password(
        { message: question, mask: '*', ...(validate ? { validate } : {}) },
        { output: process.stderr },
      );
    return await input(
      {
        message: question,
        ...(o.default !== undefined ? { default: o.default } : {}),
        ...(validate ? { validate } : {}),
      },
      { output: process.stderr },
    );
  } catch (err) {
    if (cancelled(err)) return null;
    throw err;
  }
}

/** @inquirer's key help (`↑↓ navigate • ⏎ select`) in the person's language. */
const KEY_ACTIONS: Record<string, MessageKey> = {
  navigate: 'ask.keys.navigate',
  select: 'ask.keys.select',
};

function keysHelpTip(keys: [string, string][]): string {
  const st = makeStyle(colorEnabled(process.stderr, false));
  const said = (action: string) => (KEY_ACTIONS[action] ? t(KEY_ACTIONS[action]) : action);
  return keys.map(([key, action]) => `${st.bold(key)} ${st.dim(said(action))}`).join(st.dim(' • '));
}

/**
 * A choice wrapped at words to the window, its later lines under its first word (after the
 * "❯ " the list draws): a long Chinese platform name no longer wraps to the left edge.
 */
export function wrapChoice(label: string, columns = process.stderr.columns): string {
  if (!columns) return label;
  return wrapText(label, columns - 3, '', '  ').join('\n');
}

async function pick<T>(
  question: string,
  choices: Choice<T>[],
  o: { default?: T; pageSize?: number },
): Promise<T | undefined> {
  const { select } = await import('@inquirer/prompts');
  const named = choices.map((c) => ({ name: wrapChoice(c.label), short: c.label, value: c.value }));
  let lines = 0;
  for (const c of named) lines += c.name.split('\n').length;
  try {
    return await select<T>(
      {
        message: question,
        choices: named,
        ...(o.default !== undefined ? { default: o.default } : {}),
        // Wrapped choices take more lines: the page holds them all when the window has room.
        pageSize: o.pageSize ?? Math.max(7, Math.min(lines, (process.stderr.rows || 24) - 4)),
        theme: { style: { keysHelpTip } },
      },
      { output: process.stderr },
    );
  } catch (err) {
    if (cancelled(err)) return undefined;
    throw err;
  }
}
