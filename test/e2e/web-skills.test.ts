/**
 * Skills through `zhi serve`: the list, the dry-run estimate, a folder run with a failure and its
 * reason, a second run that resumes from the run record, usage from the ledger, the doctor's
 * checks — against the built zhi and the fake API.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, Reply } from '../fake-zhipu/server.js';
import { useE2E } from '../helpers/e2e.js';
import { markerOf } from '../helpers/requests.js';
import { type Served, useServe } from '../helpers/web.js';

const e = useE2E();
const serve = useServe(e);

/** Each file is summarised into `<id>-summary.md`, except f002, whose answer never writes it. */
function responder(req: RecordedRequest): Reply {
  const id = markerOf(req.body);
  if (id === 'f002') return { kind: 'text', text: 'I will not write it.' };
  const last = req.body.messages.at(-1);
  if (last.role === 'user')
    return {
      kind: 'tools',
      calls: [{ name: 'file_write', arguments: { path: `${id}-summary.md`, content: `Summary of ${id}` } }],
    };
  return { kind: 'text', text: `Summary of ${id}` };
}

beforeEach(() => {
  e.fake.fallback = responder;
  mkdirSync(join(e.cwd, 'docs'));
  for (const id of ['f001', 'f002', 'f003'])
    writeFileSync(join(e.cwd, 'docs', `${id}.txt`), `Document MARKER-${id}\n`);
});

async function runToEnd(s: Served, body: object): Promise<{ id: string; result: { stopReason: string } }> {
  const r = await s.api('/api/skills/summarize/runs', { method: 'POST', body: JSON.stringify(body) });
  expect(r.status).toBe(202);
  const { runId } = (await r.json()) as { runId: string };
  const tab = s.events(`/api/runs/${runId}/events`);
  const end = await tab.until((ev) => ev.event === 'run_end');
  tab.close();
  return { id: runId, result: (end.data as { result: { stopReason: string } }).result };
}

const firstCalls = () =>
  e.fake.requests
    .filter((r) => r.path.endsWith('/chat/completions') && r.body.messages.at(-1).role === 'user')
    .map((r) => markerOf(r.body));

describe('skills through the API', () => {
  it('lists skills, estimates a folder run, runs it with a failure, then resumes only what failed', async () => {
    const s = await serve(['serve', '--auto']);
    const skills = (await (await s.api('/api/skills')).json()) as { name: string; description: string }[];
    expect(skills.find((k) => k.name === 'summarize')?.description).toBeTruthy();
    const est = (await (
      await s.api('/api/skills/summarize/estimate', {
        method: 'POST',
        body: JSON.stringify({ inputs: ['docs/'] }),
      })
    ).json()) as {
      lines: string[];
      files: number;
      tokens: number;
      currency: string;
      price: number;
      batchPrice: number;
    };
    expect(est.lines[0]).toMatch(/^Would process 3 of 3 files with summarize/);
    expect(est).toMatchObject({ files: 3, currency: 'CNY' });
    expect(est.tokens).toBeGreaterThan(0);
    expect(est.batchPrice).toBeLessThanOrEqual(est.price);
    expect(est.lines.join('\n')).toMatch(/with --batch/);
    expect(e.fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);

    const first = await runToEnd(s, { inputs: ['docs/'] });
    expect(first.result.stopReason).toBe('error');
    const runs = (await (await s.api('/api/runs')).json()) as {
      kind: string;
      state?: string;
      done?: number;
      failed?: { file: string; error: string }[];
    }[];
    expect(runs.find((r) => r.kind === 'live')?.state).toBe('failed');
    const record = runs.find((r) => r.kind === 'record')!;
    expect(record.done).toBe(2);
    expect(record.failed).toEqual([{ file: 'f002.txt', error: expect.stringMatching(/not written/) }]);

    e.fake.requests.length = 0;
    e.fake.fallback = (req) => {
      const last = req.body.messages.at(-1);
      const id = markerOf(req.body);
      if (last.role === 'user')
        return {
          kind: 'tools',
          calls: [{ name: 'file_write', arguments: { path: `${id}-summary.md`, content: 'ok' } }],
        };
      return { kind: 'text', text: 'ok' };
    };
    const second = await runToEnd(s, { inputs: ['docs/'] });
    expect(second.result.stopReason).toBe('answer');
    expect(firstCalls()).toEqual(['f002']);
    const usage = (await (await s.api('/api/usage?days=2')).json()) as {
      days: { bySkill: Record<string, number> }[];
    };
    expect(Object.keys(usage.days.at(-1)!.bySkill)).toContain('summarize');
    // The runs are the runs page's: the conversation list holds conversations only.
    const conversations = (await (await s.api('/api/conversations')).json()) as { kind: string }[];
    expect(conversations.filter((c) => c.kind === 'run')).toEqual([]);
  });

  it('a run that does not exist is 404; an unknown skill is 404 with advice; no inputs is 400', async () => {
    const s = await serve();
    expect((await s.api('/api/runs/nope')).status).toBe(404);
    const unknown = await s.api('/api/skills/nope/runs', {
      method: 'POST',
      body: JSON.stringify({ inputs: ['docs/'] }),
    });
    expect(unknown.status).toBe(404);
    const none = await s.api('/api/skills/summarize/runs', { method: 'POST', body: '{}' });
    expect(none.status).toBe(400);
    const doctor = (await (await s.api('/api/doctor')).json()) as { level: string; text: string }[];
    expect(doctor.some((c) => /^Config:/.test(c.text))).toBe(true);
  });
});
