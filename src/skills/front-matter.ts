/**
 * The front matter of a Markdown file (a SKILL.md, a custom command), found without the YAML
 * parser: a folder of commands without front matter never loads it.
 */

/** `---\n<yaml>\n---\n<body>`; undefined when the file does not start with front matter. */
export function splitFrontMatter(text: string): { yaml: string; body: string; bodyLine: number } | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end < 0) return undefined;
  return {
    yaml: lines.slice(1, end).join('\n'),
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
    bodyLine: end + 2,
  };
}
