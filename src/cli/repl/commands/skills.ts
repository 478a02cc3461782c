import { readdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Message } from '../../../llm/types.js';
import type { SkillCatalog } from '../../../skills/discovery.js';
import { lacksContent, mapCliInputs } from '../../../skills/inputs.js';
import type { Skill } from '../../../skills/schema.js';
import { creationSeed, findTemplate, TEMPLATES } from '../../../skills/templates.js';
import { TrustStore } from '../../../skills/trust.js';
import { ZhiError } from '../../../support/errors.js';
import { t } from '../../../support/i18n/index.js';
import { startModel } from '../../chat.js';
import { newUsage } from '../../client.js';
import { takeFolderFlags } from '../../folder-flags.js';
import { allWarnings, loadCatalog, skillWarnings } from '../../skills/catalog.js';
import { createdSkill, splitCommandLine } from '../../skills/create.js';
import { findSkill } from '../../skills/execute.js';
import { ALL_TOOL_NAMES } from '../../tools.js';
import type { SlashCommand, SlashContext } from './types.js';

const ACTIONS = ['list', 'show', 'new', 'edit', 'delete', 'trust', 'cancel'];

/** Discover the skills again (a skill may have been created or edited) and keep them for completion. */
async function catalogOf(ctx: SlashContext): Promise<SkillCatalog> {
  const catalog = await loadCatalog(ctx.app, (w) => ctx.print(w));
  ctx.state.catalog = catalog;
  return catalog;
}

async function knownNames(ctx: SlashContext, userOnly = false): Promise<string[]> {
  const cached = ctx.state.catalog;
  const catalog = cached ?? (await catalogOf(ctx));
  return [...catalog.skills.values()]
    .filter((s) => !userOnly || s.source === 'user')
    .map((s) => s.name)
    .sort();
}

/** A write stream that hands whole lines to the REPL's printer. */
function lineSink(print: (line: string) => void): NodeJS.WriteStream & { flush(): void } {
  let buffer = '';
  const sink = {
    isTTY: false,
    write(chunk: string | Uint8Array, cb?: unknown) {
      buffer += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const l of lines) print(l);
      if (typeof cb === 'function') (cb as () => void)();
      return true;
    },
    flush() {
      if (buffer) print(buffer);
      buffer = '';
    },
  };
  return sink as unknown as NodeJS.WriteStream & { flush(): void };
}

/** File names in the current directory that complete the last word typed. */
async function completePath(cwd: string, word: string): Promise<string[]> {
  const dir = word.includes('/') ? dirname(word) : '.';
  const prefix = word.includes('/') ? `${dir}/` : '';
  try {
    const entries = await readdir(resolve(cwd, dir), { withFileTypes: true });
    return entries
      .filter((e) => !e.name.startsWith('.') && `${prefix}${e.name}`.startsWith(word))
      .map((e) => `${prefix}${e.name}${e.isDirectory() ? '/' : ''}`)
      .slice(0, 50);
  } catch {
    return [];
  }
}

const run: SlashCommand = {
  name: 'run',
  description: 'skills.cmd.run',
  usage: '<skill> [inputs…] [--<input> <value>]',
  async complete(partial, ctx) {
    const words = partial.split(/\s+/);
    if (words.length <= 1) return (await knownNames(ctx)).filter((n) => n.startsWith(partial.trim()));
    return completePath(ctx.app.cwd, words[words.length - 1] ?? '');
  },
  async run(args, ctx) {
    const { positionals, named } = splitCommandLine(args);
    const [name, ...inputs] = positionals;
    if (!name) {
      ctx.print(t('skills.run.usage'));
      return;
    }
    const catalog = await catalogOf(ctx);
    const skill = findSkill(catalog, name);
    for (const w of skillWarnings(ctx.app, catalog, skill)) ctx.print(w);
    const { flags: folder, rest } = takeFolderFlags(named, skill);
    const values = mapCliInputs(skill, inputs, rest, '/run');
    if (lacksContent(skill, values)) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.err.noInput', params: { skill: skill.name } },
      });
    }
    const usage = newUsage(ctx.app);
    const { recordedSkillRun } = await import('../../skills/execute.js');
    const err = lineSink((l) => ctx.print(l));
    try {
      const result = await ctx.app.interrupt.run(async (signal) => {
        const events = recordedSkillRun({
          ctx: ctx.app,
          catalog,
          skill,
          values,
          prompter: ctx.chat.deps.prompter,
          mode: ctx.chat.settings.mode,
          signal,
          usage,
          stderr: err,
          llm: ctx.chat.deps.llm,
          folder,
          grants: ctx.chat.deps.grants,
          ...(ctx.client ? { client: ctx.client } : {}),
        });
        if (!ctx.renderRun) throw new Error('/run needs the REPL renderer');
        return ctx.renderRun(events, () => usage);
      });
      joinConversation(ctx, skill.name, args, result.text);
    } finally {
      err.flush();
      // The run's cost belongs to the session too.
      ctx.chat.deps.usage.merge(usage);
    }
  },
};

