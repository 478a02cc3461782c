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
