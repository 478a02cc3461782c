/**
 * The approval screen for a tool call, laid out so that it cannot lie: the call first (already
 * sanitized and folded by the tool), then the warning, then the one-line summary of what the call
 * can reach — always the last lines above the question, so no command can scroll them away.
 * The same layout serves the one-shot prompter and the REPL.
 */
import type { ApprovalAnswer, ToolApproval } from '../agent/loop.js';
import { isYes, normalizeAnswer } from '../support/answers.js';
import { pushAll } from '../support/arrays.js';
import { t } from '../support/i18n/index.js';
import { revealed } from '../support/sanitize.js';
import type { Style } from './render/style.js';
import { mcpToolTitle, toolAction } from './render/tool-names.js';
import { stderrColumns, wrapText } from './render/width.js';

/** The text above the question. */
export function formatApproval(
  req: ToolApproval,
  style: Style,
  width: number | undefined = stderrColumns(),
): string {
  const action = toolAction(req.name);
  // A built-in tool is named by what it does; its internal name follows, dimmed (MCP tools keep theirs).
  const title = action
    ? `${style.bold(t('tools.approve.action', { action }))} ${style.dim(`(${req.name})`)}${t('tools.approve.colon')}`
    : style.bold(t('tools.approve.title', { name: revealed(mcpToolTitle(req.name) ?? req.name) }));
  const lines: string[] = [title];
  // Every invisible or look-alike-making character is named (`⟨U+200B⟩`): two calls that look
  // the same on this screen are the same call.
  for (const line of req.preview.split('\n')) lines.push(`  ${revealed(line, { keepTabs: true })}`);
  // The extra answers come before the warning and the summary, which stay the last lines above
  // the question (a command cannot push them out of view).
  // Wrapped at words to the window (a line the terminal breaks mid-word is hard to read).
  const addWrapped = (text: string, paint: (s: string) => string) =>
    pushAll(
      lines,
      wrapText(text, width ? width - 1 : undefined).map((l) => paint(l)),
    );
  const choices = approvalChoices(req);
  if (choices) addWrapped(choices, style.dim);
  if (req.warning) {
    const text = revealed(req.warning);
    if (style.enabled) addWrapped(`⚠ ${text}`, (l) => style.red(style.bold(l)));
    else addWrapped(`[WARNING] ${text}`, (l) => l);
  }
  if (req.summary) {
    const text = revealed(req.summary.text);
    if (!req.summary.risky) addWrapped(text, style.dim);
    else if (style.enabled) addWrapped(`⚠ ${text}`, (l) => style.yellow(style.bold(l)));
    else addWrapped(`[WARNING] ${text}`, (l) => l);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The extra answers (w, i, a…), as a line of their own above the question: inside the question they
 * made it wider than the window, and readline redrew a wrapped question twice on every key.
 */
export function approvalChoices(req: ToolApproval): string {
  if (!req.choices?.length) return '';
  const extra = req.choices.map((c) => `${c.key} = ${c.label}`).join(t('tools.approve.sep'));
  return t('tools.approve.others', { extra });
}

/** The question itself: short, so it never wraps. */
export function approvalQuestion(): string {
  return `${t('tools.approve.question')} `;
}

export type ParsedAnswer = ApprovalAnswer | 'view';

/**
 * Read an answer: yes words, `v` to view a folded command, or the keys of extra choices (`w`,
 * `wi`, `w i`), each also meaning yes. Anything else is no.
 */
export function parseApprovalAnswer(answer: string | null, req: ToolApproval): ParsedAnswer {
  if (answer === null) return false;
  const a = normalizeAnswer(answer);
  if (!a) return false;
  if (isYes(a)) return true;
  if (a === 'v' && req.full) return 'view';
  const keys = a.replace(/[\s,+]/g, '').split('');
  const choices = req.choices ?? [];
  if (keys.length && keys.every((k) => choices.some((c) => c.key === k))) {
    const grants = [...new Set(keys.map((k) => choices.find((c) => c.key === k)!.grant))];
    return { grants };
  }
  return false;
}

/**
 * Ask until the answer is not "view": `ask` shows the question and returns the typed line;
 * `write` shows text. The unfolded command is followed by the warning and summary again.
 */
export async function askApproval(
  req: ToolApproval,
  style: Style,
  write: (s: string) => void,
  ask: (question: string) => Promise<string | null>,
): Promise<ApprovalAnswer> {
  write(formatApproval(req, style));
  for (let round = 0; round < 10; round++) {
    const answer = parseApprovalAnswer(await ask(approvalQuestion()), req);
    if (answer !== 'view') return answer;
    write(formatApproval({ ...req, preview: req.full ?? req.preview }, style));
  }
  return false;
}
