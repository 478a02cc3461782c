/**
 * The built `zhi serve` for end-to-end tests: started in the test's home and folder against the
 * fake API, its first stdout line read for the address and secret, and stopped (SIGTERM, then
 * waited for) when the test ends. `api()` talks to it as a script does (Bearer); `events()`
 * listens to a stream and collects its events.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterEach } from 'vitest';
import type { E2E } from './e2e.js';
import { testEnv, ZHI_BIN } from './zhi.js';

export interface Served {
  port: number;
  secret: string;
  url: string;
  base: string;
  stderr: () => string;
  /** A request with the Bearer secret (headers can add to it or replace it). */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** JSON of a Bearer request. */
  json<T = unknown>(path: string, init?: RequestInit): Promise<T>;
  events(path: string, headers?: Record<string, string>): EventListener;
}

export interface SseEvent {
  id: string;
  event: string;
  data: unknown;
}

export interface EventListener {
  readonly events: SseEvent[];
  /** Resolves once an event matches (checked as events arrive). */
  until(match: (e: SseEvent) => boolean): Promise<SseEvent>;
  close(): void;
}

export function useServe(e: E2E): (args?: string[], env?: Record<string, string>) => Promise<Served> {
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) {
      if (child.exitCode !== null) continue;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
  });
  return async (args = ['serve'], env = {}) => {
    const child = spawn(process.execPath, [ZHI_BIN, ...args], {
      cwd: e.cwd,
      env: testEnv({ baseUrl: e.fake.baseUrl, home: e.home, env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(out.slice(0, nl));
      });
      child.once('exit', (code) => reject(new Error(`zhi serve exited ${code}: ${err}`)));
    });
    const parsed = new URL(url);
    const secret = parsed.searchParams.get('token')!;
    const base = `http://127.0.0.1:${parsed.port}`;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${secret}`, ...(init.headers as Record<string, string>) },
      });
    return {
      port: Number(parsed.port),
      secret,
      url,
      base,
      stderr: () => err,
      api,
      json: async <T>(path: string, init?: RequestInit) => (await (await api(path, init)).json()) as T,
      events: (path, headers = {}) =>
        listen(`${base}${path}`, { Authorization: `Bearer ${secret}`, ...headers }),
    };
  };
}

/** A raw request (node:http, so Host and Content-Length can be anything). */
export function rawRequest(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: Buffer | string; keepOpen?: boolean },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    if (!o.keepOpen) req.end();
  });
}

function listen(url: string, headers: Record<string, string>): EventListener {
  const events: SseEvent[] = [];
  const waiting: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  const req = request(url, { headers }, (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buf += chunk;
      for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const ev = parse(block);
        if (!ev) continue;
        events.push(ev);
        for (const w of [...waiting]) {
          if (w.match(ev)) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(ev);
          }
        }
      }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return {
    events,
    until: (match) =>
      new Promise((resolve) => {
        const seen = events.find(match);
        if (seen) resolve(seen);
        else waiting.push({ match, resolve });
      }),
    close: () => req.destroy(),
  };
}

function parse(block: string): SseEvent | undefined {
  let id = '';
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  if (!data) return undefined;
  return { id, event, data: JSON.parse(data) };
}
