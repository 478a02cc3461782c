import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';

const e = useE2E();
const { fake } = e;

describe('zhi -c (one-shot chat)', () => {
  it('prints the streamed answer on stdout and nothing else', async () => {
    fake.script({ kind: 'text', text: '你好！我是 zhi，有什么可以帮你？', reasoning: '用户打招呼。' });
    const r = await e.zhi(['-c', '你好']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('你好！我是 zhi，有什么可以帮你？\n');
    expect(r.stderr).not.toContain('用户打招呼'); // reasoning never on stdout, and not on a non-terminal stderr
    expect(r.stderr).toMatch(/\[DONE\] Done: .*tokens · ≈¥0\.\d+ · \d+\.\ds/);
    const [body] = fake.chatBodies();
    expect(body.model).toBe('glm-5');
    expect(body.stream).toBe(true);
    expect(body.thinking).toEqual({ type: 'enabled' });
    expect(body.messages[0].role).toBe('system');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: '你好' });
  });

  it('shows reasoning on stderr with -v, never on stdout', async () => {
    fake.script({ kind: 'text', text: 'Answer.', reasoning: 'Private reasoning.' });
    const r = await e.zhi(['-c', 'q', '-v']);
    expect(r.stdout).toBe('Answer.\n');
    expect(r.stderr).toContain('Private reasoning.');
  });

  it('keeps a multi-byte character split across network reads intact', async () => {
    const text = '这是一个测试：中文字符被拆分在两次网络读取之间。';
    fake.script({ kind: 'text', text, splitBytes: true, chunk: 2 });
    const r = await e.zhi(['-c', '测试']);
    expect(r.stdout).toBe(`${text}\n`);
  });

  it('uses --model and honours ZHI_DEFAULT_MODEL', async () => {
    fake.script({ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' });
    await e.zhi(['-c', 'q', '--model', 'glm-4.7']);
    await e.zhi(['-c', 'q'], { env: { ZHI_DEFAULT_MODEL: 'glm-4.6' } });
    expect(fake.chatBodies().map((b) => b.model)).toEqual(['glm-4.7', 'glm-4.6']);
  });

  it('--output-format json prints one document with usage, cost and counts', async () => {
    fake.script({
      kind: 'text',
      text: 'JSON answer',
      usage: { prompt_tokens: 1000, completion_tokens: 500, cached_tokens: 200 },
    });
    const r = await e.zhi(['-c', 'q', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      response: 'JSON answer',
      model: 'glm-5',
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500, cached_tokens: 200 },
      cost: { currency: 'CNY' },
      files_written: [],
      tool_calls: 0,
      turns: 1,
    });
    // glm-5 on BigModel: 800 uncached × ¥4 + 200 cached × ¥0.8 + 500 × ¥18, per million
    expect(doc.cost.amount).toBeCloseTo((800 * 4 + 200 * 0.8 + 500 * 18) / 1e6, 6);
    expect(typeof doc.duration_ms).toBe('number');
  });

  it('--output-format stream-json prints one event per line, ending with the result', async () => {
    fake.script({ kind: 'text', text: 'streamed', chunk: 3 });
    const r = await e.zhi(['-c', 'q', '--output-format', 'stream-json']);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      lines
        .filter((l) => l.type === 'text_delta')
        .map((l) => l.text)
        .join(''),
    ).toBe('streamed');
    expect(lines.at(-1)).toMatchObject({ type: 'result', response: 'streamed' });
  });
});

