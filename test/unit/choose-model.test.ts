import { describe, expect, it } from 'vitest';
import { chooseModel } from '../../src/llm/choose.js';
import { outputFolder } from '../../src/support/output-dir.js';

const bigmodel = { id: 'bigmodel' as const };

describe('chooseModel', () => {
  it('takes the first candidate given, most specific first', () => {
    const c = chooseModel(
      [
        { model: undefined, source: '--model' },
        { model: 'GLM-4.6', source: 'skill' },
        { model: 'glm-4-flash', source: 'config' },
      ],
      { platform: bigmodel, role: 'skill' },
    );
    expect(c).toMatchObject({ ok: true, model: 'glm-4.6', source: 'skill', unknown: false });
  });

  it("skips a resumed session's model that is unknown here, and keeps a known one", () => {
    const pick = (session: string) =>
      chooseModel(
        [
          { model: session, source: 'session', optional: true },
          { model: 'glm-5', source: 'config' },
        ],
        { platform: bigmodel, role: 'chat' },
      );
    expect(pick('gpt-4o')).toMatchObject({ model: 'glm-5', source: 'config' });
    expect(pick('glm-4.7')).toMatchObject({ model: 'glm-4.7', source: 'session' });
  });

  it('chat and skills take an unknown GLM id with a warning flag, and no other unknown id', () => {
    expect(
      chooseModel([{ model: 'gpt-4o', source: '/model' }], { platform: bigmodel, role: 'chat' }),
    ).toMatchObject({ ok: false, problem: 'unknown' });
    expect(
      chooseModel([{ model: 'glm-5.9', source: '/model' }], { platform: bigmodel, role: 'chat' }),
    ).toMatchObject({ ok: true, unknown: true });
    expect(
      chooseModel([{ model: 'gpt-4o', source: 'skill' }], { platform: bigmodel, role: 'skill' }),
    ).toMatchObject({ ok: false, problem: 'unknown' });
    expect(
      chooseModel([{ model: 'glm-9', source: 'skill' }], { platform: bigmodel, role: 'skill' }),
    ).toMatchObject({
      ok: true,
      unknown: true,
    });
  });

  it('refuses OCR models and ill-formed ids', () => {
    const chat = { platform: bigmodel, role: 'chat' as const };
    expect(chooseModel([{ model: 'glm-ocr', source: '/model' }], chat)).toMatchObject({ problem: 'ocr' });
    expect(chooseModel([{ model: 'glm 5!', source: '/model' }], chat)).toMatchObject({ problem: 'invalid' });
  });

  it('takes any well-formed id as is on a custom endpoint, without calling it unknown', () => {
    const c = chooseModel([{ model: 'my-llama', source: '/model' }], {
      platform: { id: 'custom' },
      role: 'skill',
    });
    expect(c).toMatchObject({ ok: true, model: 'my-llama', unknown: false });
  });
});

describe('outputFolder', () => {
  it("--output-dir beats a skill's own folder, which beats config and the default", () => {
    const base = { cwd: '/w', configured: 'zhi-output' };
    expect(outputFolder({ ...base })).toBe('/w/zhi-output');
    expect(outputFolder({ ...base, skillDir: 'reports' })).toBe('/w/reports');
    expect(outputFolder({ cwd: '/w', flag: 'out', configured: 'out', skillDir: 'reports' })).toBe('/w/out');
  });
});
