import type { ChatSession } from '../../agent/chat.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { AnyTool, ToolContext } from '../../tools/types.js';
import type { Style } from '../render/style.js';

/** Lines of output shown before the rest is folded (the model gets all of it). */
export const SHOWN_LINES = 12;

/** `!ls` or `！ls` (a Chinese input method types the full-width one): a command the person runs. */
export function bangCommand(text: string): string | undefined {
  const m = /^\s*[!！]([\s\S]*)$/.exec(text);
  return m ? m[1]!.trim() : undefined;
}

/** The output as shown: the first lines, then how many more were folded away. */
export function foldOutput(output: string, shown = SHOWN_LINES): string[] {
  const lines = output.replace(/\n+$/, '').split('\n');
  if (lines.length <= shown + 1) return lines;
  return [...lines.slice(0, shown), t('input.bang.folded', { n: lines.length - shown })];
}

export interface BangIo {
  write(text: string): void;
  warn(text: string): void;
  confirm(question: string): Promise<boolean>;
  style: Style;
  signal: AbortSignal;
}

/**
 * `!command`: a command the person typed, run by the shell tool itself — the same runner, the
 * same sandbox, the same refusal of catastrophic commands — without the model. A destructive
 * one is confirmed first. The output is shown (first lines, the rest folded) and added to the
 * conversation, so the next message can ask about it.
 */
export async function runBang(command: string, chat: ChatSession, io: BangIo): Promise<void> {
  const tool = chat.deps.tools.get('shell') as AnyTool | undefined;
  if (!tool) return;
  const ctx = {
    cwd: chat.deps.cwd,
    outputDir: chat.deps.outputDir,
    signal: io.signal,
    interactive: true,
    ask: (q: { message: string }) => io.confirm(q.message),
    recordFile: () => {},
    progress: () => {},
    reportUsage: () => {},
    emit: () => {},
    usage: chat.deps.usage,
    client: chat.deps.client,
    services: chat.deps.services ?? {},
  } as ToolContext;
  const args = tool.schema.parse({ command });
  const verdict = (await tool.assess?.(args, ctx)) ?? {};
  if (verdict.refuse) {
    io.warn(t('input.bang.refused', { reason: t('input.bang.catastrophic') }));
    return;
  }
  if (verdict.warning && !(await io.confirm(t('input.bang.confirmDestructive')))) {
    io.write(`${t('input.bang.declined')}\n`);
    return;
  }
  io.write(`${io.style.dim(`$ ${visible(command)}`)}\n`);
  let content: string;
  let failed = false;
  try {
    const result = await tool.execute(args, ctx);
    content = typeof result === 'string' ? result : result.content;
    failed = typeof result !== 'string' && Boolean(result.isError);
  } catch (err) {
    content = err instanceof Error ? err.message : String(err);
    failed = true;
  }
  const output = outputOf(content);
  if (output) io.write(`${foldOutput(visible(output, { keepNewlines: true, keepTabs: true })).join('\n')}\n`);
  const code = /^Exit code: (\d+)/.exec(content)?.[1];
  if (failed || (code && code !== '0'))
    io.write(`${io.style.dim(t('input.bang.exit', { code: code ?? '?' }))}\n`);
  chat.note({
    role: 'user',
    content: `I ran this command in my shell myself (no tool call was involved):\n$ ${command}\n\n${content}`,
  });
  io.write(`${io.style.dim(t('input.bang.added'))}\n`);
}

/** stdout and stderr from the shell tool's report, without its headings. */
export function outputOf(content: string): string {
  const end = '(?=\\n\\n(?:stderr:\\n|\\[output truncated|Processes the command left|It ran )|$)';
  const part = (name: string) => new RegExp(`(?:^|\\n\\n)${name}:\\n([\\s\\S]*?)${end}`).exec(content)?.[1];
  const found = [part('stdout'), part('stderr')].filter((p): p is string => Boolean(p));
  if (found.length) return found.join('\n');
  return /^(Exit code|The command)/.test(content) ? '' : content;
}
