/**
 * `zhi skill import --from claude|codex`: the skills of another client's personal folder, shown
 * and copied into zhi's skills folder after one question (or --yes). They arrive untrusted, as an
 * imported package does. At the REPL's start, a folder with skills zhi does not have is said once
 * per client (remembered in `other-skills.json` of the data folder).
 */
import { cp, lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { SkillCatalog } from '../../skills/discovery.js';
import { loadSkillFile } from '../../skills/loader.js';
import {
  isOtherClient,
  OTHER_CLIENTS,
  type OtherClient,
  otherSkillFiles,
} from '../../skills/other-clients.js';
import { describeIssue } from '../../skills/resolve.js';
import { ExitCode, type ExitCodeValue, ZhiError } from '../../support/errors.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { terminalAsker } from '../ask.js';
import type { AppContext } from '../context.js';

const STATE = 'other-skills.json';

interface Candidate {
  folder: string;
  name: string;
  description?: string;
  /** Why it is not copied: already in zhi, or not loadable. */
  skip?: string;
}

async function candidates(catalog: SkillCatalog, client: OtherClient): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const file of await otherSkillFiles(homedir(), client)) {
    const folder = dirname(file);
    const loaded = await loadSkillFile(file, 'user');
    const name = loaded.skill?.name ?? basename(folder);
    const mine = catalog.skills.get(name);
    if (!loaded.skill) {
      out.push({ folder, name, skip: loaded.errors.map((e) => describeIssue(e)).join('; ') });
    } else if (mine && mine.source !== 'builtin') {
      out.push({ folder, name, skip: t('skills.other.have', { file: mine.file }) });
    } else out.push({ folder, name, description: loaded.skill.description });
  }
  return out;
}

export async function importFromClient(
  ctx: AppContext,
  catalog: SkillCatalog,
  client: string,
): Promise<ExitCodeValue> {
  if (!isOtherClient(client)) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.other.unknown', params: { client } },
      tries: [{ key: 'skills.other.tryClients', params: { clients: Object.keys(OTHER_CLIENTS).join(', ') } }],
    });
  }
  const folder = join(homedir(), OTHER_CLIENTS[client].folder);
  const found = await candidates(catalog, client);
  await remember(ctx, client);
  if (!found.length) {
    process.stderr.write(`${t('skills.other.none', { folder })}\n`);
    return ExitCode.ok;
  }
  const err = (s: string) => process.stderr.write(`${s}\n`);
  err(ctx.err.bold(t('skills.other.header', { client: OTHER_CLIENTS[client].shown, folder })));
  for (const c of found) {
    const about = c.skip ? `(${c.skip})` : oneLine(c.description ?? '');
    err(`  ${visible(c.name)} — ${visible(about)}`);
  }
  const wanted = found.filter((c) => !c.skip);
  if (!wanted.length) return ExitCode.ok;
  if (!(await confirmed(ctx, wanted.length, client))) {
    err(t('skills.share.kept'));
    return ExitCode.ok;
  }
  const copied: string[] = [];
  for (const c of wanted) {
    const target = join(catalog.dirs.userDir, basename(c.folder));
    try {
      await mkdir(catalog.dirs.userDir, { recursive: true });
      // Links are left out: one could point anywhere on the computer.
      await cp(await realpath(c.folder), target, {
        recursive: true,
        errorOnExist: true,
        force: false,
        filter: async (src) => !(await lstat(src)).isSymbolicLink(),
      });
      copied.push(c.name);
    } catch (e) {
      err(t('skills.other.notCopied', { name: c.name, reason: (e as Error).message }));
    }
  }
  if (copied.length)
    err(
      t('skills.other.copied', {
        count: copied.length,
        names: copied.join(', '),
        folder: catalog.dirs.userDir,
      }),
    );
  return ExitCode.ok;
}

async function confirmed(ctx: AppContext, count: number, client: string): Promise<boolean> {
  if (ctx.args.flags.yes) return true;
  if (!ctx.stdinIsTTY) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.other.needYes', params: { count } },
      tries: [{ key: 'skills.other.tryYes', params: { client } }],
    });
  }
  return terminalAsker().yesNo(`${t('skills.other.question', { count })} [y/N] `);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}

async function offered(ctx: AppContext): Promise<string[]> {
  try {
    const data = JSON.parse(await readFile(join(ctx.paths.dataDir, STATE), 'utf8')) as { offered?: unknown };
    return Array.isArray(data.offered) ? data.offered.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

async function remember(ctx: AppContext, client: OtherClient): Promise<void> {
  const before = await offered(ctx);
  if (before.includes(client)) return;
  try {
    await mkdir(ctx.paths.dataDir, { recursive: true });
    await writeFile(join(ctx.paths.dataDir, STATE), `${JSON.stringify({ offered: [...before, client] })}\n`);
  } catch {
    // Not remembered: the notice comes again at the next start, nothing worse.
  }
}

/**
 * At the REPL's start: each client whose folder holds a skill zhi does not have is said once, with
 * the command that copies them. Never again for that client, whatever the answer.
 */
export async function offerOtherSkills(ctx: AppContext, catalog: SkillCatalog): Promise<void> {
  const done = await offered(ctx);
  for (const client of Object.keys(OTHER_CLIENTS) as OtherClient[]) {
    if (done.includes(client)) continue;
    const files = await otherSkillFiles(homedir(), client);
    const names = files.map((f) => basename(dirname(f))).filter((n) => !catalog.skills.has(n));
    if (!names.length) continue;
    const folder = join(homedir(), OTHER_CLIENTS[client].folder);
    process.stderr.write(
      `${ctx.err.dim(t('skills.other.notice', { count: names.length, client: OTHER_CLIENTS[client].shown, folder, command: `zhi skill import --from ${client}` }))}\n`,
    );
    await remember(ctx, client);
  }
}
