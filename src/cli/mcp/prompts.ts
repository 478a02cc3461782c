/**
 * MCP prompts as slash commands: `/mcp__<server>__<prompt> args…` (Claude Code's spelling) in the
 * REPL and in `zhi -c`. Arguments are `name=value` words, or plain words given to the prompt's
 * arguments in order (the last one takes the rest of the line). The servers are waited for: a
 * prompt is known once its server is up.
 */
import { ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { ServerPrompt } from '../../tools/mcp/prompts.js';
import type { ChatMcp } from './chat.js';

/** The words of the argument text; "double quoted" words keep their spaces. */
function words(text: string): string[] {
  return [...text.matchAll(/(\S+?=)?"([^"]*)"|(\S+)/g)].map((m) => m[3] ?? `${m[1] ?? ''}${m[2]}`);
}

/** The prompt's arguments from the text after the command, or the required ones missing. */
export function promptArgs(
  prompt: Pick<ServerPrompt, 'arguments'>,
  text: string,
): { args: Record<string, string> } | { missing: string[] } {
  const names = prompt.arguments.map((a) => a.name);
  const args: Record<string, string> = {};
  const plain: string[] = [];
  for (const w of words(text)) {
    const eq = w.indexOf('=');
    const key = eq > 0 ? w.slice(0, eq) : '';
    if (key && names.includes(key)) args[key] = w.slice(eq + 1);
    else plain.push(w);
  }
  const open = names.filter((n) => args[n] === undefined);
  open.forEach((n, i) => {
    const value = i === open.length - 1 ? plain.slice(i).join(' ') : plain[i];
    if (value) args[n] = value;
  });
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  return missing.length ? { missing } : { args };
}

/** How the command is typed: `<required> [optional]`. */
export function promptUsage(prompt: Pick<ServerPrompt, 'arguments'>): string {
  return prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
}

/** The message a prompt command sends, or a clear error (an unknown prompt, a missing argument). */
export async function expandPrompt(
  mcp: ChatMcp,
  name: string,
  text: string,
  note: (line: string) => void,
): Promise<string> {
  const manager = await mcp.ensure();
  await manager.settled();
  const all = manager.prompts();
  const prompt = all.find((p) => p.command === name.toLowerCase());
  if (!prompt) {
    const known = all.map((p) => `/${p.command}`).join(', ');
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'mcp.prompt.unknown', params: { name: visible(name) } },
      why: known ? { key: 'mcp.prompt.known', params: { known } } : { key: 'mcp.prompt.none' },
    });
  }
  const parsed = promptArgs(prompt, text);
  if ('missing' in parsed) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'mcp.prompt.missing', params: { name: prompt.command, args: parsed.missing.join(', ') } },
      tries: [{ key: 'mcp.prompt.usage', params: { usage: `/${prompt.command} ${promptUsage(prompt)}` } }],
    });
  }
  note(t('mcp.prompt.sending', { prompt: visible(prompt.name), server: prompt.server }));
  return manager.promptText(prompt, parsed.args);
}
