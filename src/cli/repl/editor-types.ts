/** The shapes the REPL's line editor (editor.ts) is built from and answers with. */
import type { Completion } from './complete.js';
import type { History } from './history.js';

/** The terminal streams the editor reads keys from and draws on. */
export interface EditorStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: NodeJS.WritableStream & {
    columns?: number;
    isTTY?: boolean;
    on?(event: 'resize', fn: () => void): unknown;
    off?(event: 'resize', fn: () => void): unknown;
  };
}

export type ReadResult =
  | { kind: 'line'; text: string }
  | { kind: 'eof' }
  | { kind: 'interrupt' }
  /** Ctrl+V: attach the clipboard's image; the draft goes back on the prompt afterwards. */
  | { kind: 'paste-image'; draft: string };

export interface EditorOptions {
  history: History;
  prompt: () => string;
  /** Prompt of every further line of a multi-line message (after `\` + Enter or Alt+Enter). */
  continuation: string;
  completer?: (line: string) => Promise<Completion>;
  /** Ask the terminal to mark pastes (\x1b[?2004h), so pasted newlines do not send. */
  bracketedPaste?: boolean;
  /** Prompt shown during Ctrl+R search; `failed` when nothing matches. */
  searchPrompt?: (query: string, failed: boolean) => string;
  /** A line drawn under the input while a message is typed (model · mode · context · cost). */
  status?: () => string | undefined;
  /** Ctrl+X Ctrl+E: edit the text in an external editor; undefined keeps the text as it was. */
  externalEdit?: (text: string) => Promise<string | undefined>;
  /** Text typed while zhi works, as it changes (shown by the REPL under the answer). */
  onTypeahead?: (text: string) => void;
  /** A key pressed at the prompt (the person is typing a message). */
  onTyping?: () => void;
}
