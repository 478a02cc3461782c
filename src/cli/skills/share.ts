/**
 * `zhi skill export <name> [file.zip]` and `zhi skill import <file|url>`: one .zip per skill.
 * Import shows what the skill is and which tools it uses, asks (or takes --yes), validates it
 * like any skill file, and installs it untrusted: its first run that can write or run commands
 * asks, as for any skill of the person's own.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { BodyTooLarge, readBytesCapped } from '../../llm/body.js';
import { apiFetch } from '../../llm/http.js';
import type { SkillCatalog } from '../../skills/discovery.js';
import { loadSkillFile } from '../../skills/loader.js';
import { describeIssue } from '../../skills/resolve.js';
import { LIMITS, type Manifest, packSkill, ShareError, shareError, unpackSkill } from '../../skills/share.js';
import { ExitCode, type ExitCodeValue, quoted, ZhiError } from '../../support/errors.js';
import { joinShown, t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { terminalAsker } from '../ask.js';
import type { AppContext } from '../context.js';
import { findSkill } from './execute.js';

export async function exportSkill(
  ctx: AppContext,
  catalog: SkillCatalog,
  name: string,
  target: string | undefined,
): Promise<ExitCodeValue> {
  const skill = findSkill(catalog, name);
  const file = resolve(ctx.cwd, target ?? `${skill.name}.zip`);
  if (await stat(file).catch(() => undefined)) {
    throw new ZhiError({ kind: 'usage', what: { key: 'skills.share.exists', params: { file } } });
  }
  const { zip, manifest } = await packSkill(skill);
  await writeFile(file, zip, { flag: 'wx' });
  const count = manifest.files.length;
  const params = {
    name: skill.name,
    version: manifest.version,
    file,
    count,
    tools: manifest.tools.join(', ') || '-',
  };
  process.stderr.write(`${t(count === 1 ? 'skills.share.exportedOne' : 'skills.share.exported', params)}\n`);
  return ExitCode.ok;
}

async function fetchZip(source: string): Promise<Uint8Array> {
  if (!/^https?:\/\//i.test(source)) return readFile(source);
  // Through the proxy of HTTPS_PROXY/NO_PROXY when one is set, as every request zhi makes.
  const res = await apiFetch(source, { redirect: 'follow', signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw shareError('downloadFailed', { status: res.status });
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > LIMITS.zipBytes) throw shareError('downloadTooBig');
  // Read with the cap: a server that declares nothing and sends without end stops here.
  return readBytesCapped(res, LIMITS.zipBytes).catch((err: unknown) => {
    throw err instanceof BodyTooLarge ? shareError('downloadTooBig') : err;
  });
}

function summary(ctx: AppContext, m: Manifest, description: string): string {
  const st = ctx.err;
  const files = m.files.map((f) => f.path.replace(`${m.name}/`, ''));
  const header = m.version_source === 'content' ? 'skills.share.headerHash' : 'skills.share.header';
  return [
    st.bold(t(header, { name: m.name, version: visible(String(m.version ?? '-')) })),
    `  ${visible(description)}`,
    `  ${t('skills.share.tools', { tools: m.tools.map((x) => visible(x)).join(', ') || '-' })}`,
    `  ${t(files.length === 1 ? 'skills.share.file' : 'skills.share.files', {
      count: files.length,
      files: files
        .slice(0, 20)
        .map((f) => visible(f))
        .join(', '),
    })}${files.length > 20 ? ', …' : ''}`,
    `  sha256: ${visible(m.hash) || '-'}`,
  ].join('\n');
}

export async function importSkill(
  ctx: AppContext,
  catalog: SkillCatalog,
  source: string,
): Promise<ExitCodeValue> {
  let unpacked: Awaited<ReturnType<typeof unpackSkill>>;
  try {
    unpacked = await unpackSkill(
      await fetchZip(/^https?:/i.test(source) ? source : resolve(ctx.cwd, source)),
      basename(source.replace(/[?#].*$/, ''), '.zip'),
    );
  } catch (err) {
    // Not one of the reasons above: the file system's or the network's own words.
    const why = err instanceof ShareError ? err.reason : quoted((err as Error).message, 'cli.by.system');
    throw new ZhiError({ kind: 'usage', what: { key: 'skills.share.bad', params: { source } }, why });
  }
  const { manifest, files } = unpacked;
  const existing = catalog.skills.get(manifest.name);
  if (existing && existing.source !== 'builtin') {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.share.taken', params: { name: manifest.name, file: existing.file } },
      tries: [{ key: 'skills.share.tryDelete', params: { name: manifest.name } }],
    });
  }
  const skillsDir = catalog.dirs.userDir;
  const staging = join(skillsDir, `.import-${randomBytes(4).toString('hex')}`);
  try {
    for (const [path, bytes] of files) {
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await writeFile(join(staging, path), bytes, { flag: 'wx', mode: 0o644 });
    }
    const main = join(
      staging,
      manifest.skill_format === 'skill-md' ? `${manifest.name}/SKILL.md` : `${manifest.name}.yaml`,
    );
    const loaded = await loadSkillFile(main, 'user');
    if (!loaded.skill) {
      throw new ZhiError({
        kind: 'usage',
        what: { key: 'skills.share.invalid', params: { source } },
        why: joinShown(
          loaded.errors.map((e) => describeIssue({ ...e, file: e.file.replace(`${staging}/`, '') })),
          '\n',
        ),
      });
    }
    // A plain zip's manifest is zhi's own: the tools are the loaded skill's.
    if (unpacked.plain) manifest.tools = loaded.skill.tools;
    process.stderr.write(`${summary(ctx, manifest, loaded.skill.description)}\n`);
    // A built-in skill of the same name is shadowed from now on: say so before asking.
    if (existing?.source === 'builtin')
      process.stderr.write(`${t('skills.share.replacesBuiltin', { name: manifest.name })}\n`);
    if (!(await confirmed(ctx, manifest.name, source))) {
      process.stderr.write(`${t('skills.share.kept')}\n`);
      return ExitCode.ok;
    }
    const entry = manifest.skill_format === 'skill-md' ? manifest.name : `${manifest.name}.yaml`;
    await rename(join(staging, entry), join(skillsDir, entry));
    process.stderr.write(
      `${t('skills.share.installed', { name: manifest.name, file: join(skillsDir, entry) })}\n`,
    );
    return ExitCode.ok;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Whether to install: --yes, or the person's answer; with no one to ask, a clear refusal. */
async function confirmed(ctx: AppContext, name: string, source: string): Promise<boolean> {
  if (ctx.args.flags.yes) return true;
  if (!ctx.stdinIsTTY) {
    throw new ZhiError({
      kind: 'usage',
      what: { key: 'skills.share.needYes', params: { name } },
      tries: [{ key: 'skills.share.tryYes', params: { source } }],
    });
  }
  return terminalAsker().yesNo(`${t('skills.share.question', { name })} [y/N] `);
}
