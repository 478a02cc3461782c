import { spawnSync } from 'node:child_process';
import { onPath } from './external-editor.js';

/** The platform's clipboard tools, in order: the first one found is used. */
export function clipboardTools(env: NodeJS.ProcessEnv, platform = process.platform): string[][] {
  if (platform === 'darwin') return [['pbcopy']];
  if (platform === 'win32') return [['clip']];
  const tools: string[][] = [];
  if (env.WAYLAND_DISPLAY) tools.push(['wl-copy']);
  if (env.DISPLAY) tools.push(['xclip', '-selection', 'clipboard'], ['xsel', '--clipboard', '--input']);
  return tools;
}

/**
 * OSC 52 asks the terminal itself to set the clipboard: it works over SSH and in tmux (with
 * set-clipboard on), and terminals that do not support it ignore it. Terminals cap its size,
 * so very long texts are left to the platform tool.
 */
export function osc52(text: string): string | undefined {
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  if (b64.length > 100_000) return undefined;
  return `\x1b]52;c;${b64}\x07`;
}

export type CopyResult = 'tool' | 'terminal' | 'failed';

/**
 * Put `text` on the clipboard: through the terminal (OSC 52) when it is one, and through the
 * platform tool (pbcopy, clip, wl-copy, xclip) when there is one. 'tool' when a tool took it
 * (certain), 'terminal' when only OSC 52 was sent (the terminal may have ignored it).
 */
export function copyText(
  text: string,
  o: { env: NodeJS.ProcessEnv; tty: boolean; write: (s: string) => void; platform?: NodeJS.Platform },
): CopyResult {
  const platform = o.platform ?? process.platform;
  const seq = o.tty ? osc52(text) : undefined;
  if (seq) o.write(seq);
  for (const [cmd, ...args] of clipboardTools(o.env, platform)) {
    if (!onPath(cmd!, o.env, platform)) continue;
    // clip.exe reads the console code page unless given UTF-16LE with a BOM.
    const input = platform === 'win32' ? Buffer.from(`\ufeff${text}`, 'utf16le') : text;
    const res = spawnSync(cmd!, args, { input, stdio: ['pipe', 'ignore', 'ignore'], timeout: 5000 });
    if (!res.error && res.status === 0) return 'tool';
  }
  return seq ? 'terminal' : 'failed';
}
