import { spawnSync } from 'node:child_process';
import { cp, lstat, mkdir, readFile, realpath, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { loadSkillFile, splitFrontMatter } from '../../skills/loader.js';
import { describeIssue } from '../../skills/resolve.js';
import type { Skill } from '../../skills/schema.js';
import { TrustStore } from '../../skills/trust.js';
import { quoted, ZhiError } from '../../support/errors.js';
import { visible } from '../../support/sanitize.js';
import type { AppContext } from '../context.js';
import { editorCommand } from '../external-editor.js';
import { highlight } from '../render/highlight.js';
import { makeTheme } from '../render/theme.js';

// Moved to catalog.ts (light enough for `zhi skill list`); re-exported for the other callers.
export { describeSkill, skillTable, sourceLabel } from './catalog.js';

/** The skill file's text, highlighted as YAML (front matter for SKILL.md) when colour is on. */
export async function skillSource(s: Skill, color: boolean): Promise<string> {
  // A skill file is someone else's text: its escape sequences are shown, never run.
  const text = visible((await readFile(s.file, 'utf8')).replace(/^\uFEFF/, ''), {
    keepNewlines: true,
    keepTabs: true,
  });
  if (!color) return text;
  const theme = makeTheme(true);
  const paint = (code: string) =>
    highlight(code, 'yaml', theme)
      .map((spans) => spans.map((sp) => (sp.paint ? sp.paint(sp.text) : sp.text)).join(''))
      .join('\n');
  if (s.format !== 'skill-md') return paint(text);
  const fm = splitFrontMatter(text);
  return fm ? `---\n${paint(fm.yaml)}\n---\n\n${fm.body}\n` : text;
}

/** Where a user skill of this name lives (or would). */
export function userSkillPath(ctx: AppContext, name: string): string {
  return join(ctx.paths.skillsDir, `${name}.yaml`);
}

/** Copy a built-in into the user's skills folder so it can be edited (the copy overrides it). */
export async function copyBuiltin(ctx: AppContext, s: Skill): Promise<Skill> {
  await mkdir(ctx.paths.skillsDir, { recursive: true, mode: 0o700 });
  if (s.format === 'skill-md' && s.folder) {
    const target = join(ctx.paths.skillsDir, basename(s.folder));
    await cp(s.folder, target, { recursive: true, errorOnExist: true, force: false });
    return reload(join(target, 'SKILL.md'));
  }
  const target = userSkillPath(ctx, s.name);
  await cp(s.file, target, { errorOnExist: true, force: false });
  return reload(target);
}

async function reload(file: string): Promise<Skill> {
  const r = await loadSkillFile(file, 'user');
  if (!r.skill)
    throw new ZhiError({
      kind: 'config',
      what: { key: 'skills.err.inFile', params: { file } },
      why: describeIssue(r.errors[0]!),
    });
  return r.skill;
}

export interface EditOutcome {
  file: string;
  copied: boolean;
  changed: boolean;
  /** Problems left in the file after editing (the skill is skipped until they are fixed). */
  problems: string[];
}

/**
 * `skill edit`: a built-in is copied to the user's folder first; the file opens in the editor;
 * afterwards it is checked again. A user who changed their own file in their editor has seen
 * it, so the new content is trusted.
 */
export async function editSkill(ctx: AppContext, s: Skill): Promise<EditOutcome> {
  let skill = s;
  let copied = false;
  if (s.source === 'builtin') {
    skill = await copyBuiltin(ctx, s);
    copied = true;
  }
  const before = skill.hash;
  // Nothing edited: take back the copy made a moment ago, so the built-in stays in use.
  const takeBack = async () => {
    if (!copied) return;
    copied = false;
    await (skill.format === 'skill-md' && skill.folder
      ? rm(skill.folder, { recursive: true })
      : unlink(skill.file));
  };
  const [cmd, ...args] = (await editorCommand(ctx.env)) ?? ['nano'];
  const res = spawnSync(cmd!, [...args, skill.file], { stdio: 'inherit' });
  if (res.error) {
    await takeBack();
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.edit.noEditor', params: { editor: cmd! } },
      why: quoted(res.error.message, 'cli.by.system'),
      tries: [
        { key: process.platform === 'win32' ? 'skills.edit.tryEditorWindows' : 'skills.edit.tryEditor' },
        { key: 'skills.try.fix', params: { file: skill.file } },
      ],
    });
  }
  const after = await loadSkillFile(skill.file, 'user');
  const changed = (after.skill?.hash ?? '') !== before;
  if (!changed) await takeBack();
  if (after.skill && changed) await (await TrustStore.open(ctx.paths.trustFile)).trust([after.skill]);
  return { file: skill.file, copied, changed, problems: after.errors.map(describeIssue) };
}

export function builtinDeleteError(name: string): ZhiError {
  return new ZhiError({
    kind: 'usage',
    what: { key: 'skills.delete.builtin', params: { name } },
    tries: [{ key: 'skills.delete.tryOverride', params: { name } }],
  });
}

/** Remove a user skill: its file, or its own folder for a SKILL.md. Never anything else. */
export async function deleteSkill(ctx: AppContext, s: Skill): Promise<void> {
  if (s.source !== 'user') throw builtinDeleteError(s.name);
  const root = await realpath(ctx.paths.skillsDir);
  if (s.format === 'skill-md' && s.folder) {
    // The folder must sit directly in the skills folder; a link is removed, never followed.
    if (dirname(s.folder) !== ctx.paths.skillsDir && (await realpath(dirname(s.folder))) !== root) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.delete.outside', params: { path: s.folder } },
      });
    }
    const st = await lstat(s.folder);
    if (st.isSymbolicLink()) await unlink(s.folder);
    else await rm(s.folder, { recursive: true });
  } else {
    if ((await realpath(dirname(s.file))) !== root) {
      throw new ZhiError({ kind: 'usage', what: { key: 'skills.delete.outside', params: { path: s.file } } });
    }
    await unlink(s.file);
  }
  await (await TrustStore.open(ctx.paths.trustFile)).forget(s.name);
}
