import type { ChatSession } from '../../agent/chat.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { SHELL_TOOL } from '../../tools/shell/entry.js';
import { blockedWriteDir } from '../../tools/shell/read-only.js';
import { GRANT_WRITE_CWD } from '../../tools/shell/shell.js';
import type { AnyTool, ToolContext } from '../../tools/types.js';
import { foldOutput, outputOf } from '../render/shell-output.js';
import type { Style } from '../render/style.js';

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
  const tool = chat.deps.tools.get(SHELL_TOOL.name) as AnyTool | undefined;
  if (!tool) return;
  const ctx: ToolContext = {
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
  };
  const args = tool.schema.parse({ command });
  const verdict = (await tool.assess?.(args, ctx)) ?? {};
  if (verdict.refuse) {
    // The policy's own reason (C:\\ named, a registry delete named), not a generic one.
    io.warn(t('input.bang.refused', { reason: verdict.refuse || t('input.bang.catastrophic') }));
    return;
  }
  if (verdict.warning && !(await io.confirm(t('input.bang.confirmDestructive')))) {
    io.write(`${t('input.bang.declined')}\n`);
    return;
  }
  io.write(`${io.style.dim(`$ ${visible(command)}`)}\n`);
  let ran = await runOnce(tool, args, ctx, io);
  // The sandbox kept it from writing here: say so, and offer what the model's approval offers (w).
  const sandboxDir = blockedWriteDir(ran.content);
  if (ran.failed && sandboxDir) {
    io.warn(t('input.bang.sandboxed', { dir: sandboxDir }));
    if (await io.confirm(t('input.bang.retryWriteCwd'))) {
      io.write(`${io.style.dim(`$ ${visible(command)}`)}\n`);
      ran = await runOnce(tool, args, { ...ctx, granted: [GRANT_WRITE_CWD] }, io);
    }
  }
  const { content } = ran;
  chat.note(
    {
      role: 'user',
      content: `I ran this command in my shell myself (no tool call was involved):\n$ ${command}\n\n${content}`,
    },
    `!${command}`,
  );
  io.write(`${io.style.dim(t('input.bang.added'))}\n`);
}

/** Run the command once and show what it printed, and its exit code when it failed. */
async function runOnce(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
  io: BangIo,
): Promise<{ content: string; failed: boolean }> {
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
  return { content, failed: failed || (code !== undefined && code !== '0') };
}
