import type { Prompter, ToolApproval } from '../agent/loop.js';
import { t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import type { Question } from '../tools/types.js';
import { askApproval } from './approval.js';
import { type Asker, terminalAsker } from './ask.js';
import type { Interrupt } from './interrupt.js';
import { Spinner } from './render/spinner.js';
import type { Style } from './render/style.js';

/** A prompter that never asks: every question is a "no" (stdin is not a terminal). */
export const nobodyPrompter: Prompter = {
  interactive: false,
  confirmTool: async () => false,
  ask: async () => false,
};

/** What is done around each question: stop the live display before, draw it again after. */
export type AroundQuestion = <T>(ask: () => Promise<T>) => Promise<T>;

/**
 * The agent's questions (tool approvals, overwrite and other yes/no questions) put to a person
 * through an Asker: the same layout and the same reading of the answer in every mode. The full
 * tool call is shown (sanitized), with the warning and summary last above the question.
 */
export function askingPrompter(
  asker: Asker,
  style: Style,
  write: (s: string) => void,
  around: AroundQuestion,
): Prompter {
  return {
    interactive: true,
    confirmTool: (req: ToolApproval, signal: AbortSignal) =>
      around(() => askApproval(req, style, write, (question) => asker.text(question, { signal }))),
    ask: (q: Question, signal: AbortSignal) =>
      around(() => {
        const message = visible(q.message);
        const head = q.danger ? style.red(style.bold(message)) : style.bold(message);
        write(`${head}\n${q.detail ? `  ${visible(q.detail, { keepNewlines: true })}\n` : ''}`);
        return asker.yesNo(`${t('tools.approve.question')} `, { signal });
      }),
  };
}

/** The prompter of the one-shot modes and `zhi run`: questions on stderr, spinners held meanwhile. */
export function terminalPrompter(
  style: Style,
  interrupt?: Interrupt,
  asker: Asker = terminalAsker(interrupt),
  live?: LiveArea,
): Prompter {
  return askingPrompter(
    asker,
    style,
    (s) => process.stderr.write(s),
    (ask) =>
      Spinner.holdWhile(async () => {
        live?.suspend();
        try {
          return await ask();
        } finally {
          live?.resume();
        }
      }),
  );
}

/** A display drawn in place (the rich renderer): stopped while a question waits, drawn again after. */
export interface LiveArea {
  suspend(): void;
  resume(): void;
}
