import { createInterface } from 'node:readline';
import type { Prompter, ToolApproval } from '../agent/loop.js';
import { t } from '../support/i18n/index.js';
import type { Question } from '../tools/types.js';
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
    if (answer === null) return false;
    return /^(y|yes|是|好|对|确认|允许)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Format a tool call for a person: the tool, its full arguments, and any warning in red. */
export function formatApproval(req: ToolApproval, style: Style): string {
  const lines: string[] = [];
  if (req.warning)
    lines.push(style.enabled ? style.red(style.bold(`⚠ ${req.warning}`)) : `[WARNING] ${req.warning}`);
  lines.push(`${style.bold(t('tools.approve.title', { name: req.name }))}`);
  for (const line of req.preview.split('\n')) lines.push(`  ${line}`);
  return `${lines.join('\n')}\n`;
}

export function terminalPrompter(style: Style): Prompter {
  return {
    interactive: true,
    confirmTool(req: ToolApproval, signal: AbortSignal) {
      return Spinner.holdWhile(async () => {
        process.stderr.write(formatApproval(req, style));
        return askYesNo(`${t('tools.approve.question')} `, signal);
      });
    },
    ask(q: Question, signal: AbortSignal) {
      return Spinner.holdWhile(async () => {
        const head = q.danger ? style.red(style.bold(q.message)) : style.bold(q.message);
        process.stderr.write(`${head}\n${q.detail ? `  ${q.detail}\n` : ''}`);
        return askYesNo(`${t('tools.approve.question')} `, signal);
      });
    },
  };
}