describe('pipe mode', () => {
  it('takes the message from stdin', async () => {
    fake.script({ kind: 'text', text: 'piped answer' });
    const r = await e.zhi([], { stdin: '总结一下：今天天气很好。' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('piped answer\n');
    expect(fake.chatBodies()[0].messages.at(-1).content).toBe('总结一下：今天天气很好。');
  });

  it('with -c, attaches stdin as a document', async () => {
    fake.script({ kind: 'text', text: 'summary' });
    const r = await e.zhi(['-c', 'summarize this'], { stdin: 'Line one.\nLine two.' });
    expect(r.code).toBe(0);
    const content: string = fake.chatBodies()[0].messages.at(-1).content;
    expect(content).toBe('summarize this\n\n<document name="stdin">\nLine one.\nLine two.\n</document>');
  });

  it('an empty message on stdin is a usage error that names stdin, not -c', async () => {
    const r = await e.zhi([], { stdin: '   ' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('There is no message to send');
    expect(r.stderr).toContain('piped in on standard input was empty');
    expect(r.stderr).not.toContain('-c message');
    expect(r.stderr).toContain('echo "your question" | zhi');
    expect(fake.requests).toHaveLength(0);
  });

  it('an empty message on stdin is explained in Chinese too', async () => {
    const r = await e.zhi([], { stdin: '\n', env: { ZHI_LANGUAGE: 'zh' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('从标准输入传入的文本是空的');
    expect(r.stderr).not.toContain('-c 的消息');
  });

  it('an empty -c message names -c', async () => {
    const r = await e.zhi(['-c', ' '], { stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The -c message was empty');
  });
});

describe('errors', () => {
  it('a bad key exits 3 with advice', async () => {
    const r = await e.zhi(['-c', 'hi'], { env: { ZHI_API_KEY: 'bad.key' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('[ERROR] The API key was rejected.');
    expect(r.stderr).toContain('令牌已过期或验证不正确！');
    expect(r.stderr).toContain('zhi --setup');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace without --debug
  });

  it('1113 exits 3 after exactly one request, and talks about the balance', async () => {
    fake.script({ kind: 'error', status: 429, code: '1113', message: '余额不足或无可用资源包,请充值。' });
    const r = await e.zhi(['-c', 'hi']);
    expect(r.code).toBe(3);
    expect(fake.chatBodies()).toHaveLength(1);
    expect(r.stderr).toContain('no balance');
    expect(r.stderr).toContain('glm-4-flash');
  });

  it('1113 on a free model does not advise the free model it already uses', async () => {
    fake.script({ kind: 'error', status: 429, code: '1113', message: '余额不足或无可用资源包,请充值。' });
    const r = await e.zhi(['-c', 'hi', '--model', 'glm-4-flash']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('glm-4-flash is already a free model');
    expect(r.stderr).not.toContain('--model glm-4-flash');
  });

  it('1302 is retried (announced on stderr), then succeeds', async () => {
    fake.script(
      { kind: 'error', status: 429, code: '1302', message: 'High concurrency' },
      { kind: 'text', text: 'after retry' },
    );
    const r = await e.zhi(['-c', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('after retry\n');
    expect(r.stderr).toMatch(/Retrying in .* \(1\/3\)/);
    expect(fake.chatBodies()).toHaveLength(2);
  });

  it('500s are retried 3 times, then a clear error and exit 1', async () => {
    for (let i = 0; i < 4; i++)
      fake.script({ kind: 'error', status: 500, code: '500', message: 'Internal Error' });
    const r = await e.zhi(['-c', 'hi']);
    expect(r.code).toBe(1);
    expect(fake.chatBodies()).toHaveLength(4);
    expect(r.stderr).toContain('The Zhipu API had an internal error.');
  });

  it('a stream cut mid-way gives a clear error and exit 1, keeping the partial text', async () => {
    fake.script({ kind: 'cut', text: 'Partial answer that was' });
    const r = await e.zhi(['-c', 'hi'], { timeoutMs: 15_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('Partial answer that was\n');
    expect(r.stderr).toContain('The connection dropped in the middle of the answer.');
    expect(r.stderr).not.toMatch(/UND_ERR|other side closed/);
  });

  it('a connection cut before anything arrived is tried again, then said plainly, pointing to nothing "above"', async () => {
    fake.fallback = () => ({ kind: 'cut', text: '' });
    const r = await e.zhi(['-c', 'hi'], { timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(fake.chatBodies().length).toBeGreaterThan(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('was closed unexpectedly');
    expect(r.stderr).not.toContain('shown above');
    expect(r.stderr).not.toMatch(/UND_ERR|other side closed/);
  });

  it('a stalled stream times out instead of hanging', async () => {
    fake.script({ kind: 'hang', text: 'stall' });
    const r = await e.zhi(['-c', 'hi'], { env: { ZHI_STREAM_IDLE_TIMEOUT: '1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('stopped sending data');
    // What arrived is kept, and stdout ends its last line (issue 44 point 19).
    expect(r.stdout).toBe('stall\n');
  });

  it('JSON output carries the error object', async () => {
    fake.script({
      kind: 'error',
      status: 400,
      code: '1301',
      message: '系统检测到输入或生成内容可能包含不安全或敏感内容',
    });
    const r = await e.zhi(['-c', 'hi', '--output-format', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.code).toBe('content_filter');
    expect(doc.error.suggestions.length).toBeGreaterThan(0);
  });

  it('with no key and no terminal: exit 3 and says how to set one', async () => {
    const r = await e.zhi([], { stdin: 'hello', env: { ZHI_API_KEY: undefined } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('No API key is set.');
    expect(r.stderr).toContain('ZHI_API_KEY');
    expect(r.stderr).toContain('zhi --setup');
    expect(fake.requests).toHaveLength(0);
  });

  it('the setup wizard refuses to start without a terminal (exit 3)', async () => {
    const r = await e.zhi(['--setup']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('needs a terminal');
  });

  it('an unknown flag is a usage error (exit 2) with a suggestion', async () => {
    const r = await e.zhi(['--modle', 'glm-5', '-c', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown option: --modle');
    expect(r.stderr).toContain('--model');
  });

  it('--debug adds log lines and the stack trace on stderr; the log file records the failure', async () => {
    const r = await e.zhi(['-c', 'hi', '--debug'], { env: { ZHI_API_KEY: 'bad.key' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('[debug]');
    expect(r.stderr).toMatch(/ZhiError|at .*\.js:\d+/);
    const log = readFileSync(join(e.home, 'logs', 'zhi.log'), 'utf8');
    expect(log).toContain('start');
  });

  it('speaks Chinese with --language zh', async () => {
    const r = await e.zhi(['-c', 'hi', '--language', 'zh'], { env: { ZHI_API_KEY: 'bad.key' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('API 密钥被拒绝。');
  });
});

describe('proxy', () => {
  it('sends API traffic through HTTP_PROXY', async () => {
    let proxied = 0;
    // A forward proxy that speaks CONNECT (what undici's ProxyAgent uses), counting tunnels.
    const proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req, client, head) => {
      proxied++;
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host === 'localhost' ? '127.0.0.1' : host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      fake.script({ kind: 'text', text: 'via proxy' });
      const port = (proxy.address() as AddressInfo).port;
      const r = await e.zhi(['-c', 'hi'], {
        baseUrl: fake.baseUrl.replace('127.0.0.1', 'localhost'),
        env: { HTTP_PROXY: `http://127.0.0.1:${port}`, NO_PROXY: '' },
      });
      expect(r.stdout).toBe('via proxy\n');
      expect(proxied).toBe(1);
    } finally {
      proxy.close();
    }
  });
});
