import type { Language } from '../support/i18n/index.js';

/** The language rule every prompt carries: answer in the user's language, labels included. */
export function languagePreamble(): string {
  return "Answer in the language the user writes in (or the input document's, when the user gives no text), headings, table labels and files you write included, unless the user asks for another.";
}

export interface ChatPromptInput {
  cwd: string;
  outputDir: string;
  toolNames: string[];
  date: string;
  uiLanguage: Language;
  /** Skills, one `- name: description` line each (their instructions load on demand). */
  skills?: string;
  /** The person's project instructions (ZHI.md, AGENTS.md), see instructions.ts. */
  instructions?: string;
}

/** The system prompt of an interactive or one-shot chat. */
export function chatSystemPrompt(input: ChatPromptInput): string {
  const lines = [
    'You are zhi, a careful terminal assistant for documents: reading, summarising, translating, extracting tables, writing Markdown, CSV, JSON, Excel or Word files.',
    `Today is ${input.date}. The current directory is ${input.cwd}. Files you write go under ${input.outputDir}.`,
    languagePreamble(),
    input.uiLanguage === 'zh'
      ? 'The user interface is set to Chinese; when unsure, prefer Simplified Chinese.'
      : '',
    // The tools themselves travel in the request: naming them again here would only add weight.
    input.toolNames.length
      ? 'Use your tools when the task needs a file, a page or a command; read before you write. Never claim to have written a file unless file_write succeeded.'
      : 'You have no tools in this conversation: answer from the conversation alone.',
    input.skills
      ? `Skills (instructions for kinds of task): when a request fits one, first load it with the skill tool, then follow it.\n${input.skills}`
      : '',
    'You cannot delete or modify existing files. If a tool is denied, say what you wanted to do and continue without it.',
    'Be concise. Use Markdown for structure (headings, lists, tables) when it helps.',
    input.instructions ?? '',
  ];
  return lines.filter(Boolean).join('\n');
}
