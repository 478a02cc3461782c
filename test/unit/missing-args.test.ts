/**
 * A subcommand given without the name (or id, or file) it needs says what is missing and shows
 * the usage line, in English and Chinese — never "not a zhi mcp command: add".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { buildContext } from '../../src/cli/context.js';
import { Interrupt } from '../../src/cli/interrupt.js';
import { ExitCode, ZhiError } from '../../src/support/errors.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { cleanup, tempDir } from '../helpers/zhi.js';

let home: string;
beforeEach(() => {
  home = tempDir('zhi-home-');
});
afterEach(() => {
  setLanguage('en');
  cleanup(home);
});

/** Run `zhi <argv>` as far as its command, and return the error it ends with, as a person reads it. */
async function failure(argv: string[], language = 'en'): Promise<{ code: number; text: string }> {
  const args = parseArgs([...argv, '--language', language]);
  const ctx = await buildContext(args, new Interrupt({ exit: () => undefined }), {
    ZHI_HOME: home,
    ZHI_API_KEY: 'x.y',
  });
  const commands = {
    mcp: () => import('../../src/cli/commands/mcp.js'),
    skill: () => import('../../src/cli/commands/skill.js'),
    batch: () => import('../../src/cli/commands/batch.js'),
  } as const;
  const load = commands[args.subcommand as keyof typeof commands];
  try {
    await (await load()).run(ctx);
  } catch (err) {
    if (!(err instanceof ZhiError)) throw err;
    return { code: err.exitCode, text: [err.whatText(), err.whyText() ?? '', ...err.tryTexts()].join('\n') };
  }
  throw new Error(`zhi ${argv.join(' ')} did not fail`);
}

describe('a missing argument is named', () => {
  it('zhi mcp add without a name asks for the name and the command or url, with the usage line', async () => {
    const r = await failure(['mcp', 'add']);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.text).toContain(
      '`zhi mcp add` needs a name for the server, then its command (after --) or --url.',
    );
    expect(r.text).toContain('Usage: zhi mcp list');
    expect(r.text).not.toContain('not a `zhi mcp` command');
  });

  it('zhi mcp add without a name, in Chinese', async () => {
    const r = await failure(['mcp', 'add'], 'zh');
    expect(r.code).toBe(ExitCode.usage);
    expect(r.text).toContain('`zhi mcp add` 需要服务器的名称');
    expect(r.text).not.toContain('这不是');
  });

  it('zhi mcp test and remove without a name ask for the server name', async () => {
    for (const action of ['test', 'remove']) {
      const r = await failure(['mcp', action]);
      expect(r.code).toBe(ExitCode.usage);
      expect(r.text).toContain(`\`zhi mcp ${action}\` needs the name of an MCP server.`);
      expect(r.text).toContain('Usage: zhi mcp list');
    }
  });

  it('zhi mcp with an unknown word still says it is not a command', async () => {
    const r = await failure(['mcp', 'ad']);
    expect(r.text).toContain('This is not a `zhi mcp` command: "ad".');
  });

  it('zhi skill import without a file asks for a file or address, not a skill name', async () => {
    const r = await failure(['skill', 'import']);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.text).toContain('`zhi skill import` needs a skill file (.zip) or its web address.');
    expect(r.text).toContain('import <file.zip|url>');
    const zh = await failure(['skill', 'import'], 'zh');
    expect(zh.text).toContain('需要一个技能文件（.zip）或它的网址');
  });

  it('zhi skill show without a name asks for the skill name, with the commands', async () => {
    const r = await failure(['skill', 'show']);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.text).toContain('`zhi skill show` needs the name of a skill.');
    expect(r.text).toContain('Commands: list, show <name>');
  });

  it('zhi batch status without an id asks for the id, with the usage line', async () => {
    const r = await failure(['batch', 'status']);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.text).toContain('`zhi batch status` needs the id of a batch job.');
    expect(r.text).toContain('Usage: zhi batch list');
    const zh = await failure(['batch', 'cancel'], 'zh');
    expect(zh.text).toContain('`zhi batch cancel` 需要一个批处理任务的 id。');
  });
});
