/**
 * Symbols the console can draw. Windows 10's console host (conhost) has no colour emoji: 📎 shows
 * as a box or two question marks. Windows Terminal, VS Code's terminal and every Unix terminal
 * draw them.
 */
export function emojiDrawable(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  if (platform !== 'win32') return true;
  return Boolean(env.WT_SESSION || env.TERM_PROGRAM || env.ConEmuANSI === 'ON');
}

/** The mark before an attached file. */
export function attachMark(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string {
  return emojiDrawable(env, platform) ? '📎' : '+';
}
