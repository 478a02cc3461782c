/**
 * `allowed-tools` in chat, as in `zhi run`: once the model loads a skill that declares it, only
 * those tools run until the person's next message (a shell scope such as `Bash(python3:*)` limits
 * the shell to those programs). It only ever narrows: a listed tool still goes through the one
 * permission policy — it asks as always, the sandbox and the destructive-command checks apply —
 * so a skill can never approve anything for itself (the spec's "pre-approved" is the person's to
 * give, not the skill's). Two skills loaded in one turn: a call must fit both.
 */

import { SHELL_TOOL } from '../tools/shell/entry.js';
import { outsideScopes } from '../tools/shell/scope.js';
import type { Notice } from '../tools/types.js';
import type { Skill } from './schema.js';

/** What one loaded skill allows. */
interface Limit {
  skill: string;
  tools: readonly string[];
  shellScopes?: readonly string[];
}

export interface Refusal {
  /** For the model (English): what was refused and what it may use instead. */
  reason: string;
  /** For the person, in their language. */
  notice: Notice;
}

/** Always allowed: loading skills and reading their bundled files. */
const ALWAYS = ['skill'];

export class SkillLimits {
  private active: Limit[] = [];

  /** A skill was loaded: from now until `clear`, its `allowed-tools` (if any) limit every call. */
  enter(skill: Skill): void {
    if (!skill.allowedTools || this.active.some((l) => l.skill === skill.name)) return;
    this.active.push({
      skill: skill.name,
      tools: skill.allowedTools,
      ...(skill.shellScopes?.length ? { shellScopes: skill.shellScopes } : {}),
    });
  }

  /** A new message from the person: the limits of the skills loaded before end. */
  clear(): void {
    this.active = [];
  }

  /** Why this call may not run under the loaded skills, or undefined when it may. */
  check(name: string, args: unknown): Refusal | undefined {
    if (ALWAYS.includes(name)) return undefined;
    for (const limit of this.active) {
      if (!allowsTool(limit.tools, name)) {
        const tools = describe(limit);
        return {
          reason: `the skill "${limit.skill}" you loaded allows only these tools: ${tools}; "${name}" is not one of them. Use those tools, or tell the person what else you need and why`,
          notice: { key: 'skills.limit.tool', params: { skill: limit.skill, name, tools } },
        };
      }
      const command = name === SHELL_TOOL.name ? commandOf(args) : undefined;
      const outside =
        command !== undefined && limit.shellScopes ? outsideScopes(command, limit.shellScopes) : undefined;
      if (outside !== undefined) {
        const scopes = limit.shellScopes!.join(', ');
        return {
          reason: `the skill "${limit.skill}" you loaded allows only shell commands that start with ${scopes}; "${outside}" does not`,
          notice: { key: 'skills.limit.shell', params: { skill: limit.skill, command: outside, scopes } },
        };
      }
    }
    return undefined;
  }

  /** The line the model reads with a skill's instructions, or undefined when the skill sets no limit. */
  static note(skill: Skill): string | undefined {
    if (!skill.allowedTools) return undefined;
    const tools = describe({
      skill: skill.name,
      tools: skill.allowedTools,
      ...(skill.shellScopes ? { shellScopes: skill.shellScopes } : {}),
    });
    return `While you use this skill (until the person's next message), zhi runs only these tools, as its allowed-tools says: ${tools}, and "skill" to read its files. Other calls are refused.`;
  }
}

/** A listed name, or a tool of a listed MCP server (`mcp:<server>`, also from `mcp__<server>__…`). */
function allowsTool(tools: readonly string[], name: string): boolean {
  return tools.some((t) => t === name || (t.startsWith('mcp:') && name.startsWith(`${t.slice(4)}__`)));
}

function describe(limit: Limit): string {
  return limit.tools
    .map((t) => (t === SHELL_TOOL.name && limit.shellScopes ? `shell (${limit.shellScopes.join(', ')})` : t))
    .join(', ');
}

function commandOf(args: unknown): string | undefined {
  const command = (args as { command?: unknown } | undefined)?.command;
  return typeof command === 'string' ? command : undefined;
}
