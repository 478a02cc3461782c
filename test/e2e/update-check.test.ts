/**
 * The update notifier with a local fake npm registry (nothing reaches the network): a start in a
 * terminal asks the registry in the background, at most once a day; the next start says the newer
 * version and how to update; `update_check: false` and a start with no terminal ask nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { KEY, type PtySession, promptFor } from '../helpers/pty.js';
import { pollUntil } from '../helpers/zhi.js';

const e = useE2E();
let server: Server;
let registry = '';
let asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ latest: '99.0.0', next: '100.0.0-rc.1' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  asked = [];
});

const env = (more: Record<string, string> = {}) => ({
  ZHI_UPDATE_CHECK: undefined,
  ZHI_UPDATE_REGISTRY: registry,
  ...more,
});
const stateFile = () => join(e.home, 'update-check.json');

async function start(
  lang: 'en' | 'zh' = 'en',
  extra: Record<string, string> = {},
  before?: (s: PtySession) => Promise<void>,
): Promise<string> {
  const s = e.pty({ env: env({ ZHI_LANGUAGE: lang, ...extra }) });
  await s.waitFor(promptFor(lang), 10_000);
  await before?.(s);
  const shown = s.text();
  s.write(KEY.ctrlD);
  await s.exited();
  return shown;
}

describe('update notifier', () => {
  it('asks once in the background once a key is typed, says the newer version at the next start, once a day', async () => {
    // An idle prompt asks nothing: a REPL left without a key pressed sends no request.
    await start('en', {}, () => new Promise((r) => setTimeout(r, 500)));
    expect(asked).toEqual([]);
    const first = await start('en', {}, async (s) => {
      s.write('h');
      await pollUntil(() => existsSync(stateFile()) && readFileSync(stateFile(), 'utf8').includes('99.0.0'));
      s.write('\x7f'); // an empty line again, so Ctrl+D ends the REPL
    });
    expect(first).not.toContain('99.0.0');
    expect(asked).toEqual(['/-/package/zhi/dist-tags']);

    const second = await start();
    expect(second).toContain('zhi 99.0.0 is out (you have 0.1.0).');
    expect(second).toContain('update_check false');
    const third = await start();
    expect(third).not.toContain('99.0.0');
    expect(asked).toHaveLength(1);
  });

  it('in Chinese, from what an earlier start found', async () => {
    writeFileSync(stateFile(), JSON.stringify({ checkedAt: Date.now(), latest: '99.0.0' }));
    expect(await start('zh')).toContain('zhi 99.0.0 已发布（你的版本是 0.1.0）');
    expect(asked).toEqual([]);
  });

  it('asks nothing with update_check: false, in CI, or with no terminal', async () => {
    writeFileSync(join(e.home, 'config.yaml'), 'update_check: false\n');
    await start();
    writeFileSync(join(e.home, 'config.yaml'), 'language: en\n');
    await start('en', { CI: 'true' });
    await e.zhi(['config', 'show'], { env: env() });
    await new Promise((r) => setTimeout(r, 300));
    expect(asked).toEqual([]);
    expect(existsSync(stateFile())).toBe(false);
  });
});
