import { createInterface } from 'node:readline';
import type { Approval, Prompter, ToolApproval } from '../agent/loop.js';
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
  return Spinner.holdWhile(async () => isYesAnswer(await readAnswer(question, signal)));
}

function isYesAnswer(answer: string | null): boolean {
  return answer !== null && /^(y|yes|是|好|对|确认|允许)$/i.test(answer.trim());
}

/** "a", "always", "总是", "始终": yes for the rest of the session. */
export function isAlwaysAnswer(answer: string | null): boolean {
  return answer !== null && /^(a|always|总是|始终|一直|始终允许)$/i.test(answer.trim());
}

/** The question under a tool call: yes/no, or yes/always/no when the call offers "always". */
async function approve(req: ToolApproval, signal: AbortSignal): Promise<Approval> {
  if (signal.aborted) return false;
  if (!req.always) return askYesNo(`${t('tools.approve.question')} `, signal);
  const answer = await readAnswer(`${t('safety.fetch.question', { always: req.always })} `, signal);
  return isAlwaysAnswer(answer) ? 'always' : isYesAnswer(answer);
}

async function readAnswer(question: string, signal?: AbortSignal): Promise<string | null> {
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
        return approve(req, signal);
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
