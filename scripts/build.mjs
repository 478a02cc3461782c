// Bundles src/cli/main.ts into dist/zhi.js with code splitting: the entry is tiny (so
// `zhi --version` imports nothing heavy) and every dynamic import() becomes its own chunk.
// node_modules stay external: heavy libraries are loaded from disk only when first used.
import { chmod, readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { zhi: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  define: { __ZHI_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
await chmod(new URL('../dist/zhi.js', import.meta.url), 0o755);