/**
 * A skill's answer joins the conversation, as if asked and answered there, so a follow-up
 * ("make that shorter") has it to refer to; the session file records both.
 */
function joinConversation(ctx: SlashContext, name: string, args: string, answer: string): void {
  if (!answer.trim()) return;
  const asked: Message = { role: 'user', content: `(I ran the skill "${name}": /run ${args.trim()})` };
  const answered: Message = { role: 'assistant', content: answer };
  ctx.chat.messages.push(asked);
  ctx.chat.consume({ type: 'user', message: asked, typed: `/run ${args.trim()}` });
  ctx.chat.messages.push(answered);
  ctx.chat.consume({ type: 'message', message: answered });
}

function endCreation(ctx: SlashContext): { model: string } | undefined {
  const creating = ctx.state.creating;
  if (!creating) return undefined;
  delete ctx.state.afterTurn;
  delete ctx.state.creating;
  ctx.chat.settings.model = creating.model;
  ctx.chat.settings.thinking = creating.thinking;
  return creating;
}

/** `/skill new [template] [what it should do]`: a conversation on the start model that ends when the skill is saved. */
async function startCreation(args: string, ctx: SlashContext): Promise<void> {
  endCreation(ctx);
  const [first = '', ...rest] = args.trim().split(/\s+/);
  const template = findTemplate(first);
  const request = (template ? rest.join(' ') : args).trim();
  const catalog = await catalogOf(ctx);
  let note: string | undefined;
  let seeding = true;
  const from = ctx.chat.messages.length;
  ctx.state.creating = { model: ctx.chat.settings.model, thinking: ctx.chat.settings.thinking };
  ctx.state.afterTurn = () => {
    const saved = createdSkill(ctx.chat.messages, from);
    if (!saved) return;
    // Back to the previous model before the next message; say so once the answer is shown.
    const before = endCreation(ctx);
    delete ctx.state.catalog;
    note = t('skills.new.replSaved', { name: saved, model: before?.model ?? ctx.chat.settings.model });
    if (!seeding) ctx.print(note);
  };
  // The same choice as `zhi skill new`: --model, else default_model (through chooseModel).
  const model = startModel(ctx.app);
  ctx.chat.settings.model = model;
  ctx.chat.settings.thinking = true;
  ctx.print(ctx.app.err.dim(t('skills.new.replStarted', { model })));
  try {
    await ctx.sendMessage(creationSeed({ template, request, catalog, tools: ALL_TOOL_NAMES }));
  } finally {
    seeding = false;
  }
  if (note) ctx.print(note);
}

