/**
 * Which model a request goes to, decided in one place (chooseModel): --model, the environment,
 * config.yaml, /model in the REPL, a resumed session's model, and a skill's own model — each
 * checked in the body the fake API received.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const t = useE2E();
const models = () => t.fake.chatBodies().map((b) => b.model);

describe('the model a request goes to', () => {
  it('config default_model, beaten by $ZHI_DEFAULT_MODEL, beaten by --model', async () => {
    writeFileSync(join(t.home, 'config.yaml'), 'default_model: glm-4.6\n');
    expect((await t.zhi(['-c', 'a'])).code).toBe(0);
    expect((await t.zhi(['-c', 'b'], { env: { ZHI_DEFAULT_MODEL: 'glm-4.5-air' } })).code).toBe(0);
    const flag = ['-c', 'c', '--model', 'glm-4.7'];
    expect((await t.zhi(flag, { env: { ZHI_DEFAULT_MODEL: 'glm-4.5-air' } })).code).toBe(0);
    expect(models()).toEqual(['glm-4.6', 'glm-4.5-air', 'glm-4.7']);
  });

  it('zhi skill new follows default_model like every chat', async () => {
    writeFileSync(join(t.home, 'config.yaml'), 'default_model: glm-4.6\n');
    const s = t.pty({ args: ['skill', 'new', 'blank'], cols: 120 });
    await s.waitFor('What should the skill do');
    s.write(`summarize meeting notes${KEY.enter}`);
    await s.waitFor('OK');
    s.write(KEY.ctrlD);
    expect((await s.exited()).exitCode).toBe(0);
    expect(models()[0]).toBe('glm-4.6');
  });

  it('zhi skill new --model: the conversation and the new skill run at once both use it, as zhi run does', async () => {
    writeFileSync(join(t.home, 'config.yaml'), 'default_model: glm-4.6\n');
    writeFileSync(join(t.cwd, 'note.txt'), 'meeting moved');
    const create = {
      name: 'formal',
      description: 'Rewrite a note formally',
      system_prompt: 'Rewrite the note formally.',
      tools: ['file_read'],
      inputs: [{ name: 'file', type: 'file', required: true }],
    };
    t.fake.script(
      { kind: 'tools', calls: [{ name: 'skill_create', arguments: create }] },
      { kind: 'text', text: 'Saved the skill formal.' },
      { kind: 'text', text: 'Rescheduled.' },
    );
    const s = t.pty({ args: ['skill', 'new', 'blank', '--model', 'glm-4.7', '--auto'], cols: 120 });
    await s.waitFor('What should the skill do');
    s.write(`rewrite notes formally${KEY.enter}`);
    await s.waitFor('Run formal now?');
    s.write(`note.txt${KEY.enter}`);
    await s.waitFor('Rescheduled.');
    expect((await s.exited()).exitCode).toBe(0);
    expect(models()).toEqual(['glm-4.7', 'glm-4.7', 'glm-4.7']);
    // The conversation is a session like any chat: saved, its usage in the ledger.
    const sessions = readdirSync(join(t.home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
    expect(sessions).toHaveLength(2);
    expect(readFileSync(join(t.home, 'usage.jsonl'), 'utf8').match(/"kind":"chat"/g)).toHaveLength(2);
  });

  it('--resume goes on with the session model; --model beats it', async () => {
    expect((await t.zhi(['-c', 'first', '--model', 'glm-4.7'])).code).toBe(0);
    const id = readdirSync(join(t.home, 'sessions'))
      .find((f) => f.endsWith('.jsonl'))!
      .replace(/\.jsonl$/, '');
    expect((await t.zhi(['--resume', id, '-c', 'again'])).code).toBe(0);
    expect((await t.zhi(['--resume', id, '-c', 'once more', '--model', 'glm-4.6'])).code).toBe(0);
    expect(models()).toEqual(['glm-4.7', 'glm-4.7', 'glm-4.6']);
  });

  it("a skill's own model, beaten by --model; the chat model is not used", async () => {
    mkdirSync(join(t.home, 'skills'), { recursive: true });
    writeFileSync(
      join(t.home, 'skills', 'brief.yaml'),
      'name: brief\ndescription: b\nmodel: glm-4.5-flash\nsystem_prompt: Be brief.\ntools: []\ninput:\n  args:\n    - name: text\n      type: string\n',
    );
    writeFileSync(join(t.home, 'config.yaml'), 'default_model: glm-4.6\nskill_model: glm-4-flash\n');
    expect((await t.zhi(['run', 'brief', 'hello'])).code).toBe(0);
    expect((await t.zhi(['run', 'brief', 'hello', '--model', 'glm-4.7'])).code).toBe(0);
    expect(models()).toEqual(['glm-4.5-flash', 'glm-4.7']);
  });

  it('/model in the REPL changes the model of the next message', async () => {
    const s = t.pty();
    await s.waitFor('>');
    s.write(`/model glm-4.7${KEY.enter}`);
    await s.waitFor('glm-4.7');
    const mark = s.mark();
    s.write(`hello${KEY.enter}`);
    await s.waitFor('OK', 10_000, mark);
    expect(models()).toEqual(['glm-4.7']);
  });
});
