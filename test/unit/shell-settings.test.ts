import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/tools/index.js';
import type { AnyTool, ToolContext, ToolResult } from '../../src/tools/types.js';
import { toolContext } from '../helpers/file-fixtures.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

// shell_sandbox and shell_env reach the shell tool through the tool table's deps (decided once at
// start from config), not through a module global: two tables built with different settings in
// one process each keep their own.
const unix = process.platform !== 'win32';
let dir: string;
beforeEach(() => {
  dir = tempDir('zhi-shell-settings-');
});
afterEach(() => cleanup(dir));

const ctx = (): ToolContext => toolContext({ cwd: dir, outputDir: join(dir, 'zhi-output') });

async function shellWith(settings: { sandbox: 'auto' | 'off'; envNames: string[] }): Promise<AnyTool> {
  const registry = await loadTools({ client: undefined as never, shell: settings }, ['shell']);
  return registry.get('shell') as AnyTool;
}

describe.runIf(unix)('the shell tool built with this run’s settings', () => {
  it('shell_sandbox: off is said in the approval of that table’s shell only', async () => {
    const off = await shellWith({ sandbox: 'off', envNames: [] });
    const auto = await shellWith({ sandbox: 'auto', envNames: [] });
    const args = { command: 'ls', timeout: 30 };
    const offVerdict = await off.assess!(args, ctx());
    expect(offVerdict.summary?.text).toMatch(/shell_sandbox/);
    const autoVerdict = await auto.assess!(args, ctx());
    expect(autoVerdict.summary?.text).not.toMatch(/shell_sandbox/);
  });

  it('shell_env names pass to that table’s commands only', async () => {
    process.env.ZHI_TEST_SHELL_ENV = 'visible-value';
    try {
      const named = await shellWith({ sandbox: 'off', envNames: ['ZHI_TEST_SHELL_ENV'] });
      const plain = await shellWith({ sandbox: 'off', envNames: [] });
      const args = { command: 'echo "[$ZHI_TEST_SHELL_ENV]"', timeout: 5 };
      const seen = (await named.execute(args, ctx())) as ToolResult;
      expect(seen.content).toContain('[visible-value]');
      expect(seen.content).toContain('It ran without a sandbox.');
      const hidden = (await plain.execute(args, ctx())) as ToolResult;
      expect(hidden.content).toContain('[]');
    } finally {
      delete process.env.ZHI_TEST_SHELL_ENV;
    }
  });
});
