import { join } from 'node:path';
import { parseArgs } from '../../src/cli/args.js';
import type { AppContext } from '../../src/cli/context.js';
import { Interrupt } from '../../src/cli/interrupt.js';
import { makeStyle } from '../../src/cli/render/style.js';
import { MODEL_CATALOG } from '../../src/llm/catalog.js';
import { PLATFORMS } from '../../src/llm/platforms.js';
import { resolveConfig } from '../../src/support/config.js';
import { appPaths } from '../../src/support/paths.js';

/** The AppContext of a REPL in a terminal, at home in `dir` (BigModel, approve mode). */
export function terminalContext(
  dir: string,
  o: { args?: string[]; file?: Record<string, unknown>; color?: boolean; env?: Record<string, string> } = {},
): AppContext {
  return {
    args: parseArgs(o.args ?? []),
    paths: appPaths({ ZHI_HOME: dir }),
    config: resolveConfig({ file: o.file ?? {}, exists: false, warnings: [] }, MODEL_CATALOG, {}),
    platform: PLATFORMS.bigmodel,
    err: makeStyle(o.color ?? false),
    out: makeStyle(o.color ?? false),
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    cwd: dir,
    outputDir: join(dir, 'zhi-output'),
    mode: 'approve',
    env: { HOME: dir, ...(o.env ?? {}) },
    interrupt: new Interrupt({ exit: () => {} }),
  };
}
