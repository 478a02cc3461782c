import { createInterface } from 'node:readline';
import type { Prompter, ToolApproval } from '../agent/loop.js';
import { isYes } from '../support/answers.js';
import { t } from '../support/i18n/index.js';
import { visible } from '../support/sanitize.js';
import type { Question } from '../tools/types.js';
import { askApproval } from './approval.js';
import { Spinner } from './render/spinner.js';
import type { Style } from './render/style.js';

/** A prompter that never asks: every question is a "no" (stdin is not a terminal). */
export const nobodyPrompter: Prompter = {
  interactive: false,
  confirmTool: async () => false,
  ask: async () => false,
};

/** Ask a yes/no question on the terminal (stdin/stderr). Ctrl+C or Ctrl+D answer "no". */
export async function askYesNo(question: string, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return false;
  return Spinner.holdWhile(() => readAnswer(question, signal));
}

async function readAnswer(question: string, signal?: AbortSignal): Promise<boolean> {
  return isYes(await readLine(question, signal));
}

/** One line typed on the terminal; null on Ctrl+C, Ctrl+D or an interrupt. */
async function readLine(question: string, signal?: AbortSignal): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = await new Promise<string | null>((resolve) => {
      const onAbort = () => resolve(null);
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.on('SIGINT', () => resolve(null));
      rl.on('close', () => resolve(null));
      rl.question(question, (a) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(a);
      });
    });
    return answer;
  } finally {
    rl.close();
  }
}

export function terminalPrompter(style: Style): Prompter {
  return {
    interactive: true,
    confirmTool(req: ToolApproval, signal: AbortSignal) {
      return Spinner.holdWhile(() =>
        askApproval(
          req,
          style,
          (s) => process.stderr.write(s),
          (question) => (signal.aborted ? Promise.resolve(null) : readLine(question, signal)),
        ),
      );
    },
    ask(q: Question, signal: AbortSignal) {
      return Spinner.holdWhile(async () => {
        const message = visible(q.message);
        const head = q.danger ? style.red(style.bold(message)) : style.bold(message);
        process.stderr.write(
          `${head}\n${q.detail ? `  ${visible(q.detail, { keepNewlines: true })}\n` : ''}`,
        );
        return askYesNo(`${t('tools.approve.question')} `, signal);
      });
    },
  };
}
