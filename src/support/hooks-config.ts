/**
 * `hooks:` in config.yaml: the person's own commands, run at points of a conversation with the
 * event as JSON on stdin (cli/hooks.ts runs them).
 *
 *   hooks:
 *     before_tool:                 # may block the call: exit 2, or {"decision":"block","reason":…}
 *       - command: ~/bin/check-write.sh
 *         match: file_write        # a tool name or a list of them (default: every tool)
 *         timeout: 5               # seconds (default 10)
 *     after_turn:
 *       - command: notify-send zhi "answer ready"
 *
 * Checked here (plain code, like mcp_servers); a bad entry is left out with a warning that says
 * which one and why, the others work.
 */

export const HOOK_EVENTS = [
  'before_tool',
  'after_tool',
  'after_turn',
  'session_start',
  'session_end',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export interface HookSpec {
  event: HookEventName;
  command: string;
  /** Tool names the hook is for (tool events only); undefined: every tool. */
  match?: string[];
  timeoutMs: number;
}

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
const MAX_HOOK_TIMEOUT_S = 600;

export type HookProblemCode =
  | 'not_map'
  | 'unknown_event'
  | 'not_list'
  | 'no_command'
  | 'bad_match'
  | 'bad_timeout';

export interface HookProblem {
  code: HookProblemCode;
  /** The event's name as written, and the entry's place in its list (1-based), when known. */
  event?: string;
  index?: number;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The usable hooks of a `hooks:` value, and a problem for each entry left out. */
export function readHooks(value: unknown): { hooks: HookSpec[]; problems: HookProblem[] } {
  const out = { hooks: [] as HookSpec[], problems: [] as HookProblem[] };
  if (value === undefined || value === null) return out;
  if (!isMap(value)) {
    out.problems.push({ code: 'not_map' });
    return out;
  }
  for (const [event, list] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      out.problems.push({ code: 'unknown_event', event });
      continue;
    }
    // One entry may be written without the list around it.
    const entries = Array.isArray(list) ? list : isMap(list) ? [list] : undefined;
    if (!entries) {
      out.problems.push({ code: 'not_list', event });
      continue;
    }
    entries.forEach((entry, i) => {
      const spec = readEntry(event as HookEventName, entry);
      if ('code' in spec) out.problems.push({ ...spec, event, index: i + 1 });
      else out.hooks.push(spec);
    });
  }
  return out;
}

function readEntry(event: HookEventName, entry: unknown): HookSpec | { code: HookProblemCode } {
  // `- ./script.sh` is a command with the defaults.
  const e = isText(entry) ? { command: entry } : entry;
  if (!isMap(e) || !isText(e.command)) return { code: 'no_command' };
  let match: string[] | undefined;
  if (e.match !== undefined) {
    const names = Array.isArray(e.match) ? e.match : [e.match];
    if (!names.length || !names.every(isText)) return { code: 'bad_match' };
    match = names.map((n) => n.trim());
  }
  let timeoutMs = DEFAULT_HOOK_TIMEOUT_MS;
  if (e.timeout !== undefined) {
    const s = e.timeout;
    if (typeof s !== 'number' || !Number.isFinite(s) || s <= 0 || s > MAX_HOOK_TIMEOUT_S)
      return { code: 'bad_timeout' };
    timeoutMs = Math.round(s * 1000);
  }
  return { event, command: e.command.trim(), ...(match ? { match } : {}), timeoutMs };
}
