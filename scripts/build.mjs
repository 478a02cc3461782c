// Bundles src/cli/main.ts and every runtime dependency into dist/, with code splitting: the entry
// is tiny (so `zhi --version` imports nothing heavy) and every dynamic import() becomes its own
// chunk, loaded only when first used. Only Node's built-in modules stay outside, so the npm
// package has no dependencies of its own: an install gets exactly the code this repository
// tested (its lockfile and overrides), no native addon, no engine warning.
// The data files that code reads go to dist/assets/ (support/install.ts reads them there, or from
// inside a standalone executable); the licences of the bundled packages to dist/THIRD-PARTY-LICENSES.txt.
import { chmod, copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const modules = join(root, 'node_modules');

/** dist/assets/<name> ← node_modules/<source>: a file, or every file of a folder. */
const ASSETS = [
  ['tree-sitter/tree-sitter.wasm', '@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm'],
  ['tree-sitter/tree-sitter-bash.wasm', '@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm'],
  ['pdfjs/cmaps', 'pdfjs-dist/cmaps'],
  ['pdfjs/standard_fonts', 'pdfjs-dist/standard_fonts'],
];

// Bundled CommonJS code expects `require`, `__filename` and `__dirname`; an ES module has none,
// so each output file gets its own, made from its URL. esbuild does not see this text, so it
// uses only names no bundled module declares (uuid has a top-level `URL`, for one).
const BANNER = [
  "import { createRequire as __zhiCreateRequire } from 'node:module';",
  "import { dirname as __zhiDirnameOf } from 'node:path';",
  "import { fileURLToPath as __zhiFileURLToPath } from 'node:url';",
  'const require = __zhiCreateRequire(import.meta.url);',
  'const __zhiFilename = __zhiFileURLToPath(import.meta.url);',
  'const __zhiDirname = __zhiDirnameOf(__zhiFilename);',
].join('\n');

async function main() {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  // Everything but the executables (npm run build:exe), which take minutes to make.
  for (const name of await readdir(dist).catch(() => [])) {
    if (name !== 'exe') await rm(join(dist, name), { recursive: true, force: true });
  }
  const result = await build({
    entryPoints: { zhi: join(root, 'src/cli/main.ts') },
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    banner: { js: BANNER },
    define: {
      __ZHI_VERSION__: JSON.stringify(pkg.version),
      __filename: '__zhiFilename',
      __dirname: '__zhiDirname',
    },
    plugins: [cjsNamedExports, catalogueFromFile, noDeprecatedBuffer, zodEnglishOnly],
    metafile: true,
    absWorkingDir: root,
    logLevel: 'warning',
  });
  await chmod(join(dist, 'zhi.js'), 0o755);
  for (const [name, source] of ASSETS) {
    await cp(join(modules, source), join(dist, 'assets', name), { recursive: true });
  }
  // The Windows shell helper (native/win-sandbox/, prebuilt: scripts/build-win-helper.mjs).
  await mkdir(join(dist, 'assets', 'win'), { recursive: true });
  await copyFile(
    join(root, 'native', 'win-sandbox', 'zhi-sandbox.exe'),
    join(dist, 'assets', 'win', 'zhi-sandbox.exe'),
  );
  await writeCatalogues();
  await writeBuiltinSkills(pkg.version);
  const page = await buildPage();
  await writeFile(join(dist, 'THIRD-PARTY-LICENSES.txt'), await licences(result.metafile, page.metafile));
}

/** The page's script may weigh this much gzip-compressed (issue 40: ≤ 200 KB). */
const PAGE_BUDGET = 200 * 1024;

/**
 * The web page of `zhi web` (src/page/, preact + marked + DOMPurify) as dist/web/index.html,
 * app.js and app.css: one minified browser script, loaded only by the server, never by the CLI.
 */
async function buildPage() {
  const out = join(dist, 'web');
  const result = await build({
    entryPoints: { app: join(root, 'src/page/main.tsx') },
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'edge110', 'firefox115', 'safari16'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'src/page/tsconfig.json'),
    legalComments: 'none',
    metafile: true,
    absWorkingDir: root,
    logLevel: 'warning',
  });
  await copyFile(join(root, 'src/page/index.html'), join(out, 'index.html'));
  const size = gzipSync(await readFile(join(out, 'app.js'))).length;
  if (size > PAGE_BUDGET)
    throw new Error(`dist/web/app.js is ${size} bytes compressed, over its budget of ${PAGE_BUDGET}`);
  return result;
}

