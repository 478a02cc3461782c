/**
 * The main script of the standalone executable (scripts/build-exe.mjs). Node's single-executable
 * applications run one CommonJS script; zhi is ES modules split into chunks that load when first
 * used. So this script serves the very files of the npm package's `dist/` from the executable's
 * assets: module hooks map `file:///<path of the executable>/dist/…` to the asset of that name,
 * and the entry is imported from there. Start-up and laziness stay those of the npm package; no
 * file is written. It imports only Node's built-in modules.
 */
import Module from 'node:module';
import { getAsset } from 'node:sea';
import { pathToFileURL } from 'node:url';

interface ResolveResult {
  url: string;
  format?: string;
  shortCircuit?: boolean;
}
interface LoadResult {
  format: string;
  source?: string | Uint8Array;
  shortCircuit?: boolean;
}
interface Hooks {
  resolve(
    specifier: string,
    context: { parentURL?: string | undefined },
    next: (specifier: string, context: unknown) => ResolveResult,
  ): ResolveResult;
  load(url: string, context: unknown, next: (url: string, context: unknown) => LoadResult): LoadResult;
}

// A path inside the executable: no real file can be there, so nothing on disk is ever shadowed.
const ROOT = `${pathToFileURL(process.execPath).href}/`;

const hooks: Hooks = {
  resolve(specifier, context, next) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (relative && context.parentURL?.startsWith(ROOT)) {
      return { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true };
    }
    if (specifier.startsWith(ROOT)) return { url: specifier, format: 'module', shortCircuit: true };
    return next(specifier, context);
  },
  load(url, context, next) {
    if (!url.startsWith(ROOT)) return next(url, context);
    const key = decodeURIComponent(url.slice(ROOT.length));
    return { format: 'module', source: getAsset(key, 'utf8'), shortCircuit: true };
  },
};

// In the executable's main script `import()` is not available; a module compiled through Node's
// CommonJS loader has it, with the hooks above in force (registerHooks: Node ≥ 22.15).
(Module as unknown as { registerHooks(h: Hooks): void }).registerHooks(hooks);
const loader = new Module(`${process.execPath}/boot.cjs`) as Module & {
  _compile(code: string, filename: string): void;
};
loader._compile('module.exports = (url) => import(url);', `${process.execPath}/boot.cjs`);
(loader.exports as (url: string) => Promise<unknown>)(`${ROOT}dist/zhi.js`).catch((err: unknown) => {
  process.stderr.write(`zhi could not start / zhi 无法启动: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
