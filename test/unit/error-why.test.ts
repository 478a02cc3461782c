import { afterEach, describe, expect, it } from 'vitest';
import { unpackSkill } from '../../src/skills/share.js';
import { quoted, ZhiError } from '../../src/support/errors.js';
import { setLanguage } from '../../src/support/i18n/index.js';
import { transcribeFailure } from '../../src/tools/asr/transcribe.js';
import { ToolError } from '../../src/tools/types.js';

afterEach(() => setLanguage('en'));

describe("an error's why is the catalogue's, or someone else's words marked as theirs", () => {
  it('a raw string is not a why (the type refuses it)', () => {
    // @ts-expect-error English written anywhere cannot be an error's reason unmarked.
    const e = new ZhiError({ kind: 'io', what: { key: 'cli.err.unexpected' }, why: 'raw English' });
    expect(e.kind).toBe('io');
  });

  it("a tool failure's English, written for the model, never reaches the screen", () => {
    const forModel = 'The service failed on piece 2 of 3; tell the user and stop.';
    setLanguage('zh');
    const why = transcribeFailure(new ToolError(forModel), '会议.wav').whyText();
    expect(why).not.toContain('service failed');
    expect(why).toContain('zhi --debug');
    // A failure with a notice for the person shows the notice.
    const noticed = transcribeFailure(
      new ToolError(forModel, { key: 'safety.upload.unnamed', params: { file: '会议.wav' } }),
      '会议.wav',
    ).whyText();
    expect(noticed).toContain('会议.wav');
    expect(noticed).not.toContain('service failed');
  });

  it("the platform's own words are shown as a quote, saying whose they are", () => {
    const e = new ZhiError({
      kind: 'server',
      what: { key: 'cli.err.unexpected' },
      why: quoted('model overloaded', 'cli.by.platform'),
    });
    expect(e.whyText()).toBe('The platform said: “model overloaded”');
    setLanguage('zh');
    expect(e.whyText()).toBe('平台给出的原话：“model overloaded”');
  });

  it('a shared skill refused is told why in the catalogue, in Chinese too', async () => {
    const notZip = await unpackSkill(new Uint8Array([1, 2, 3])).catch((e: unknown) => e);
    setLanguage('zh');
    const e = new ZhiError({
      kind: 'usage',
      what: { key: 'skills.share.bad', params: { source: 'x.zip' } },
      why: (notZip as { reason: { key: 'skills.share.why.notZip' } }).reason,
    });
    expect(e.whyText()).toMatch(/^它不是可读取的 zip 文件/);
  });
});
