/** Human size: 512 B, 12.3 KB, 2.1 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

/**
 * Keep the first `maxBytes` bytes of a text (never splitting a character) and say visibly that
 * the rest was cut, with both sizes.
 */
export function truncateText(
  text: string,
  maxBytes: number,
): { text: string; truncated: boolean; bytes: number } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, truncated: false, bytes };
  let head = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8');
  head = head.replace(/\uFFFD+$/, '');
  return {
    text: `${head}\n\n[truncated: showing the first ${formatBytes(maxBytes)} of ${formatBytes(bytes)}]`,
    truncated: true,
    bytes,
  };
}

/**
 * Markdown as the words a person reads, for one-line previews (`/resume`, session titles): no
 * heading marks, emphasis, code fences or backticks, links as their text, table rows as cells
 * joined by `·`, rules and table separators dropped. Not a renderer: whatever it does not know
 * stays as written.
 */
export function markdownAsPlain(md: string): string {
  return md
    .split('\n')
    .map((line) => {
      const l = line.trim();
      if (
        /^(```|~~~)/.test(l) ||
        /^([-*_])(\s*\1){2,}$/.test(l) ||
        /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/.test(l)
      )
        return '';
      let s = l
        .replace(/^#{1,6}\s+/, '')
        .replace(/^>\s?/, '')
        .replace(/^([-*+]|\d+[.)])\s+/, '');
      if (/^\|.*\|$/.test(s))
        s = s
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim())
          .join(' · ');
      return s
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
        .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)/g, '$1$2')
        .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
        .replace(/`+([^`]+)`+/g, '$1');
    })
    .filter((l) => l !== '')
    .join('\n');
}
