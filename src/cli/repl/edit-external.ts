import { t } from '../../support/i18n/index.js';
import { formatWarning } from '../render/error.js';
import type { Style } from '../render/style.js';
import type { LineEditor } from './editor.js';

/**
 * Open the text in the person's editor, which has the terminal until it closes (the line editor
 * steps aside meanwhile). The edited text, or undefined when unchanged or the editor failed (said).
 */
export async function editInEditor(
  text: string,
  o: {
    editor: Pick<LineEditor, 'suspend' | 'resume'>;
    env: NodeJS.ProcessEnv;
    style: Style;
    write(s: string): void;
  },
): Promise<string | undefined> {
  const { editText } = await import('../external-editor.js');
  o.editor.suspend();
  let r: Awaited<ReturnType<typeof editText>>;
  try {
    r = await editText(text, o.env);
  } finally {
    o.editor.resume();
  }
  if (r.kind === 'edited') return r.text;
  if (r.kind === 'unchanged') o.write(`${o.style.dim(t('input.editor.unchanged'))}\n`);
  else {
    const { editorAdvice } = await import('../external-editor.js');
    const what =
      r.kind === 'none'
        ? t('input.editor.none')
        : t('input.editor.failed', { editor: r.editor, reason: r.reason });
    o.write(formatWarning(`${what}\n${editorAdvice(o.env)}`, o.style));
  }
  return undefined;
}
