import type { Prompter } from '../../agent/loop.js';
import { askingPrompter } from '../prompter.js';
import type { Style } from '../render/style.js';
import { editorAsker } from './ask.js';
import type { LineEditor } from './editor.js';

/** What the prompter needs around a question: stop the live display, and draw again after. */
export interface QuestionHooks {
  before(): void;
  after(): void;
}

/**
 * Permission questions during a REPL run, asked through the REPL's own line editor: the same
 * prompter as the one-shot modes, over the editor's adapter. Ctrl+C answers no and stops the run.
 */
export function replPrompter(
  editor: LineEditor,
  style: Style,
  write: (s: string) => void,
  hooks: QuestionHooks,
): Prompter {
  return askingPrompter(editorAsker(editor, write), style, write, async (ask) => {
    hooks.before();
    try {
      return await ask();
    } finally {
      hooks.after();
    }
  });
}