/**
 * The messages of each language and area (a key's part before its first dot) as
 * dist/assets/i18n/<language>/<area>.json, for catalogue-file.ts: a start parses the strings it
 * uses instead of compiling the code of both languages.
 */
async function writeCatalogues() {
  const { messages } = await importSource('src/support/i18n/messages/index.ts');
  for (const [lang, strings] of Object.entries(messages)) {
    const areas = new Map();
    for (const [key, text] of Object.entries(strings)) {
      const area = key.split('.')[0];
      if (!areas.has(area)) areas.set(area, {});
      areas.get(area)[key] = text;
    }
    await mkdir(join(dist, 'assets', 'i18n', lang), { recursive: true });
    for (const [area, part] of areas) {
      await writeFile(join(dist, 'assets', 'i18n', lang, `${area}.json`), JSON.stringify(part));
    }
  }
}

/**
 * The built-in skills as zhi loads them (src/skills/loader.ts), as dist/assets/builtin-skills.json:
 * a fresh data folder (a first start, a new version) takes them from there (src/skills/shipped.ts)
 * instead of loading the YAML parser and the schema for them. A built-in skill with an error or a
 * warning fails the build.
 */
async function writeBuiltinSkills(version) {
  const { loadSkillFile } = await importSource('src/skills/loader.ts', {
    define: {
      __ZHI_VERSION__: JSON.stringify(version),
      __filename: '__zhiFilename',
      __dirname: '__zhiDirname',
    },
    plugins: [catalogueFromFile, zodEnglishOnly],
  });
  const dir = join(root, 'skills');
  const shipped = {};
  for (const name of (await readdir(dir)).filter((n) => /\.ya?ml$/i.test(n)).sort()) {
    const outcome = await loadSkillFile(join(dir, name), 'builtin');
    if (!outcome.skill || outcome.errors.length || outcome.warnings.length)
      throw new Error(
        `skills/${name} does not load cleanly: ${JSON.stringify([outcome.errors, outcome.warnings])}`,
      );
    // Where it lives is known only where it is installed (shipped.ts puts it back).
    const { file: _file, ...skill } = outcome.skill;
    shipped[name] = { ...outcome, skill };
  }
  await writeFile(join(dist, 'assets', 'builtin-skills.json'), JSON.stringify(shipped));
}

/**
 * A source file of zhi, bundled and imported here, to run its code at build time. Through a file
 * rather than a data: URL: bundled CommonJS (yaml) needs `require` (BANNER).
 */
let imported = 0;
async function importSource(entry, options = {}) {
  const bundled = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
    ...options,
  });
  // A name of its own each time: an imported URL is cached for the life of the process.
  const file = join(dist, `build-step-${++imported}.tmp.mjs`);
  await writeFile(file, `${BANNER}\n${Buffer.from(bundled.outputFiles[0].contents).toString('utf8')}`);
  return import(pathToFileURL(file).href).finally(() => rm(file, { force: true }));
}

/** In the bundle, src/support/i18n/index.ts gets its strings from those files (catalogue-file.ts). */
const catalogueFromFile = {
  name: 'catalogue-from-file',
  setup(b) {
    b.onResolve({ filter: /^\.\/catalogue\.js$/ }, (args) =>
      args.importer === join(root, 'src/support/i18n/index.ts')
        ? { path: join(root, 'src/support/i18n/catalogue-file.ts') }
        : undefined,
    );
  },
};

/**
 * zod re-exports every locale of its error messages as `z.locales` (≈ 360 KB, 40 % of the zod
 * that a one-shot compiles), and a namespace re-export cannot be tree-shaken. zhi speaks to the
 * person through its own catalogue and keeps zod's English default (classic/schemas.js imports
 * en.js itself), so `z.locales` holds English only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
      return { path: join(args.resolveDir, '..', 'locales', 'en-only.js'), namespace: 'zod-en' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * archiver-utils (inside exceljs' zip writer) still calls `new Buffer(…)`, and Node prints its
 * DEP0005 warning to the person's terminal every time zhi writes a workbook. The three calls are
 * rewritten to what they mean (`Buffer.alloc(size)` for a size, `Buffer.from(source)` for a string).
 */
