/** /usage names the price step the conversation is in (issue 31), in the person's language. */
import { describe, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY } from '../helpers/pty.js';

const e = useE2E();

describe('/usage and price steps', () => {
  it('shows the input price now and where the dearer step starts', async () => {
    e.fake.script({ kind: 'text', text: 'Hello there.' });
    // Wide enough that the line is not wrapped at words (the REPL wraps every line it prints).
    const repl = e.pty({ args: ['--model', 'glm-5'], cols: 200 });
    await repl.waitFor('>');
    repl.write(`hello${KEY.enter}`);
    await repl.waitFor('Hello there.');
    const mark = repl.mark();
    repl.write(`/usage${KEY.enter}`);
    await repl.waitFor(
      /Price step: glm-5 with this conversation \(≈ (?:[\d.]+k|\d+) tokens\): input ¥4\.00 per million tokens, ¥6\.00 once a request passes 32k tokens\./,
      10_000,
      mark,
    );
    repl.write(KEY.ctrlD);
    await repl.exited();
  });

  it('says it in Chinese', async () => {
    const repl = e.pty({ args: ['--model', 'glm-5'], env: { ZHI_LANGUAGE: 'zh' }, cols: 200 });
    await repl.waitFor('>');
    repl.write(`/usage${KEY.enter}`);
    await repl.waitFor(
      /计价档：glm-5，当前对话约 (?:[\d.]+k|\d+) token：输入每百万 token ¥4\.00，单次请求超过 32k token 后为 ¥6\.00。/,
    );
    repl.write(KEY.ctrlD);
    await repl.exited();
  });
});
