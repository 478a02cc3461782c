/** Words as cmd.exe's own commands read them (cmd-parse.ts): switches glued by `=`, paths as Windows resolves them. */

/**
 * Switches as cmd's own commands read them: `/s=/q=` is `/s /q` (`=` separates words), and
 * `^"/s^"` (a quote escaped into the word) is `/s`.
 */
export function switchWords(word: string): string[] {
  const bare = /^"[/-][a-z?]+"$/i.test(word) ? word.slice(1, -1) : word;
  if (!bare.includes('=') || !/^=?[/-]/.test(bare)) return [bare];
  const parts = bare.split('=');
  if (parts.every((p) => p === '' || /^[/-][a-z?]+$/i.test(p))) return parts.filter((p) => p !== '');
  // `rd=/s=/q=C:\`: cmd's own commands read `=` as a space, so the last part is a word of its own.
  const last = parts[parts.length - 1]!;
  return parts.length > 2 &&
    parts.slice(0, -1).every((p) => p === '' || /^[/-][a-z?]+$/i.test(p)) &&
    last !== ''
    ? [...parts.slice(0, -1).filter((p) => p !== ''), last]
    : [bare];
}

/**
 * A path as Windows resolves it: `\\?\C:\`, `\\.\C:\` and `\\localhost\C$\` are `C:\`; trailing
 * dots and spaces of each part are dropped (`C:\Users\ann.` is `C:\Users\ann`).
 */
export function windowsPath(word: string): string {
  const p = word
    .replace(/^[\\/]{2}[?.][\\/]unc[\\/][^\\/]+[\\/]([a-z])\$/i, '$1:')
    .replace(/^[\\/]{2}[?.][\\/]([a-z]:)/i, '$1')
    // `\\localhost\C$`, `\\127.0.0.1\C$` or a bare name (this computer's own, perhaps): a drive
    // here. An address or a dotted name is another computer: a share there (windows-egress.ts).
    .replace(/^[\\/]{2}(localhost|127\.[\d.]+|\[?::1\]?|[^\\/.:]+)[\\/]([a-z])\$(?=[\\/]|$)/i, '$2:');
  if (!/[\\/]/.test(p) || /^\/[a-z?]$/i.test(p)) return p;
  return p
    .split(/([\\/])/)
    .map((seg) =>
      seg === '.' || seg === '..' || seg === '\\' || seg === '/' ? seg : seg.replace(/[. ]+$/, ''),
    )
    .join('');
}
