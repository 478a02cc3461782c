import type { Message } from '../../llm/types.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import { lacksContent, mapCliInputs } from '../../skills/inputs.js';
import { SKILL_CREATE_TOOL } from '../../skills/skill-create-entry.js';
import { creationSeed, findTemplate, TEMPLATES } from '../../skills/templates.js';
import { ExitCode, type ExitCodeValue, exitCodeOf, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { FILE_LIST_TOOL, FILE_READ_TOOL } from '../../tools/index.js';
import { type Asker, terminalAsker } from '../ask.js';
import { createChat } from '../chat.js';
import { type AppContext, requireKey } from '../context.js';
import { FOLDER_LISTS, FOLDER_SWITCHES } from '../folder-flags.js';
import { sendPrinted } from '../modes/once.js';
import { terminalPrompter } from '../prompter.js';
import { ALL_TOOL_NAMES } from '../tools.js';
import { findSkill, runFromCommandLine } from './execute.js';
import { loadCatalog } from './runtime.js';

/** The name of the skill a successful skill_create call saved in `messages` (from index `from` on). */
export function createdSkill(messages: readonly Message[], from = 0): string | undefined {
  const asked = new Map<string, string>();
  let name: string | undefined;
  for (const m of messages.slice(from)) {
    if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) {
        if (call.function.name !== SKILL_CREATE_TOOL.name) continue;
        const args = parseJson(call.function.arguments) as { name?: unknown } | undefined;
        if (typeof args?.name === 'string') asked.set(call.id, args.name);
      }
    } else if (m.role === 'tool' && asked.has(m.tool_call_id) && !String(m.content).startsWith('Error:')) {
      name = asked.get(m.tool_call_id);
    }
  }
  return name;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `zhi skill new [template]`: a conversation with GLM-5 seeded with a template, which ends when
 * skill_create has saved the skill; then the new skill can be run at once.
 */
export async function newSkillConversation(
  ctx: AppContext,
  templateArg: string | undefined,
): Promise<ExitCodeValue> {
  if (!ctx.stdinIsTTY) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.new.noTerminal' },
      tries: [{ key: 'skills.new.tryChat' }],
    });
  }
  requireKey(ctx);
  if (templateArg && !findTemplate(templateArg)) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.new.unknownTemplate', params: { name: templateArg } },
      why: { key: 'skills.new.templates', params: { names: TEMPLATES.map((x) => x.id).join(', ') } },
    });
  }
  const warn = (s: string) => process.stderr.write(`${s}\n`);
  let catalog = await loadCatalog(ctx, warn);
  const asker = terminalAsker(ctx.interrupt);
  const picked =
    templateArg ??
    (await asker.choose(
      t('skills.new.pickTemplate'),
      TEMPLATES.map((x) => ({ value: x.id, label: `${x.id} — ${t(`skills.template.${x.id}`)}` })),
    ));
  const template = findTemplate(picked);
  const request = picked === undefined ? null : await asker.text(t('skills.new.describe'), { default: '' });
  if (!template || request === null) return ExitCode.interrupted;

  // One line reader for the whole conversation, its questions and its tool approvals alike:
  // keys typed ahead (Ctrl+D to end) are never lost between two questions.
  const talk = terminalAsker(ctx.interrupt, { keepOpen: true });
  try {
    const name = await converse(
      ctx,
      talk,
      creationSeed({ template, request, catalog, tools: ALL_TOOL_NAMES }),
    );
    if (!name) return ExitCode.ok;
    catalog = await loadCatalog(ctx, warn);
    const skill = findSkill(catalog, name);
    warn(t('skills.new.saved', { name, file: skill.file }));
    const line = await talk.text(`${t('skills.new.runNow', { name })} `);
    if (!line?.trim()) return ExitCode.ok;
    talk.close();
    return runNow(ctx, catalog, name, line);
  } finally {
    talk.close();
  }
}

/** The conversation with the model until skill_create saved a skill (its name) or the person stops. */
async function converse(ctx: AppContext, talk: Asker, seed: string): Promise<string | undefined> {
  // The chat every mode builds (its model chosen as for any chat: --model, then default_model),
  // with only the tools a skill's author needs.
  const { chat } = await createChat(ctx, {
    kind: 'repl',
    prompter: terminalPrompter(ctx.err, ctx.interrupt, talk),
    tools: [SKILL_CREATE_TOOL.name, FILE_READ_TOOL.name, FILE_LIST_TOOL.name],
  });
  process.stderr.write(`${ctx.err.dim(t('skills.new.started', { model: chat.settings.model }))}\n`);
  let message: string | null = seed;
  while (message?.trim()) {
    await sendPrinted(ctx, chat, message);
    if (createdSkill(chat.messages)) break;
    message = await talk.text(ctx.err.bold('> '));
  }
  return createdSkill(chat.messages);
}

/** Run the new skill with inputs typed like a command line (`report.pdf --to english`). */
async function runNow(
  ctx: AppContext,
  catalog: SkillCatalog,
  name: string,
  line: string,
): Promise<ExitCodeValue> {
  const skill = findSkill(catalog, name);
  const { positionals, named } = splitCommandLine(line);
  const values = mapCliInputs(skill, positionals, named);
  if (lacksContent(skill, values)) {
    throw new ZhiError({ kind: 'usage', what: { key: 'skills.err.noInput', params: { skill: skill.name } } });
  }
  // Run as `zhi run` would (--model, the mode), drawn as plain text.
  const result = await runFromCommandLine(ctx, { catalog, skill, values, format: 'text' });
  return exitCodeOf(result);
}

/** Split typed inputs into positional words and `--name value` pairs (quotes respected). */
export function splitCommandLine(line: string): {
  positionals: string[];
  named: Record<string, string | true>;
} {
  const words = splitWords(line);
  const positionals: string[] = [];
  const named: Record<string, string | true> = {};
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=');
      const key = w.slice(2);
      if (eq > 0) named[w.slice(2, eq)] = w.slice(eq + 1);
      else if (FOLDER_SWITCHES.has(key)) named[key] = true;
      else if (FOLDER_LISTS.has(key) && typeof named[key] === 'string' && words[i + 1] !== undefined)
        named[key] = `${named[key]}\n${words[++i]}`;
      else if (words[i + 1] !== undefined && !words[i + 1]!.startsWith('--')) named[w.slice(2)] = words[++i]!;
      else named[w.slice(2)] = true;
    } else positionals.push(w);
  }
  return { positionals, named };
}

/**
 * Words of a typed line: spaces separate, "double" and 'single' quotes group, a backslash keeps
 * the next character (a dragged-in path like `my\ file.pdf`). No variables, no globbing.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\'))
        cur += line[++i];
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has) words.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}
