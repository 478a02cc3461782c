import type { Prompter, ToolApproval } from '../../agent/loop.js';
import { isYes } from '../../support/answers.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { Question } from '../../tools/types.js';
import { askApproval } from '../approval.js';
import type { Style } from '../render/style.js';
import type { LineEditor } from './editor.js';

/** What the prompter needs around a question: stop the live display, and draw again after. */
export interface QuestionHooks {
  before(): void;
  after(): void;
}

/**
 * Permission questions during a REPL run, asked through the REPL's own line editor (a second
 * readline on the same terminal would fight it for keys). The full tool call is shown, with the
 * shell's warning in red; Ctrl+C answers no and stops the run.
 */
export function replPrompter(
  editor: LineEditor,
  style: Style,
  write: (s: string) => void,
  hooks: QuestionHooks,
): Prompter {
  const ask = async (text: string, signal: AbortSignal): Promise<boolean> => {
    hooks.before();
    try {
      write(text);
      return isYes(await editor.ask(`${t('tools.approve.question')} `, signal));
    } finally {
      hooks.after();
    }
  };
  return {
    interactive: true,
    confirmTool: async (req: ToolApproval, signal: AbortSignal) => {
      hooks.before();
      try {
        return await askApproval(req, style, write, (question) => editor.ask(question, signal));
      } finally {
        hooks.after();
      }
    },
    ask: (q: Question, signal: AbortSignal) => {
      const message = visible(q.message);
      const head = q.danger ? style.red(style.bold(message)) : style.bold(message);
      return ask(`${head}\n${q.detail ? `  ${visible(q.detail, { keepNewlines: true })}\n` : ''}`, signal);
    },
  };
}
