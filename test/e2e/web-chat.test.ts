/**
 * A chat through `zhi serve`'s API, end to end against the fake API: approvals answered from the
 * API (refused, allowed — never by default), two listeners on one stream, a listener that leaves,
 * one run at a time, model text as plain JSON text, and the session going on in the terminal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { type Served, type SseEvent, useServe } from '../helpers/web.js';

const e = useE2E();
const serve = useServe(e);

const isEnd = (ev: SseEvent) => ev.event === 'run_end';
const isApproval = (ev: SseEvent) => ev.event === 'approval';

async function newChat(s: Served): Promise<string> {
  return (await s.json<{ id: string }>('/api/conversations', { method: 'POST' })).id;
}

function send(s: Served, id: string, text: string): Promise<Response> {
  return s.api(`/api/conversations/${id}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ text }),
  });
}

function answer(s: Served, approval: SseEvent, body: object): Promise<Response> {
  const { id } = approval.data as { id: string };
  return s.api(`/api/approvals/${id}`, { method: 'POST', body: JSON.stringify(body) });
}

const writeCall = (path: string) => ({
  kind: 'tools' as const,
  calls: [{ name: 'file_write', arguments: { path, content: '# hello\n' } }],
});

describe('a chat through the API', () => {
  it('an approval waits for a person: refused once, allowed once, worded as in the terminal', async () => {
    e.fake.script(writeCall('no.md'), { kind: 'text', text: 'Not written.' });
    e.fake.script(writeCall('yes.md'), { kind: 'text', text: 'Written.' });
    const s = await serve();
    const id = await newChat(s);
    const tab = s.events(`/api/conversations/${id}/events`);
    expect((await send(s, id, 'write no.md')).status).toBe(202);
    const first = await tab.until(isApproval);
    const data = first.data as { kind: string; title: string; lines: string[]; canAlways: boolean };
    expect(data.kind).toBe('tool');
    expect(data.title).toMatch(/file_write/);
    expect(data.lines.join('\n')).toMatch(/no\.md/);
    // Nothing answers it meanwhile: the run waits (no default, no timeout).
    await new Promise((r) => setTimeout(r, 300));
    expect(tab.events.some(isEnd)).toBe(false);
    expect((await answer(s, first, { answer: 'no' })).status).toBe(200);
    expect((await answer(s, first, { answer: 'yes' })).status).toBe(404);
    await tab.until(isEnd);
    expect(tab.events.some((ev) => ev.event === 'approval_done')).toBe(true);
    expect(existsSync(join(e.cwd, 'zhi-output', 'no.md'))).toBe(false);

    const before = tab.events.length;
    expect((await send(s, id, 'write yes.md')).status).toBe(202);
    const second = await tab.until((ev) => isApproval(ev) && ev.id !== first.id);
    expect((await answer(s, second, { answer: 'yes' })).status).toBe(200);
    await tab.until((ev) => isEnd(ev) && tab.events.indexOf(ev) >= before);
    expect(readFileSync(join(e.cwd, 'zhi-output', 'yes.md'), 'utf8')).toBe('# hello\n');
    tab.close();
  });

  it('two listeners get the same events; one that leaves does not stop the run; one run at a time', async () => {
    e.fake.script({
      kind: 'text',
      text: 'Hello <script>alert(1)</script> there, in many small pieces.',
      chunk: 4,
      delayMs: 30,
    });
    const s = await serve();
    const id = await newChat(s);
    const a = s.events(`/api/conversations/${id}/events`);
    const b = s.events(`/api/conversations/${id}/events`);
    const leaving = s.events(`/api/conversations/${id}/events`);
    expect((await send(s, id, 'hi')).status).toBe(202);
    await leaving.until((ev) => ev.event === 'run');
    leaving.close();
    expect((await send(s, id, 'again')).status).toBe(409);
    const endA = await a.until(isEnd);
    await b.until(isEnd);
    expect(a.events.map((ev) => ev.id)).toEqual(b.events.map((ev) => ev.id));
    expect(a.events).toEqual(b.events);
    const result = (endA.data as { result: { stopReason: string; text: string } }).result;
    expect(result.stopReason).toBe('answer');
    // Model text arrives as JSON text, the <script> as characters.
    expect(result.text).toBe('Hello <script>alert(1)</script> there, in many small pieces.');
    // A tab opened late draws the run from its start.
    const late = s.events(`/api/conversations/${id}/events`);
    await late.until(isEnd);
    expect(late.events.map((ev) => ev.id)).toEqual(a.events.map((ev) => ev.id));
    for (const l of [a, b, late]) l.close();
  });

  it('a chat made through the API goes on in the terminal with --resume, and back', async () => {
    e.fake.script({ kind: 'text', text: 'First answer.' });
    const s = await serve();
    const id = await newChat(s);
    const tab = s.events(`/api/conversations/${id}/events`);
    await send(s, id, 'remember the word heron');
    await tab.until(isEnd);
    tab.close();
    e.fake.script({ kind: 'text', text: 'From the terminal.' });
    const r = await e.zhi(['--resume', id, '-c', 'what was the word?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('From the terminal.\n');
    const sent = e.fake
      .chatBodies()
      .at(-1)
      .messages.map((m: { content: string }) => m.content);
    expect(sent).toContain('remember the word heron');
    expect(sent).toContain('First answer.');
    // The page sees the terminal's turn, and its next message carries it.
    const conv = await s.json<{ items: { role: string; text: string }[] }>(`/api/conversations/${id}`);
    expect(conv.items.map((i) => i.text)).toContain('From the terminal.');
    e.fake.script({ kind: 'text', text: 'Back in the page.' });
    const again = s.events(`/api/conversations/${id}/events`);
    const { runId } = (await (await send(s, id, 'and now?')).json()) as { runId: string };
    // The stream replays the last run first: this run's end is the one with its id.
    await again.until((ev) => isEnd(ev) && (ev.data as { runId: string }).runId === runId);
    const last = e.fake
      .chatBodies()
      .at(-1)
      .messages.map((m: { content: string }) => m.content);
    expect(last).toContain('From the terminal.');
    const list = await s.json<{ id: string }[]>('/api/conversations');
    expect(list.map((c) => c.id)).toContain(id);
    again.close();
  });

  it('a stop withdraws a waiting approval (a no) and ends the run; a running chat cannot be deleted', async () => {
    e.fake.script(writeCall('stopped.md'), { kind: 'text', text: 'Stopped.' });
    const s = await serve();
    const id = await newChat(s);
    const tab = s.events(`/api/conversations/${id}/events`);
    await send(s, id, 'write stopped.md');
    const asked = await tab.until(isApproval);
    expect((await s.api(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(409);
    expect(await (await s.api(`/api/conversations/${id}/stop`, { method: 'POST' })).json()).toEqual({
      ok: true,
    });
    const done = await tab.until((ev) => ev.event === 'approval_done');
    expect(done.data).toEqual({ id: (asked.data as { id: string }).id, answer: 'withdrawn' });
    const end = await tab.until(isEnd);
    expect((end.data as { result: { stopReason: string } }).result.stopReason).toBe('aborted');
    expect(existsSync(join(e.cwd, 'zhi-output', 'stopped.md'))).toBe(false);
    expect((await answer(s, asked, { answer: 'yes' })).status).toBe(404);
    expect(await (await s.api(`/api/conversations/${id}/stop`, { method: 'POST' })).json()).toEqual({
      ok: false,
    });
    tab.close();
  });

  it('sessions: search, export as Markdown, delete; a reconnecting tab gets only what it missed', async () => {
    e.fake.script({ kind: 'text', text: 'Herons nest in colonies.' });
    const s = await serve();
    const id = await newChat(s);
    const tab = s.events(`/api/conversations/${id}/events`);
    await send(s, id, 'tell me about herons');
    await tab.until(isEnd);
    const third = tab.events[2]!;
    const again = s.events(`/api/conversations/${id}/events`, { 'Last-Event-ID': third.id });
    const end = await again.until(isEnd);
    expect(again.events[0]!.id).toBe(String(Number(third.id) + 1));
    expect(again.events.at(-1)).toEqual(end);
    expect(again.events.length).toBe(tab.events.length - 3);
    tab.close();
    again.close();
    const found = (await (await s.api('/api/conversations?q=herons')).json()) as { id: string }[];
    expect(found.map((c) => c.id)).toEqual([id]);
    expect(await (await s.api('/api/conversations?q=zebras')).json()).toEqual([]);
    const md = await s.api(`/api/conversations/${id}/export`);
    expect(md.headers.get('content-disposition')).toBe(`attachment; filename="zhi-${id}.md"`);
    expect(await md.text()).toMatch(/Herons nest in colonies\./);
    expect((await s.api(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await s.api(`/api/conversations/${id}`)).status).toBe(404);
    expect(await (await s.api('/api/conversations')).json()).toEqual([]);
  });
});
