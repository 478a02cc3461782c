// Installs zhi as a user would and checks that it works from an unrelated folder, against the
// fake Zhipu API (no network, no key):
//
//   node scripts/smoke-install.mjs                      npm pack → npm install -g into a temporary
//                                                       prefix (offline: the package has no
//                                                       dependencies) → the checks; prints the size
//   node scripts/smoke-install.mjs --exe <file> [--wine] the same checks on a standalone executable,
//                                                       with no Node on PATH (under Wine for .exe)
//   node scripts/smoke-install.mjs --node <node binary> the npm package, packed, installed and run
//                                                       with that Node (e.g. 22 or 24)
//
// Checks: --version names the kind of install; a chat turn; the shell tool (its grammar is a
// WebAssembly asset); a built-in skill reading a PDF whose Chinese text needs a CMap asset, and
// writing its file; `zhi doctor`; and that no Node warning is printed anywhere.
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const exe = opt('exe');
const wine = args.includes('--wine');
const nodeBinary = opt('node');
const MAX_INSTALLED_MB = 120;
const DANGEROUS = wine ? 'cd C:\\ && rd /s /q %USERPROFILE%' : 'cd /tmp && rm -rf ~/';
const NODE_WARNING = /\(node:\d+\)|ExperimentalWarning|DeprecationWarning|EBADENGINE|npm warn/i;
const temp = realpathSync(mkdtempSync(join(tmpdir(), 'zhi-smoke-')));
let failures = 0;
let passed = 0;

