import { getLanguage, type MessageKey, type Params, t } from '../../support/i18n/index.js';
import { blockedWriteDir } from '../../tools/shell/read-only.js';

type Known = [RegExp, MessageKey, ((m: RegExpExecArray) => Params)?];

const hostOf = (m: RegExpExecArray): Params => {
  try {
    return { host: new URL(m[1]!).host };
  } catch {
    return { host: m[1]! };
  }
};

/** What failed tools tell the model, recognised to tell the person the same in their language. */
const KNOWN: Known[] = [
  // MCP servers first: their reasons quote the server's own words, which may match the others.
  [/^The MCP server "[^"]*" stopped while running .*; zhi restarted it/, 'input.tool.mcpRestarted'],
  [/^The MCP server "[^"]*" stopped while running .*; it could not be restarted/, 'input.tool.mcpGone'],
  [/^The MCP server "[^"]*" is not running/, 'input.tool.mcpNotRunning'],
  [/^Interrupted by the user/i, 'input.tool.interrupted'],
  // A refusal's reason was shown already, in the person's language (the permission line).
  [/^Refused: /, 'input.tool.refused'],
  // Not asked: no terminal to ask at (the warning above said so); the model was told to say so.
  [/^Denied: .*no one can be asked here/, 'input.tool.notAsked'],
  [/^The command did not run: the restricted token/, 'input.tool.noRestrictedToken'],
  // A site that is not there or not reachable is no missing file (web_fetch's own words).
  [/^Cannot fetch (\S+): the name (?:does not exist|has no addresses)/, 'input.tool.noSuchSite', hostOf],
  [/^(?:Cannot|Could not) fetch (\S+?):? /, 'input.tool.unreachable', hostOf],
  [/^The output folder (.+) cannot be created/, 'input.tool.folderNotCreated', (m) => ({ dir: m[1]! })],
  [/did not finish within|timed out/i, 'input.tool.timeout'],
  [/^Exit code: (\d+)/, 'input.tool.exitCode', (m) => ({ code: m[1]! })],
  [/no such file|not found|does not exist/i, 'input.tool.notFound'],
  // Before "not allowed": a refused absolute path is about where, not about permissions.
  [/^Absolute paths are not allowed/i, 'input.tool.absolute'],
  [
    /points outside the current|resolves outside the output folder|leads outside the output folder/i,
    'input.tool.outside',
  ],
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
  const body = result.replace(/^Error: /, '');
  // A command the sandbox kept from writing (zhi's own line says so): with the way to allow it.
  const dir = blockedWriteDir(body);
  if (dir) return t('input.tool.sandboxReadOnly', { dir });
  const first = body.split('\n')[0] ?? '';
  if (getLanguage() === 'en') return first;
  for (const [re, key, params] of KNOWN) {
    const m = re.exec(first);
    if (m) return t(key, params?.(m));
  }
  return t('input.tool.other');
}