const noDeprecatedBuffer = {
  name: 'no-deprecated-buffer',
  setup(b) {
    b.onLoad({ filter: /[\\/]archiver-utils[\\/]index\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const contents = text
        .replace(/new Buffer\((size|0)\)/g, 'Buffer.alloc($1)')
        .replace(/new Buffer\(source\)/g, 'Buffer.from(source)');
      if (contents.includes('new Buffer(')) throw new Error(`${args.path}: a new Buffer() call is left`);
      return { contents, loader: 'js' };
    });
  },
};

/**
 * `await import('yaml')` of a CommonJS package: Node gives the namespace its named exports, but
 * esbuild's split chunk exports only `default`, so `const { stringify } = await import('yaml')`
 * would break in the bundle. Such an import goes through a small module that names them.
 */
const cjsNamedExports = {
  name: 'cjs-named-exports',
  setup(b) {
    b.onResolve({ filter: /^[@a-z]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
      const resolved = await b.resolve(args.path, {
        kind: 'import-statement',
        resolveDir: args.resolveDir,
        pluginData: 'inner',
      });
      if (resolved.errors.length || !(await isCommonJs(resolved.path))) return undefined;
      return { path: resolved.path, namespace: 'cjs-named' };
    });
    b.onLoad({ filter: /.*/, namespace: 'cjs-named' }, (args) => {
      const names = Object.keys(createRequire(args.path)(args.path)).filter(
        (n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n),
      );
      const from = JSON.stringify(args.path);
      return {
        contents: `import * as ns from ${from};\nexport default ns.default;\n${names.map((n) => `export const ${n} = ns.${n};`).join('\n')}\n`,
        resolveDir: dirname(args.path),
      };
    });
  },
};

/** A .cjs file, or a .js file whose package is not `"type": "module"`. */
async function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (pkg !== undefined) return JSON.parse(pkg).type !== 'module';
  }
  return true;
}

/** The licence text of every package whose code went into the bundle or the assets. */
async function licences(...metafiles) {
  const packages = new Set(ASSETS.map(([, source]) => packageOf(join(modules, source))));
  for (const input of metafiles.flatMap((m) => Object.keys(m.inputs))) {
    if (/^[\w-]+:/.test(input)) continue; // a plugin's module (its package is an input too)
    const at = join(root, input);
    if (at.includes(`${modules}/`) || at.includes('/node_modules/')) packages.add(packageOf(at));
  }
  const parts = [];
  for (const dir of [...packages].filter(Boolean).sort()) {
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const files = (await readdir(dir)).filter((f) => /^(licen[cs]e|copying|notice)/i.test(f));
    const texts = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
    parts.push(
      `${pkg.name}@${pkg.version} (${pkg.license ?? 'see below'})\n\n${texts.join('\n').trim() || '(no licence file)'}`,
    );
  }
  return `zhi bundles these packages; their licences follow.\n\n${parts.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}

/** The folder of the package a file belongs to (the nearest package.json with a name). */
function packageOf(file) {
  const parts = file.split('/node_modules/');
  const rest = parts.pop().split('/');
  const name = rest[0].startsWith('@') ? rest.slice(0, 2).join('/') : rest[0];
  return join(parts.join('/node_modules/'), 'node_modules', name);
}

// `npm start` builds first, which takes a while: say so rather than sit silent (issue 44), in
// the language zhi will speak (the catalogue is not built yet).
const starting = process.env.npm_lifecycle_event === 'start';
const zh = /^zh/i.test(process.env.ZHI_LANGUAGE || process.env.LC_ALL || process.env.LANG || '');
const began = performance.now();
if (starting)
  process.stderr.write(
    zh
      ? '正在构建 zhi（dist/），首次可能需要十几秒…\n'
      : 'Building zhi into dist/ first (it can take ten seconds or more)…\n',
  );
await main();
if (starting) {
  const secs = ((performance.now() - began) / 1000).toFixed(1);
  process.stderr.write(zh ? `构建完成（${secs} 秒），正在启动。\n` : `Built in ${secs} s; starting.\n`);
}
