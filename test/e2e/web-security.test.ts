/**
 * `zhi serve` attacked from the same computer: no secret, a foreign Host (DNS rebinding), another
 * site's fetch and form, and what its answers must never carry (the token after the first
 * answer, the API key) — against the built zhi and the fake API.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { rawRequest, useServe } from '../helpers/web.js';
import { pollUntil } from '../helpers/zhi.js';

const e = useE2E();
const serve = useServe(e);

describe('zhi serve lets nobody else in', () => {
  it('prints its address with the secret first, and answers only with the secret', async () => {
    const s = await serve();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    const none = await fetch(`${s.base}/api/status`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /address zhi printed/,
    );
    const wrong = await fetch(`${s.base}/api/status`, { headers: { Authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const page = await fetch(`${s.base}/`);
    expect(page.status).toBe(401);
    expect(await page.text()).toMatch(/zhi 启动时打印的地址/);
    const ok = await s.api('/api/status');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { configured: boolean }).configured).toBe(true);
  });

  it('the address sets an HttpOnly SameSite cookie and sends the token out of the address bar', async () => {
    const s = await serve();
    const r = await fetch(s.url, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/');
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toBe(`zhi_${s.port}=${s.secret}; HttpOnly; SameSite=Strict; Path=/`);
    const withCookie = await fetch(`${s.base}/api/status`, { headers: { Cookie: cookie.split(';')[0]! } });
    expect(withCookie.status).toBe(200);
    // Opened from a file or another site: the page moves itself on (a redirect would lose the cookie).
    const fromFile = await rawRequest(s.url, {
      headers: { Host: `127.0.0.1:${s.port}`, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' },
    });
    expect(fromFile.status).toBe(200);
    expect(fromFile.headers['set-cookie']).toEqual([cookie]);
    expect(fromFile.body).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect(fromFile.body).not.toContain('<script');
    // Later answers never carry the token or the key.
    for (const path of ['/', '/api/status', '/api/conversations', '/openapi.json', '/api/strings']) {
      const body = await (
        await fetch(`${s.base}${path}`, { headers: { Cookie: cookie.split(';')[0]! } })
      ).text();
      expect(body).not.toContain(s.secret);
      expect(body).not.toContain(TEST_KEY);
      expect(body).not.toContain('TestSecret1');
    }
  });

  it('refuses a foreign Host with 421 (DNS rebinding), even with the secret', async () => {
    const s = await serve();
    for (const host of ['evil.example', `evil.example:${s.port}`, `127.0.0.1:${s.port + 1}`, '127.0.0.1']) {
      const r = await rawRequest(`${s.base}/api/status`, {
        headers: { Host: host, Authorization: `Bearer ${s.secret}` },
      });
      expect(r.status, host).toBe(421);
    }
    const own = await rawRequest(`${s.base}/api/status`, {
      headers: { Host: `localhost:${s.port}`, Authorization: `Bearer ${s.secret}` },
    });
    expect(own.status).toBe(200);
  });

  it("refuses another site's fetch and a cross-site form post with 403", async () => {
    const s = await serve();
    const cookie = `zhi_${s.port}=${s.secret}`;
    const foreign = await rawRequest(`${s.base}/api/conversations`, {
      method: 'POST',
      headers: { Host: `127.0.0.1:${s.port}`, Cookie: cookie, Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // A form post from another site: the browser sends the cookie only cross-site without
    // SameSite; even so, no Origin of its own (or `null`) is refused.
    const form = await rawRequest(`${s.base}/api/conversations`, {
      method: 'POST',
      headers: {
        Host: `127.0.0.1:${s.port}`,
        Cookie: cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'null',
      },
      body: 'text=hi',
    });
    expect(form.status).toBe(403);
    const noOrigin = await rawRequest(`${s.base}/api/conversations`, {
      method: 'POST',
      headers: { Host: `127.0.0.1:${s.port}`, Cookie: cookie },
    });
    expect(noOrigin.status).toBe(403);
    const crossSite = await rawRequest(`${s.base}/api/status`, {
      headers: { Host: `127.0.0.1:${s.port}`, Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    // The page itself (its own Origin) may.
    const own = await rawRequest(`${s.base}/api/conversations`, {
      method: 'POST',
      headers: { Host: `127.0.0.1:${s.port}`, Cookie: cookie, Origin: `http://127.0.0.1:${s.port}` },
    });
    expect(own.status).toBe(201);
  });

  it('every answer carries the CSP and the other security headers, and no CORS header', async () => {
    const s = await serve();
    for (const r of [await s.api('/api/status'), await fetch(`${s.base}/api/status`), await s.api('/')]) {
      expect(r.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self';/);
      expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect([...r.headers.keys()].some((k) => k.startsWith('access-control-'))).toBe(false);
    }
  });

  it('publishes its OpenAPI document and refuses any other interface', async () => {
    const s = await serve();
    const doc = await s.json<{ openapi: string; paths: Record<string, unknown> }>('/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/conversations/{id}/events');
    for (const args of [
      ['serve', '--bogus'],
      ['serve', '--no-open'],
      ['web', '--port', 'x', '--no-open'],
    ]) {
      const bad = await e.zhi(args);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stdout).toBe('');
    }
    const r = await e.zhi(['serve', '--host', '0.0.0.0']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/this computer only \(127\.0\.0\.1\), not on 0\.0\.0\.0/);
  });
});

describe('the CLI without the server', () => {
  it('a start loads no server code: it is reached from app.ts only by a dynamic import', () => {
    const dist = join(import.meta.dirname, '../../dist');
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm))
        walk(join(dirname(file), (m[1] ?? m[2])!));
    };
    const entry = join(dist, 'zhi.js');
    const app = /import\("(\.\/chunks\/app-[^"]+)"\)/.exec(readFileSync(entry, 'utf8'))![1]!;
    walk(entry);
    walk(join(dist, app));
    expect(seen.size).toBeGreaterThan(3);
    for (const file of seen)
      expect(readFileSync(file, 'utf8'), file).not.toContain('Content-Security-Policy');
  });

  it('zhi web --no-open prints the address first and opens nothing', async () => {
    const s = await serve(['web', '--no-open', '--port', '0']);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    await pollUntil(() => /Press Ctrl\+C to stop it/.test(s.stderr()));
    expect((await s.api('/api/status')).status).toBe(200);
    expect(s.stderr()).not.toMatch(/opened|could not open/);
  });
});

describe('zhi web opens the browser without putting the secret on a command line', () => {
  it.runIf(process.platform === 'linux')(
    'hands xdg-open a private file that leads to the address',
    async () => {
      const bin = join(e.cwd, 'bin');
      const said = join(e.cwd, 'xdg-open-args.txt');
      mkdirSync(bin);
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > '${said}'\n`, { mode: 0o755 });
      const s = await serve(['web'], { PATH: `${bin}:${process.env.PATH}` });
      await pollUntil(() => existsSync(said) && readFileSync(said, 'utf8').includes('\n'));
      const arg = readFileSync(said, 'utf8').trim();
      expect(arg).not.toContain(s.secret);
      expect(arg.startsWith(e.home)).toBe(true);
      expect(statSync(arg).mode & 0o077).toBe(0);
      expect(readFileSync(arg, 'utf8')).toContain(`url=${s.url}`);
    },
  );
});
