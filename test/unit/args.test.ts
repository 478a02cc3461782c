import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { ZhiError } from '../../src/support/errors.js';

describe('command line', () => {
  it('parses global flags anywhere', () => {
    const a = parseArgs([
      '--model',
      'glm-4.7',
      '-c',
      'hello',
      '--auto',
      '--output-format=json',
      '--no-color',
      '-vv',
    ]);
    expect(a.flags).toMatchObject({
      model: 'glm-4.7',
      command: 'hello',
      auto: true,
      outputFormat: 'json',
      noColor: true,
      verbose: 2,
    });
    expect(a.subcommand).toBeUndefined();
  });

  it('keeps skill arguments for run', () => {
    const a = parseArgs(['run', 'translate', 'report.md', '--to', 'english', '--auto', '--formal']);
    expect(a.subcommand).toBe('run');
    expect(a.positionals).toEqual(['translate', 'report.md']);
    expect(a.extra).toEqual({ to: 'english', formal: true });
    expect(a.flags.auto).toBe(true);
  });

  it('rejects an unknown flag in chat mode with a suggestion', () => {
    try {
      parseArgs(['--modle', 'glm-5']);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ZhiError);
      expect((e as ZhiError).exitCode).toBe(2);
      expect((e as ZhiError).tryTexts()[0]).toContain('--model');
    }
  });

  it('rejects a bad output format and a missing value', () => {
    expect(() => parseArgs(['--output-format', 'xml'])).toThrow(ZhiError);
    expect(() => parseArgs(['--model'])).toThrow(ZhiError);
  });

  it('takes words named like object properties as words, not flags', () => {
    const a = parseArgs(['config', 'get', 'toString']);
    expect(a.subcommand).toBe('config');
    expect(a.positionals).toEqual(['get', 'toString']);
    expect(parseArgs(['constructor', 'hasOwnProperty']).positionals).toEqual([
      'constructor',
      'hasOwnProperty',
    ]);
  });

  it('accepts a message that starts with a dash for -c', () => {
    expect(parseArgs(['-c', '-5 degrees?']).flags.command).toBe('-5 degrees?');
  });

  it('handles --resume with and without an id', () => {
    expect(parseArgs(['--resume']).flags.resume).toBe(true);
    expect(parseArgs(['--resume', 'abc123']).flags.resume).toBe('abc123');
  });
});
