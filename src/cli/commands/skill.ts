import type { SkillCatalog } from '../../skills/discovery.js';
import type { Skill } from '../../skills/schema.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { nearest } from '../../support/suggest.js';
import { terminalAsker } from '../ask.js';
import type { AppContext } from '../context.js';
import { dataAsJson } from '../render/formats/index.js';
import {
  allWarnings,
  describeSkill,
  findSkill,
  loadCatalog,
  skillTable,
  skillWarnings,
} from '../skills/catalog.js';

type Manage = typeof import('../skills/manage.js');

const ACTIONS = ['list', 'show', 'new', 'edit', 'delete', 'trust', 'export', 'import'];

const out = (s: string) => process.stdout.write(`${s}\n`);
const err = (s: string) => process.stderr.write(`${s}\n`);

/** `zhi skill list | show <name> | new | edit <name> | delete <name> | trust <name>… | export <name> [file] | import <file|url> | import --from claude|codex` */
export async function run(ctx: AppContext): Promise<ExitCodeValue> {
  const [action = 'list', ...names] = ctx.args.positionals;
  if (!ACTIONS.includes(action)) throw unknownAction(action);
  // `--from` is import's alone (`zhi skill import --from claude`); any other option is a slip.
  const stray = Object.keys(ctx.args.extra).find((k) => !(action === 'import' && k === 'from'));
  if (stray !== undefined) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'cli.err.unknownFlag', params: { flag: `--${stray}`, value: '' } },
      tries: [{ key: 'cli.try.help' }],
    });
  }
  if (action === 'new') {
    const { newSkillConversation } = await import('../skills/create.js');
    return newSkillConversation(ctx, names[0]);
  }
  const catalog = await loadCatalog(ctx, err);
  if (action === 'list') return list(ctx, catalog);
  const name = names[0];
  const from = ctx.args.extra.from;
  if (action === 'import' && typeof from === 'string' && !name) {
    const { importFromClient } = await import('../skills/import-other.js');
    return importFromClient(ctx, catalog, from);
  }
  if (!name) {
    // import takes a file or an address, the others a skill's name: say which is missing.
    throw new ZhiError({
      kind: 'usage',
      what:
        action === 'import'
          ? { key: 'skills.cmd.needSource' }
          : { key: 'skills.cmd.needName', params: { action } },
      why: { key: 'skills.cmd.actions' },
      tries: action === 'import' ? [] : [{ key: 'skills.try.list' }],
    });
  }
  if (action === 'trust') return trust(ctx, catalog, names);
  if (action === 'export' || action === 'import') {
    const share = await import('../skills/share.js');
    return action === 'export'
      ? share.exportSkill(ctx, catalog, name, names[1])
      : share.importSkill(ctx, catalog, name);
  }
  const skill = findSkill(catalog, name);
  // Editing, deleting and trusting load the YAML parser and the tool table: not on `list`'s path.
  const manage = await import('../skills/manage.js');
  if (action === 'show') return show(ctx, catalog, skill, manage);
  if (action === 'edit') return edit(ctx, skill, manage);
  return remove(ctx, catalog, skill, manage);
}

function unknownAction(action: string): ZhiError {
  const suggestion = nearest(action, ACTIONS);
  return new ZhiError({
    kind: 'usage',
    what: { key: 'skills.cmd.unknownAction', params: { action } },
    why: { key: 'skills.cmd.actions' },
    tries: suggestion
      ? [{ key: 'cli.try.didYouMean', params: { suggestion: `zhi skill ${suggestion}` } }]
      : [],
  });
}

function list(ctx: AppContext, catalog: SkillCatalog): ExitCodeValue {
  for (const w of allWarnings(ctx, catalog)) err(w);
  if (dataAsJson(ctx.args.flags.outputFormat)) {
    out(JSON.stringify(listJson(ctx, catalog), null, 2));
    return ExitCode.ok;
  }
  const width = ctx.stdoutIsTTY ? process.stdout.columns || 100 : 120;
  out(skillTable(catalog, { style: ctx.out, width, defaultModel: ctx.config.skillModel }).join('\n'));
  return ExitCode.ok;
}

async function show(ctx: AppContext, catalog: SkillCatalog, skill: Skill, m: Manage): Promise<ExitCodeValue> {
  for (const w of skillWarnings(ctx, catalog, skill)) err(w);
  err(ctx.err.dim(`# ${skill.file} (${m.sourceLabel(catalog, skill)})`));
  const text = await m.skillSource(skill, ctx.out.enabled);
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  if (skill.resources.length)
    err(ctx.err.dim(`# ${t('skills.show.resources')}: ${skill.resources.join(', ')}`));
  return ExitCode.ok;
}

async function edit(ctx: AppContext, skill: Skill, m: Manage): Promise<ExitCodeValue> {
  if (!ctx.stdinIsTTY) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.edit.noTerminal' },
      tries: [{ key: 'skills.try.fix', params: { file: skill.file } }],
    });
  }
  const result = await m.editSkill(ctx, skill);
  if (result.copied) err(t('skills.edit.copied', { name: skill.name, file: result.file }));
  if (result.problems.length) {
    for (const p of result.problems) err(ctx.err.yellow(p));
    err(t('skills.edit.stillBroken', { name: skill.name }));
    return ExitCode.config;
  }
  err(result.changed ? t('skills.edit.saved', { name: skill.name }) : t('skills.edit.unchanged'));
  return ExitCode.ok;
}

async function remove(
  ctx: AppContext,
  catalog: SkillCatalog,
  skill: Skill,
  m: Manage,
): Promise<ExitCodeValue> {
  if (skill.source !== 'user') throw m.builtinDeleteError(skill.name);
  const yes =
    ctx.args.flags.yes ||
    (ctx.stdinIsTTY &&
      (await terminalAsker().yesNo(
        `${t('skills.delete.question', { name: skill.name, file: skill.file })} [y/N] `,
      )));
  if (!yes) {
    if (!ctx.stdinIsTTY) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.delete.needYes', params: { name: skill.name } },
        tries: [{ key: 'skills.delete.tryYes', params: { name: skill.name } }],
      });
    }
    err(t('skills.delete.kept'));
    return ExitCode.ok;
  }
  await m.deleteSkill(ctx, skill);
  err(t('skills.delete.done', { name: skill.name }));
  if (catalog.builtins.has(skill.name)) err(t('skills.delete.builtinBack', { name: skill.name }));
  return ExitCode.ok;
}

async function trust(ctx: AppContext, catalog: SkillCatalog, names: string[]): Promise<ExitCodeValue> {
  const skills = names.map((n) => findSkill(catalog, n));
  const { TrustStore } = await import('../../skills/trust.js');
  const store = await TrustStore.open(ctx.paths.trustFile);
  const user = skills.filter((s) => s.source !== 'builtin');
  for (const s of skills) if (s.source === 'builtin') err(t('skills.trust.builtin', { name: s.name }));
  if (user.length) {
    await store.trust(user);
    err(t('skills.trust.saved', { names: user.map((s) => s.name).join(', ') }));
  }
  return ExitCode.ok;
}

function listJson(ctx: AppContext, catalog: SkillCatalog) {
  return [...catalog.skills.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((s) => ({
      name: s.name,
      description: describeSkill(s),
      model: s.model ?? ctx.config.skillModel,
      source: s.source,
      overrides_builtin: s.source === 'user' && catalog.builtins.has(s.name),
      file: s.file,
      tools: s.tools,
      inputs: s.args.map((a) => ({ name: a.name, type: a.type, required: a.required })),
    }));
}
