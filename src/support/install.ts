/**
 * How this zhi was installed, and the files it ships besides its code (the shell's grammar, the
 * CMaps and fonts of pdf.js, the built-in skills). An npm package and a checkout read them from
 * `dist/assets/` and `skills/` beside the code; a standalone executable (Node's single-executable
 * applications) carries them inside itself and reads them with `node:sea`.
 */
import { existsSync, mkdirSync, promises, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type InstallKind = 'exe' | 'npm' | 'source';

let cachedRoot: string | undefined;

/**
 * The installed package's root (holds package.json and the built-in skills). Here rather than in
 * paths.ts, whose env-paths loads node:os: `zhi --version` needs this and nothing of that.
 */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) {
      cachedRoot = dir;
      return dir;
    }
    dir = dirname(dir);
  }
  throw new Error('zhi: cannot find the package root');
}

interface Sea {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
}

/** `node:sea` when this process is a standalone executable. */
function seaModule(): Sea | undefined {
  try {
    const sea = process.getBuiltinModule?.('node:sea') as Sea | undefined;
    return sea?.isSea() ? sea : undefined;
  } catch {
    return undefined;
  }
}

let kind: InstallKind | undefined;

/** A standalone executable, an npm package, or a checkout of the repository (it has `src/`). */
export function installKind(): InstallKind {
  kind ??= seaModule() ? 'exe' : existsSync(join(packageRoot(), 'src', 'cli', 'main.ts')) ? 'source' : 'npm';
  return kind;
}

/** The asset list an executable carries (`assets.json`, written by scripts/build-exe.mjs). */
function seaAssetNames(sea: Sea): string[] {
  return JSON.parse(Buffer.from(sea.getAsset('assets.json')).toString('utf8')) as string[];
}

/**
 * One file shipped with zhi, by its name under `dist/assets/` (e.g. `tree-sitter/tree-sitter.wasm`,
 * `pdfjs/cmaps/GBK-EUC-H.bcmap`).
 */
export async function readAsset(name: string): Promise<Uint8Array> {
  const sea = seaModule();
  if (sea) return new Uint8Array(sea.getAsset(`dist/assets/${name}`));
  return new Uint8Array(await promises.readFile(join(packageRoot(), 'dist', 'assets', name)));
}

/** readAsset, synchronously: for the few small files needed before anything else (the messages). */
export function readAssetSync(name: string): Uint8Array {
  const sea = seaModule();
  if (sea) return new Uint8Array(sea.getAsset(`dist/assets/${name}`));
  return new Uint8Array(readFileSync(join(packageRoot(), 'dist', 'assets', name)));
}

/**
 * The folder of the built-in skills. Skills are files people open, copy and export, so an
 * executable writes its own to `<data dir>/builtin-skills/<hash of their content>/` the first time
 * (once per version: about 60 kB each) and reads them there like the npm package does.
 */
export function builtinSkillsDir(dataDir: string): string {
  const sea = seaModule();
  if (!sea) return join(packageRoot(), 'skills');
  const files = seaAssetNames(sea).filter((n) => n.startsWith('skills/'));
  // Only an executable gets here: node:crypto is loaded then, not at every start (zhi --version).
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  const bytes = files.map((name) => {
    const data = Buffer.from(sea.getAsset(name));
    hash.update(name).update('\0').update(data);
    return data;
  });
  const parent = join(dataDir, 'builtin-skills');
  const dir = join(parent, hash.digest('hex').slice(0, 12));
  if (existsSync(dir)) return dir;
  // Written beside and renamed into place, so two zhi starting at once never see half a folder.
  const temp = `${dir}.${process.pid}.tmp`;
  try {
    files.forEach((name, i) => {
      const target = join(temp, name.slice('skills/'.length));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, bytes[i] as Buffer);
    });
    renameSync(temp, dir);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  return dir;
}

/**
 * The day a Node major version stops getting fixes, as `YYYY-MM-DD`. Node's schedule: an even
 * (LTS) major N ends on 30 April of 2016 + N/2 (20 → 2026-04-30); an odd one on 1 June of
 * 2013 + (N+1)/2 (23 → 2025-06-01).
 */
export function nodeEndOfLife(major: number): string {
  return major % 2 === 0 ? `${2016 + major / 2}-04-30` : `${2013 + (major + 1) / 2}-06-01`;
}

/** The Node this process runs on: its version, and whether it is past its end of life today. */
export function nodeSupport(
  version: string = process.version,
  today: Date = new Date(),
): { version: string; endOfLife: string; ended: boolean } {
  const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
  const endOfLife = nodeEndOfLife(major);
  return { version, endOfLife, ended: today.toISOString().slice(0, 10) >= endOfLife };
}
