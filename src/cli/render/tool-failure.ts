import { getLanguage, t } from '../../support/i18n/index.js';

/** What failed tools tell the model, recognised to tell the person the same in their language. */
const KNOWN: [RegExp, Parameters<typeof t>[0]][] = [
  // MCP servers first: their reasons quote the server's own words, which may match the others.
  [/^The MCP server "[^"]*" stopped while running .*; zhi restarted it/, 'input.tool.mcpRestarted'],
  [/^The MCP server "[^"]*" stopped while running .*; it could not be restarted/, 'input.tool.mcpGone'],
  [/^The MCP server "[^"]*" is not running/, 'input.tool.mcpNotRunning'],
  [/^Interrupted by the user/i, 'input.tool.interrupted'],
  [/did not finish within|timed out/i, 'input.tool.timeout'],
  [/no such file|not found|does not exist/i, 'input.tool.notFound'],
  [/permission denied|not allowed|EACCES|EPERM/i, 'input.tool.permission'],
  [
    /outside the current folder|outside the output folder|outside the current directory/i,
    'input.tool.outside',
  ],
  [
    /needs LibreOffice|password-protected|cannot be read|binary file|not a text file/i,
    'input.tool.unreadable',
  ],
  [/already exists/i, 'input.tool.exists'],
];

/**
 * The reason a tool failed, for the person. The tool's own words are written for the model in
 * English: an English reader gets them; anyone else gets the reason in their language when it is
 * a known one, and otherwise a plain note that the model was told.
 */
export function toolFailureText(result: string): string {
  const first = result.replace(/^Error: /, '').split('\n')[0] ?? '';
  if (getLanguage() === 'en') return first;
  const hit = KNOWN.find(([re]) => re.test(first));
  return t(hit ? hit[1] : 'input.tool.other');
}