function check(name, ok, detail = '') {
  if (ok) passed++;
  else failures++;
  process.stdout.write(
    `${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail.slice(0, 1500)}`}\n`,
  );
}

async function startFake() {
  const dir = join(temp, 'fake');
  mkdirSync(dir);
  await build({
    entryPoints: [join(root, 'test/fake-zhipu/server.ts')],
    outfile: join(dir, 'server.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    absWorkingDir: root,
  });
  const mod = await import(pathToFileURL(join(dir, 'server.mjs')).href);
  const fake = new mod.FakeZhipu();
  return { fake, url: await fake.start(0), key: mod.TEST_KEY };
}

/** npm pack, then install the tarball into a temporary prefix; returns the zhi command. */
function installPackage(env) {
  const packs = join(temp, 'pack');
  mkdirSync(packs);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tgz = execFileSync(npm, ['pack', '--pack-destination', packs, '--silent'], {
    cwd: root,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop();
  const prefix = join(temp, 'prefix');
  // Offline: with no dependencies there is nothing to fetch, and a dependency that crept back in
  // would make this fail instead of quietly downloading.
  const log = execFileSync(
    npm,
    ['install', '-g', join(packs, tgz), '--prefix', prefix, '--offline', '--no-fund', '--no-audit'],
    { cwd: temp, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  check('npm install prints no warning', !NODE_WARNING.test(log), log);
  const installed = join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', 'zhi');
  const mb = sizeOf(installed) / 1024 / 1024;
  process.stdout.write(`     installed size: ${mb.toFixed(1)} MB (${tgz})\n`);
  check(`installed size ≤ ${MAX_INSTALLED_MB} MB`, mb <= MAX_INSTALLED_MB, `${mb.toFixed(1)} MB`);
  check(
    'the package has no node_modules of its own',
    !existsSync(join(installed, 'node_modules')),
    readdirSync(installed).join(', '),
  );
  return { command: join(prefix, process.platform === 'win32' ? 'zhi.cmd' : 'bin/zhi') };
}

function sizeOf(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/**
 * Wine fails a TCP connect when keep-alive is set on the socket before it connects, as fetch
 * does (plain node.exe too; real Windows is fine); the test run under Wine sets it once connected.
 */
function wineKeepAliveFix() {
  const file = join(temp, 'wine-keepalive.cjs');
  writeFileSync(
    file,
    `const net = require('node:net');
const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function (...args) {
  if (!this.connecting) return setKeepAlive.apply(this, args);
  this.once('connect', () => setKeepAlive.apply(this, args));
  return this;
};
`,
  );
  return file;
}

/**
 * The Wine prefix the tests use (test/helpers/wine.ts `prefix`), set to Windows 10 when made:
 * the default prefix may say Windows 7, where Node refuses to start. WINEPREFIX, when set, wins.
 */
function winePrefix() {
  const dir = process.env.WINEPREFIX ?? join(root, 'node_modules/.cache/zhi-wine/prefix');
  if (!existsSync(join(dir, 'system.reg'))) {
    mkdirSync(dir, { recursive: true });
    const version = ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'];
    execFileSync('wine', version, {
      env: { ...process.env, WINEPREFIX: dir, WINEDEBUG: '-all' },
      stdio: 'ignore',
    });
  }
  return dir;
}

/** A PATH for the executable with the shell tools it needs and no `node`. */
function pathWithoutNode() {
  const bin = join(temp, 'bin');
  mkdirSync(bin);
  for (const tool of ['sh', 'bash', 'bwrap', 'cat', 'ls', 'env', 'wine', 'wineserver', 'wine64']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      const at = join(dir, tool);
      if (dir && existsSync(at)) {
        symlinkSync(at, join(bin, tool));
        break;
      }
    }
  }
  return bin;
}

function run(zhi, argv, { cwd, env }) {
  // Under Wine, Node cannot write to a Linux pipe (EBADF, plain node.exe too): use files.
  if (wine) return runToFiles(zhi, argv, { cwd, env });
  return new Promise((resolve) => {
    const child = spawn(zhi.command, argv, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32' && zhi.command.endsWith('.cmd'),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let runs = 0;
function runToFiles(zhi, argv, { cwd, env }) {
  const out = join(temp, `out-${++runs}.txt`);
  const err = join(temp, `err-${runs}.txt`);
  const fds = [openSync(out, 'w'), openSync(err, 'w')];
  return new Promise((resolve) => {
    const child = spawn('wine', [zhi.command, ...argv], { cwd, env, stdio: ['ignore', ...fds] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const fd of fds) closeSync(fd);
      resolve({ code, stdout: readFileSync(out, 'utf8'), stderr: zhiStderr(readFileSync(err, 'utf8')) });
    });
  });
}

/** Wine's own chatter on stderr (fixme:, err: lines) is not zhi's. */
const zhiStderr = (s) => (wine ? s.replace(/^[0-9a-f]{4}:(fixme|err|warn):.*\n/gm, '') : s);

async function checks(zhi, fake, env) {
  const work = join(temp, 'work');
  mkdirSync(work);
  const o = { cwd: work, env };
  const quiet = (name, r) =>
    check(`${name}: no Node warning`, !NODE_WARNING.test(r.stderr + r.stdout), r.stderr);

  const v = await run(zhi, ['--version'], o);
  const kind = exe ? 'standalone executable' : 'npm package';
  check(
    `--version says "${kind}"`,
    v.code === 0 && v.stdout.includes(`(${kind}, Node v`),
    v.stdout + v.stderr,
  );

  fake.script({ kind: 'text', text: 'smoke: hello from the fake' });
  const chat = await run(zhi, ['-c', 'hello'], o);
  check('a chat turn', chat.code === 0 && chat.stdout.includes('smoke: hello from the fake'), chat.stderr);
  quiet('chat', chat);

  fake.reset();
  fake.script(
    { kind: 'tools', calls: [{ id: 's1', name: 'shell', arguments: { command: DANGEROUS } }] },
    { kind: 'text', text: 'refused' },
  );
  // Without a terminal shell never runs; but its safety check parses the line with the grammar
  // first, and only a parsed line is refused for what it would delete.
  const shell = await run(zhi, ['-c', 'clean up', '--auto'], o);
  const toolResult = JSON.stringify(fake.chatBodies()[1]?.messages?.at(-1) ?? '');
  check(
    'the shell grammar loads (a dangerous command is refused for what it does)',
    shell.code === 0 && toolResult.includes('which holds the system or your personal files'),
    `${shell.stderr}\n${toolResult}`,
  );
  quiet('shell', shell);

  fake.reset();
  copyFileSync(join(root, 'test/fixtures/real/pdf/issue3521.pdf'), join(work, 'gbk-cmap.pdf'));
  fake.script(
    {
      kind: 'tools',
      calls: [
        {
          id: 'w1',
          name: 'file_write',
          arguments: { path: 'gbk-cmap-summary.md', content: '# 摘要\n\n- 黑体字' },
        },
      ],
    },
    { kind: 'text', text: 'written' },
  );
  const skill = await run(zhi, ['run', 'summarize', 'gbk-cmap.pdf', '--auto'], o);
  const first = JSON.stringify(fake.chatBodies()[0]?.messages ?? '');
  check(
    'a built-in skill reads a GBK-CMap PDF',
    skill.code === 0 && first.includes('我们都是黑体字'),
    `${skill.stderr}\n${first.slice(0, 600)}`,
  );
  check(
    'the skill wrote its file',
    existsSync(join(work, 'zhi-output', 'gbk-cmap-summary.md')),
    skill.stdout + skill.stderr,
  );
  quiet('skill', skill);

  const doctor = await run(zhi, ['doctor'], o);
  check(
    'zhi doctor reports the Node inside',
    /Node v\d+\.\d+\.\d+/.test(doctor.stdout),
    doctor.stdout + doctor.stderr,
  );
  quiet('doctor', doctor);
}

async function main() {
  const { fake, url, key } = await startFake();
  try {
    const home = join(temp, 'home');
    const env = {
      ...process.env,
      ZHI_HOME: home,
      ZHI_BASE_URL: url,
      ZHI_API_KEY: key,
      ZHI_LANGUAGE: 'en',
      NO_COLOR: '1',
    };
    let zhi;
    if (exe) {
      zhi = { command: realpathSync(exe) };
      env.PATH = pathWithoutNode();
      const noNode = await new Promise((resolve) => {
        const c = spawn('sh', ['-c', 'command -v node'], { env, stdio: 'ignore' });
        c.on('close', (code) => resolve(code !== 0));
      });
      check('no node on PATH', noNode);
      if (wine) {
        env.NODE_OPTIONS = `--require Z:${wineKeepAliveFix()}`;
        env.WINEPREFIX = winePrefix();
      }
    } else {
      if (nodeBinary) env.PATH = `${dirname(realpathSync(nodeBinary))}${delimiter}${env.PATH}`;
      zhi = installPackage(env);
    }
    await checks(zhi, fake, env);
  } finally {
    await fake.stop();
    rmSync(temp, { recursive: true, force: true });
  }
  process.stdout.write(`${passed} passed, ${failures} failed\n`);
  process.exit(failures ? 1 : 0);
}

await main();
