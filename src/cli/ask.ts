/**
 * Asking a person: one interface for every question zhi puts to the person at the keyboard —
 * yes or no, one of several choices, a line of text. Two adapters implement it: the terminal
 * one here (readline for lines, @inquirer for pickers and checked or hidden input, both confined
 * to this file) for the one-shot modes, `zhi run`, the commands and the setup wizard; and the
 * REPL's line editor (repl/ask.ts), which owns the keyboard while the REPL runs.
 */
import { createInterface } from 'node:readline';
import { isYes } from '../support/answers.js';
import type { Interrupt } from './interrupt.js';
import { Spinner } from './render/spinner.js';

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
  choose<T>(question: string, choices: Choice<T>[], o?: { default?: T; pageSize?: number }): Promise<T | undefined>;
}

/**
 * The terminal adapter: questions on stderr (stdout carries only the answer), spinners held
 * while a question waits. With an interrupt, Ctrl+C at a question also stops the run that asked,
 * as in the REPL.
 */
export function terminalAsker(interrupt?: Interrupt): Asker {
  return {
    text: (question, o = {}) =>
      Spinner.holdWhile(() =>
        o.default !== undefined || o.validate || o.secret ? checkedLine(question, o) : readLine(question, o.signal, interrupt),
      ),
    yesNo: async (question, o = {}) => {
      if (o.signal?.aborted) return false;
      const answer = await Spinner.holdWhile(() => readLine(question, o.signal, interrupt));
      return isYes(answer, o.defaultYes);
    },
    choose: (question, choices, o = {}) => Spinner.holdWhile(() => pick(question, choices, o)),
  };
}

/** One line typed on the terminal; null on Ctrl+C, Ctrl+D or an abort. */
async function readLine(question: string, signal?: AbortSignal, interrupt?: Interrupt): Promise<string | null> {
  if (signal?.aborted) return null;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await new Promise<string | null>((resolve) => {
      const onAbort = () => resolve(null);
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.on('SIGINT', () => {
        resolve(null);
        interrupt?.press();
      });
      rl.on('close', () => resolve(null));
      rl.question(question, (a) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(a);
      });
    });
  } finally {
    rl.close();
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
    if (o.secret) return await password({ message: question, mask: '*', ...(validate ? { validate } : {}) }, { output: process.stderr });
    return await input(
      { message: question, ...(o.default !== undefined ? { default: o.default } : {}), ...(validate ? { validate } : {}) },
      { output: process.stderr },
    );
  } catch (err) {
    if (cancelled(err)) return null;
    throw err;
  }
}

async function pick<T>(
  question: string,
  choices: Choice<T>[],
  o: { default?: T; pageSize?: number },
): Promise<T | undefined> {
  const { select } = await import('@inquirer/prompts');
  try {
    return await select<T>(
      {
        message: question,
        choices: choices.map((c) => ({ name: c.label, value: c.value })),
        ...(o.default !== undefined ? { default: o.default } : {}),
        ...(o.pageSize ? { pageSize: o.pageSize } : {}),
      },
      { output: process.stderr },
    );
  } catch (err) {
    if (cancelled(err)) return undefined;
    throw err;
  }
}
