/**
 * `allow:` in config.yaml: the person's lasting "always allow" rules, read at every start.
 *
 *   allow:
 *     - tool: file_write                        # a tool by name (not shell, not an MCP tool)
 *     - tool: web_fetch                         # a tool, for one site: also what it sends there
 *       host: docs.example.com
 *     - shell: git status                       # a shell command prefix (its files and options vary)
 *     - mcp: files                              # every tool of an MCP server
 *     - mcp: db
 *       tool: query                             # one tool of it
 *
 * Checked here (plain code, like hooks); a bad entry is left out with a warning naming its line,
 * and a rule left out only means a question. What each rule covers is decided by the one policy
 * (agent/permissions.ts `decide`, told by agent/allow-rules.ts); a rule never covers what the
 * safety checks refuse (a shell refusal, a secret leaving, a destructive command's warning).
 */

export type AllowRule =
  | { kind: 'tool'; tool: string; host?: string }
  | { kind: 'shell'; command: string; words: string[] }
  | { kind: 'mcp'; server: string; tool?: string };

/** A rule's kind, the key it is written with: `tool:`, `shell:` (a command prefix), `mcp:` (a server). */
export type RuleKind = AllowRule['kind'];

export type AllowProblemCode =
  | 'not_list'
  | 'not_map'
  | 'no_kind'
  | 'two_kinds'
  | 'bad_value'
  | 'unknown_field';

export interface AllowProblem {
  code: AllowProblemCode;
  /** The entry's place in the list (1-based), and the field concerned when there is one. */
  index?: number;
  field?: string;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
const KINDS: readonly RuleKind[] = ['tool', 'shell', 'mcp'];
const FIELDS: Record<RuleKind, readonly string[]> = {
  tool: ['tool', 'host'],
  shell: ['shell'],
  mcp: ['mcp', 'tool'],
};

/** The usable rules of an `allow:` value, and a problem for each entry left out. */
export function readAllowRules(value: unknown): { rules: AllowRule[]; problems: AllowProblem[] } {
  const out = { rules: [] as AllowRule[], problems: [] as AllowProblem[] };
  if (value === undefined || value === null) return out;
  if (!Array.isArray(value)) {
    out.problems.push({ code: 'not_list' });
    return out;
  }
  value.forEach((entry, i) => {
    const rule = readRule(entry);
    if ('code' in rule) out.problems.push({ ...rule, index: i + 1 });
    else out.rules.push(rule);
  });
  return out;
}

function readRule(entry: unknown): AllowRule | Omit<AllowProblem, 'index'> {
  if (!isMap(entry)) return { code: 'not_map' };
  const kinds = KINDS.filter((k) => k !== 'tool' && k in entry);
  // `tool:` names the kind only when no `mcp:` or `shell:` is there (an MCP rule's tool is its own).
  const kind = kinds.length ? kinds : 'tool' in entry ? (['tool'] as const) : [];
  if (!kind.length) return { code: 'no_kind' };
  if (kind.length > 1) return { code: 'two_kinds' };
  const k = kind[0]!;
  const extra = Object.keys(entry).find((f) => !FIELDS[k].includes(f));
  if (extra) return { code: 'unknown_field', field: extra };
  if (k === 'shell') {
    const command = isText(entry.shell) ? entry.shell.trim() : '';
    const words = shellWords(command);
    if (!words?.length) return { code: 'bad_value', field: 'shell' };
    return { kind: 'shell', command, words };
  }
  const main = entry[k];
  if (!isText(main) || !NAME.test(main.trim())) return { code: 'bad_value', field: k };
  if (k === 'mcp') {
    if (entry.tool === undefined) return { kind: 'mcp', server: main.trim() };
    if (!isText(entry.tool) || !NAME.test(entry.tool.trim())) return { code: 'bad_value', field: 'tool' };
    return { kind: 'mcp', server: main.trim(), tool: entry.tool.trim() };
  }
  if (entry.host === undefined) return { kind: 'tool', tool: main.trim() };
  const host = isText(entry.host) ? entry.host.trim().toLowerCase().replace(/\.$/, '') : '';
  if (!HOST.test(host)) return { code: 'bad_value', field: 'host' };
  return { kind: 'tool', tool: main.trim(), host };
}

/**
 * A command's words as a shell would split them (spaces; single and double quotes group), or
 * undefined when a quote is left open or a character would make it more than one plain command.
 */
export function shellWords(text: string): string[] | undefined {
  if (/[\u0000-\u001f\u007f;&|<>`$()]/.test(text)) return undefined;
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|([^\s"']+)|(["'])/g)) {
    if (m[4]) return undefined;
    words.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return words;
}

/** A rule as the person reads it (`/status`, `zhi config show`, `zhi config allow list`). */
export function allowRuleText(rule: AllowRule): string {
  if (rule.kind === 'shell') return `shell: ${rule.command}`;
  if (rule.kind === 'mcp')
    return rule.tool ? `mcp: ${rule.server}, tool: ${rule.tool}` : `mcp: ${rule.server}`;
  return rule.host ? `tool: ${rule.tool}, host: ${rule.host}` : `tool: ${rule.tool}`;
}

/** A rule as config.yaml keeps it. */
export function allowRuleEntry(rule: AllowRule): Record<string, string> {
  if (rule.kind === 'shell') return { shell: rule.command };
  if (rule.kind === 'mcp') return { mcp: rule.server, ...(rule.tool ? { tool: rule.tool } : {}) };
  return { tool: rule.tool, ...(rule.host ? { host: rule.host } : {}) };
}
