/**
 * English left in a Chinese screen: runs of three or more English words in a row. What is not
 * prose is taken out first — code in backticks, paths, URLs, flags, environment variables, quoted
 * values, and the names that stay English in Chinese text (ALLOWED).
 */

/** Names and terms a Chinese sentence keeps in English (products, formats, protocol words). */
const ALLOWED = [
  'Zhipu',
  'BigModel',
  'Z.ai',
  'Coding Plan',
  'GLM',
  'API',
  'MCP',
  'HTTP',
  'JSON',
  'YAML',
  'CSV',
  'PDF',
  'OCR',
  'Excel',
  'Word',
  'WPS',
  'LibreOffice',
  'Markdown',
  'Node',
  'npm',
  'zhi',
  'tokens',
  'stdio',
  'shell',
  'Enter',
  'Ctrl',
  'code',
];

export function englishRuns(screen: string): string[] {
  let text = screen
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/[“"「][^”"」\n]*[”"」]/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/(^|\s)--?[\w-]+/g, ' ')
    .replace(/\$[A-Z_]+/g, ' ')
    .replace(/\S*[/\\]\S*/g, ' ')
    .replace(/\S+\.[A-Za-z0-9]{1,5}\b/g, ' ');
  for (const name of ALLOWED)
    text = text.replaceAll(new RegExp(`\\b${name.replace('.', '\\.')}\\b`, 'g'), ' ');
  return [...text.matchAll(/[A-Za-z][A-Za-z'’-]+(?:[ ,]+[A-Za-z][A-Za-z'’-]*){2,}/g)].map((m) => m[0]);
}
