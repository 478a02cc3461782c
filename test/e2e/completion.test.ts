/**
 * Shell completions: `zhi completion bash` printed by the built zhi, sourced in bash, completes
 * subcommands, flags, config keys and skill names (asked of `zhi __complete skills`); the other
 * shells' scripts are made from the same words; an unknown shell is a usage error.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/cli/completion.js';
import { useE2E } from '../helpers/e2e.js';
import { ZHI_BIN } from '../helpers/zhi.js';

const e = useE2E();

/** What bash's completion function offers for these words (the last one being typed). */
function complete(script: string, words: string[]): string[] {
  const bin = join(e.home, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'zhi'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(ZHI_BIN)} "$@"\n`,
  );
  chmodSync(join(bin, 'zhi'), 0o755);
  const file = join(e.home, 'zhi.bash');
  writeFileSync(file, script);
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _zhi; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    {
      cwd: e.cwd,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ZHI_HOME: e.home },
      encoding: 'utf8',
    },
  );
  return out.split('\n').filter(Boolean);
}

describe('zhi completion', () => {
  it('bash: zhi ru → run, flags, config keys, skill names', async () => {
    const r = await e.zhi(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(complete(r.stdout, ['zhi', 'ru'])).toEqual(['run']);
    expect(complete(r.stdout, ['zhi', 'co'])).toEqual(['config', 'completion']);
    expect(complete(r.stdout, ['zhi', '--output-f'])).toEqual(['--output-format']);
    expect(complete(r.stdout, ['zhi', 'config', 'set', 'shell_'])).toEqual(['shell_sandbox', 'shell_env']);
    expect(complete(r.stdout, ['zhi', 'run', 'summ'])).toEqual(['summarize']);
    expect(complete(r.stdout, ['zhi', 'completion', 'f'])).toEqual(['fish']);
  });

  it('zsh, fish and PowerShell scripts carry the same words', () => {
    for (const shell of ['zsh', 'fish', 'powershell'] as const) {
      const script = completionScript(shell);
      for (const word of ['run', 'config', 'output-format', 'web_allow', '__complete skills'])
        expect(script, `${shell} ${word}`).toContain(word);
    }
    expect(completionScript('zsh')).toMatch(/^#compdef zhi\n/);
    expect(completionScript('powershell')).toContain('Register-ArgumentCompleter -Native -CommandName zhi');
  });

  it('an unknown shell is a usage error, in English and Chinese', async () => {
    const r = await e.zhi(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: zhi completion bash | zsh | fish | powershell');
    const zh = await e.zhi(['completion'], { env: { ZHI_LANGUAGE: 'zh' } });
    expect(zh.stderr).toContain('用法：zhi completion bash | zsh | fish | powershell');
  });
});