const skill: SlashCommand = {
  name: 'skill',
  aliases: ['skills'],
  description: 'skills.cmd.skill',
  usage: 'list | show <name> | new [template] | edit <name> | delete <name> | trust <name> | cancel',
  async complete(partial, ctx) {
    const words = partial.split(/\s+/);
    if (words.length <= 1) return ACTIONS.filter((a) => a.startsWith(partial.trim()));
    const [action, word = ''] = words;
    if (action === 'new') return TEMPLATES.map((x) => x.id).filter((id) => id.startsWith(word));
    if (['show', 'edit', 'delete', 'trust'].includes(action!)) {
      return (await knownNames(ctx, action === 'delete' || action === 'trust')).filter((n) =>
        n.startsWith(word),
      );
    }
    return [];
  },
  async run(args, ctx) {
    const [action = 'list', name, ...rest] = args.trim().split(/\s+/).filter(Boolean);
    if (action === 'list') return listSkills(ctx);
    if (action === 'new') return startCreation([name, ...rest].filter(Boolean).join(' '), ctx);
    if (action === 'cancel') {
      const before = endCreation(ctx);
      ctx.print(before ? t('skills.new.cancelled', { model: before.model }) : t('skills.new.notActive'));
      return;
    }
    if (!ACTIONS.includes(action)) {
      ctx.warn(`${t('skills.cmd.unknownAction', { action })} ${t('skills.cmd.actions')}`);
      return;
    }
    if (!name) {
      ctx.warn(t('skills.cmd.needName', { action }));
      return;
    }
    const catalog = await catalogOf(ctx);
    const target = findSkill(catalog, name);
    if (action === 'show') return showSkill(ctx, catalog, target);
    if (action === 'edit') return editOne(ctx, target);
    if (action === 'delete') return deleteOne(ctx, catalog, target);
    return trustOne(ctx, target);
  },
};

async function listSkills(ctx: SlashContext): Promise<void> {
  const { skillTable } = await import('../../skills/manage.js');
  const catalog = await catalogOf(ctx);
  for (const w of allWarnings(ctx.app, catalog)) ctx.print(w);
  const width = process.stderr.isTTY ? process.stderr.columns || 100 : 100;
  const style = ctx.app.err;
  ctx.print(skillTable(catalog, { style, width, defaultModel: ctx.app.config.skillModel }).join('\n'));
  ctx.print(style.dim(t('skills.list.hint')));
}

async function showSkill(ctx: SlashContext, catalog: SkillCatalog, target: Skill): Promise<void> {
  const { skillSource, sourceLabel } = await import('../../skills/manage.js');
  for (const w of skillWarnings(ctx.app, catalog, target)) ctx.print(w);
  ctx.print(ctx.app.err.dim(`# ${target.file} (${sourceLabel(catalog, target)})`));
  ctx.print((await skillSource(target, ctx.app.err.enabled)).trimEnd());
}

async function editOne(ctx: SlashContext, target: Skill): Promise<void> {
  const { editSkill } = await import('../../skills/manage.js');
  const r = await editSkill(ctx.app, target);
  if (r.copied) ctx.print(t('skills.edit.copied', { name: target.name, file: r.file }));
  for (const p of r.problems) ctx.warn(p);
  ctx.print(
    r.problems.length
      ? t('skills.edit.stillBroken', { name: target.name })
      : r.changed
        ? t('skills.edit.saved', { name: target.name })
        : t('skills.edit.unchanged'),
  );
  delete ctx.state.catalog;
}

async function deleteOne(ctx: SlashContext, catalog: SkillCatalog, target: Skill): Promise<void> {
  const { builtinDeleteError, deleteSkill } = await import('../../skills/manage.js');
  if (target.source !== 'user') throw builtinDeleteError(target.name);
  if (!(await ctx.confirm(t('skills.delete.question', { name: target.name, file: target.file })))) {
    ctx.print(t('skills.delete.kept'));
    return;
  }
  await deleteSkill(ctx.app, target);
  delete ctx.state.catalog;
  ctx.print(t('skills.delete.done', { name: target.name }));
  if (catalog.builtins.has(target.name)) ctx.print(t('skills.delete.builtinBack', { name: target.name }));
}

async function trustOne(ctx: SlashContext, target: Skill): Promise<void> {
  if (target.source !== 'user') {
    ctx.print(t('skills.trust.builtin', { name: target.name }));
    return;
  }
  await (await TrustStore.open(ctx.app.paths.trustFile)).trust([target]);
  ctx.print(t('skills.trust.saved', { names: target.name }));
}

export const commands: SlashCommand[] = [run, skill];
