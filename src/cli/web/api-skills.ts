/**
 * Skills on the page: the list, the dry-run estimate, runs with live events, stop, the folder
 * runs' records (the output folder's `.zhi-runs/`) and the Batch API jobs with their state.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifest } from '../../agent/folder/manifest.js';
import { BatchApi, batchStatusText, jobCounts } from '../../llm/batch.js';
import { makeClient } from '../client.js';
import { httpError, needKey, readJson } from './http.js';
import type { Router } from './router.js';
import { runSummary, type SkillRunOrder } from './skill-runs.js';
import type { WebState } from './state.js';

function order(body: Record<string, unknown>): SkillRunOrder {
  const inputs = Array.isArray(body.inputs)
    ? body.inputs.filter((i): i is string => typeof i === 'string')
    : [];
  return { inputs, batch: body.batch === true, force: body.force === true };
}

/** The run records of folder runs in the output folder: what each file came to, and any batch job. */
async function records(outputDir: string) {
  const dir = join(outputDir, '.zhi-runs');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  const out = [];
  for (const name of names) {
    const m = await readManifest(join(dir, name));
    if (!m) continue;
    const files = Object.entries(m.files);
    out.push({
      id: `record:${name.slice(0, -'.json'.length)}`,
      kind: 'record' as const,
      skill: m.skill,
      folder: m.folder,
      model: m.model,
      startedAt: m.createdAt,
      updatedAt: m.updatedAt,
      done: files.filter(([, f]) => f.status === 'done').length,
      failed: files
        .filter(([, f]) => f.status === 'failed')
        .map(([file, f]) => ({ file, error: f.error ?? '' })),
      ...(m.batch
        ? { batch: { id: m.batch.id, status: m.batch.status, text: batchStatusText(m.batch.status) } }
        : {}),
    });
  }
  return out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
}

export function skillRoutes(router: Router, state: WebState): void {
  const runs = () => state.skillRuns;
  router.add('GET', '/api/skills', async () => [200, await runs().list()]);
  router.add('POST', '/api/skills/:name/estimate', async ({ params, req }) => [
    200,
    await runs().estimate(params.name!, order(await readJson(req))),
  ]);
  router.add('POST', '/api/skills/:name/runs', async ({ params, req }) => {
    const run = await runs().start(params.name!, order(await readJson(req)));
    return [202, { runId: run.id }];
  });
  router.add('GET', '/api/runs', async () => [
    200,
    [...runs().all().map(runSummary), ...(await records(state.ctx.outputDir))],
  ]);
  router.add('GET', '/api/runs/:id', async ({ params }) => {
    const id = params.id!;
    if (id.startsWith('record:')) {
      const found = (await records(state.ctx.outputDir)).find((r) => r.id === id);
      if (!found) throw httpError(404, { what: { key: 'web.err.noRun', params: { id } } });
      return [200, found];
    }
    return [200, runSummary(runs().get(id))];
  });
  router.add('GET', '/api/runs/:id/events', ({ params, req, res }) => {
    runs().attach(params.id!, req, res);
    return undefined;
  });
  router.add('POST', '/api/runs/:id/stop', ({ params }) => [200, { ok: runs().stop(params.id!) }]);
  router.add('GET', '/api/batch', async () => {
    needKey(state.ctx.config);
    const api = new BatchApi(makeClient(state.ctx).http, state.ctx.platform);
    const jobs = await api.list();
    return [
      200,
      jobs.map((job) => ({
        id: job.id,
        status: job.status,
        text: batchStatusText(job.status),
        counts: jobCounts(job),
        skill: job.metadata?.zhi_skill ?? '',
        createdAt: job.created_at ? new Date(job.created_at * 1000).toISOString() : '',
      })),
    ];
  });
}
