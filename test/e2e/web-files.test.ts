/**
 * Files through `zhi serve`: uploads with hostile names and sizes, attachments read as `@file`
 * is, the output folder's list, download, preview and containment, set-up's live key check and
 * the connected folder — against the built zhi and the fake API.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_KEY } from '../fake-zhipu/server.js';
import { buildDocx, p } from '../helpers/docx-build.js';
import { useE2E } from '../helpers/e2e.js';
import { type Served, useServe } from '../helpers/web.js';
import { buildXlsx } from '../helpers/xlsx-build.js';
import { pollUntil } from '../helpers/zhi.js';

const e = useE2E();
const serve = useServe(e);

function upload(s: Served, name: string, body: string | Buffer = 'x'): Promise<Response> {
  return s.api('/api/uploads', { method: 'POST', headers: { 'X-File-Name': name }, body });
}

/** A request that declares `declared` bytes and sends `sent` of them; the status line it gets. */
function declaredUpload(s: Served, declared: number, sent: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(s.port, '127.0.0.1');
    let answer = '';
    sock.on('data', (d) => {
      answer += d;
    });
    sock.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    sock.on('error', () => resolve(answer.split('\r\n')[0] ?? ''));
    sock.write(
      `POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.secret}\r\nX-File-Name: big.bin\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 120);
    let left = sent;
    const pump = () => {
      while (left > 0 && !sock.destroyed) {
        left -= chunk.length;
        if (!sock.write(chunk)) return sock.once('drain', pump);
      }
    };
    pump();
    setTimeout(() => reject(new Error('no answer')), 8000).unref();
  });
}

describe('uploads', () => {
  it('land in zhi-uploads/ under their own name, numbered when taken, never overwriting', async () => {
    const s = await serve();
    const first = await upload(s, encodeURIComponent('报告 1.csv'), 'a,b\n');
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ name: '报告 1.csv', path: 'zhi-uploads/报告 1.csv', size: 4 });
    const second = await upload(s, encodeURIComponent('报告 1.csv'), 'c,d\n');
    expect(((await second.json()) as { name: string }).name).toBe('报告 1 (2).csv');
    expect(readFileSync(join(e.cwd, 'zhi-uploads', '报告 1.csv'), 'utf8')).toBe('a,b\n');
  });

  it('refuse path tricks, control characters and device names; nothing is written', async () => {
    const s = await serve();
    const names = [
      '../escape.txt',
      '..',
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      'a\\..\\b.txt',
      'a\u0000b.txt',
      'line\nbreak.txt',
      'CON',
      'nul.txt',
      'COM1.log',
      '.env',
      'trailing.txt.',
      'rtl\u202Etxt.exe',
      '',
      'x'.repeat(300),
    ];
    for (const name of names) {
      const r = await upload(s, encodeURIComponent(name));
      expect(r.status, JSON.stringify(name)).toBe(400);
    }
    const raw = await s.api('/api/uploads', {
      method: 'POST',
      headers: { 'X-File-Name': '%E0%A4%A' },
      body: 'x',
    });
    expect(raw.status).toBe(400);
    expect(readdirSync(e.cwd)).toEqual([]);
  });

  it('a 2 GB upload is refused at its Content-Length, not read into memory', async () => {
    const s = await serve();
    const status = await declaredUpload(s, 2 * 1024 ** 3, 4 * 1024 * 1024);
    expect(status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(readdirSync(join(e.cwd, 'zhi-uploads'))).toEqual([]);
    // The server is still there, and answers.
    expect((await s.api('/api/status')).status).toBe(200);
  });

  it('a body that grows past the cap without declaring its length is cut off, and nothing is left', async () => {
    const s = await serve(['serve'], { ZHI_UPLOAD_MAX_BYTES: String(1024 * 1024) });
    const chunks = (function* () {
      for (let i = 0; i < 48; i++) yield new Uint8Array(64 * 1024).fill(65);
    })();
    const body = new ReadableStream({
      pull(controller) {
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
    const init = { method: 'POST', headers: { 'X-File-Name': 'grow.bin' }, body, duplex: 'half' };
    const r = await s.api('/api/uploads', init as RequestInit).catch(() => undefined);
    // Either the 413 arrives, or the connection is closed while the body is still being sent.
    if (r) expect(r.status).toBe(413);
    await pollUntil(() => readdirSync(join(e.cwd, 'zhi-uploads')).length === 0);
    expect((await upload(s, 'small.txt', 'fits')).status).toBe(201);
    expect(readdirSync(join(e.cwd, 'zhi-uploads'))).toEqual(['small.txt']);
  });

  it("a message's attachments are read as @file is, the model gets them as data", async () => {
    e.fake.script({ kind: 'text', text: 'It says heron.' });
    const s = await serve();
    const up = (await (await upload(s, 'notes.md', '# Notes\nThe code word is heron.')).json()) as {
      id: string;
    };
    const { id } = (await (await s.api('/api/conversations', { method: 'POST' })).json()) as { id: string };
    const tab = s.events(`/api/conversations/${id}/events`);
    const sent = await s.api(`/api/conversations/${id}/messages`, {
      method: 'POST',
      body: JSON.stringify({ text: 'what is the word?', attachments: [up.id] }),
    });
    expect(sent.status).toBe(202);
    await tab.until((ev) => ev.event === 'run_end');
    expect(tab.events.find((ev) => ev.event === 'note')?.data).toEqual({
      text: 'Attached notes.md (text, 31 B)',
    });
    const user = e.fake.chatBodies()[0].messages.find((m: { role: string }) => m.role === 'user').content;
    expect(user).toMatch(/^what is the word\?\n\n<document name="notes\.md"/);
    expect(user).toMatch(/<untrusted-data[^>]*>[\s\S]*The code word is heron\./);
    const conv = (await (await s.api(`/api/conversations/${id}`)).json()) as { items: unknown[] };
    expect(conv.items[0]).toEqual({ role: 'user', text: 'what is the word?', attachments: ['notes.md'] });
    const unknown = await s.api(`/api/conversations/${id}/messages`, {
      method: 'POST',
      body: JSON.stringify({ text: 'again', attachments: ['nope'] }),
    });
    expect(unknown.status).toBe(400);
    tab.close();
  });
});

describe('outputs', () => {
  it('lists, downloads and previews files of the output folder, and nothing outside it', async () => {
    const out = join(e.cwd, 'zhi-output');
    mkdirSync(join(out, 'sub'), { recursive: true });
    writeFileSync(join(out, 't.csv'), 'name,amount\n"Zhang, San",12\n');
    writeFileSync(
      join(out, 'sub', 'a.xlsx'),
      await buildXlsx({
        sheets: [
          {
            name: '销售',
            rows: [
              ['产品', '数量'],
              ['<script>x</script>', 3],
            ],
          },
        ],
      }),
    );
    writeFileSync(join(out, 'b.docx'), await buildDocx({ body: p('Hello from Word') }));
    writeFileSync(join(e.cwd, 'secret.txt'), 'outside');
    symlinkSync(join(e.cwd, 'secret.txt'), join(out, 'link.txt'));
    const s = await serve();
    const listed = (await (await s.api('/api/outputs')).json()) as { path: string }[];
    expect(listed.map((f) => f.path).sort()).toEqual(['b.docx', 'sub/a.xlsx', 't.csv']);
    const csv = await (await s.api('/api/outputs/preview?path=t.csv')).json();
    expect(csv).toEqual({
      kind: 'table',
      sheets: [
        {
          name: '',
          rows: [
            ['name', 'amount'],
            ['Zhang, San', '12'],
          ],
        },
      ],
    });
    const xlsx = await (await s.api(`/api/outputs/preview?path=${encodeURIComponent('sub/a.xlsx')}`)).json();
    expect(xlsx).toEqual({
      kind: 'table',
      sheets: [
        {
          name: '销售',
          rows: [
            ['产品', '数量'],
            ['<script>x</script>', '3'],
          ],
        },
      ],
    });
    const docx = (await (await s.api('/api/outputs/preview?path=b.docx')).json()) as {
      kind: string;
      text: string;
    };
    expect(docx.kind).toBe('text');
    expect(docx.text).toMatch(/Hello from Word/);
    const file = await s.api('/api/outputs/file?path=t.csv');
    expect(file.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''t.csv");
    expect(await file.text()).toBe('name,amount\n"Zhang, San",12\n');
    for (const path of [
      '../secret.txt',
      'link.txt',
      join(e.cwd, 'secret.txt'),
      'sub/../../secret.txt',
      'none.md',
    ]) {
      const r = await s.api(`/api/outputs/file?path=${encodeURIComponent(path)}`);
      expect(r.status, path).toBe(404);
      expect(await r.text()).not.toContain('outside');
    }
  });
});

describe('set-up and settings', () => {
  it('checks the key live as the wizard does, stores it, and never echoes it', async () => {
    const s = await serve(['serve'], { ZHI_API_KEY: '' });
    const early = await s.api('/api/conversations', { method: 'POST' });
    expect(early.status).toBe(400);
    expect(await early.text()).toMatch(/no API key yet.*Do the set-up first/);
    const bad = await s.api('/api/setup', {
      method: 'POST',
      body: JSON.stringify({ apiKey: 'wrong.key-value-123' }),
    });
    expect(bad.status).toBe(400);
    const badBody = await bad.text();
    expect(badBody).toMatch(/The key did not work/);
    expect(badBody).not.toContain('wrong.key-value-123');
    const good = await s.api('/api/setup', {
      method: 'POST',
      body: JSON.stringify({ apiKey: TEST_KEY, language: 'zh', model: 'glm-4.7' }),
    });
    expect(good.status).toBe(200);
    expect(await good.text()).toBe('{"ok":true}');
    const config = readFileSync(join(e.home, 'config.yaml'), 'utf8');
    expect(config).toContain(TEST_KEY);
    expect(config).toMatch(/language: zh/);
    const status = await (await s.api('/api/status')).text();
    expect(status).not.toContain('TestSecret1');
    expect(JSON.parse(status)).toMatchObject({ configured: true, language: 'zh', model: 'glm-4.7' });
    expect((await s.api('/api/conversations', { method: 'POST' })).status).toBe(201);
  });

  it('the connected folder must exist; new chats then work there', async () => {
    const other = join(e.cwd, 'other');
    mkdirSync(other);
    const s = await serve();
    const missing = await s.api('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({ cwd: join(e.cwd, 'nope') }),
    });
    expect(missing.status).toBe(400);
    const moved = await s.api('/api/settings', { method: 'PUT', body: JSON.stringify({ cwd: other }) });
    expect(await moved.json()).toMatchObject({ cwd: other, outputDir: join(other, 'zhi-output') });
    expect(((await (await s.api('/api/status')).json()) as { cwd: string }).cwd).toBe(other);
    await upload(s, 'in-other.txt');
    expect(readdirSync(join(other, 'zhi-uploads'))).toEqual(['in-other.txt']);
  });
});
