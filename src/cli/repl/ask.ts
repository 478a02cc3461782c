import { isYes } from '../../support/answers.js';
import { visible } from '../../support/sanitize.js';
import type { Asker, Choice } from '../ask.js';
import type { LineEditor } from './editor.js';

/**
 * The REPL's adapter of the Asker interface: every question goes through the REPL's own line
 * editor (a second readline, or an @inquirer prompt, on the same terminal would fight it for
 * keys). Choices are numbered; a hidden answer is never asked for here (keys are set up outside).
 */
export function editorAsker(editor: LineEditor, write: (s: string) => void): Asker {
  const text: Asker['text'] = async (question, o = {}) => {
    const offer = o.default ? `(${o.default}) ` : '';
    for (;;) {
      const answer = await editor.ask(`${question}${offer}`, o.signal);
      if (answer === null) return null;
      const value = !answer.trim() && o.default !== undefined ? o.default : answer;
      const check = o.validate?.(value) ?? true;
      if (check === true) return value;
      write(`${visible(check)}\n`);
    }
  };
  return {
    text,
    yesNo: async (question, o = {}) => isYes(await editor.ask(question, o.signal), o.defaultYes),
    choose: async <T>(question: string, choices: Choice<T>[], o: { default?: T } = {}) => {
      write(`${question}\n${choices.map((c, i) => `  ${i + 1}. ${visible(c.label)}`).join('\n')}\n`);
      const first = choices.findIndex((c) => c.value === o.default);
      const answer = await text('> ', {
        ...(first >= 0 ? { default: String(first + 1) } : {}),
        validate: (a) => (/^\d+$/.test(a.trim()) && choices[Number(a) - 1] ? true : `1–${choices.length}`),
      });
      return answer === null ? undefined : choices[Number(answer) - 1]!.value;
    },
  };
}
