// Skill runs and batch jobs: this server's runs, the folder's run records (from any zhi, the
// terminal's too) and the Batch API jobs, each with its state; a run opens on its own page.
import { useEffect, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { num, t, when } from './i18n.js';
import type { BatchJob, RunRecord } from './types.js';
import { Empty, ErrorBox, Loading } from './ui.js';

export function RunsView() {
  const [runs, setRuns] = useState<RunRecord[]>();
  const [jobs, setJobs] = useState<BatchJob[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const load = () => api.get<RunRecord[]>('/api/runs').then(setRuns, setError);
    void load();
    // The Batch API jobs are asked once: each look is a request to the platform.
    api.get<BatchJob[]>('/api/batch').then(setJobs, () => setJobs([]));
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.runs.title')}</h1>
        <a class="button" href="#/skills">
          {t('page.skills.all')}
        </a>
      </header>
      <ErrorBox error={error} />
      {!runs && !error && <Loading />}
      {runs?.length === 0 && <Empty>{t('page.runs.none')}</Empty>}
      {runs && runs.length > 0 && <RunTable runs={runs} />}
      {jobs && jobs.length > 0 && <JobTable jobs={jobs} />}
    </section>
  );
}

export function runState(r: RunRecord): string {
  if (r.kind === 'live') return t(`page.runs.state.${r.state}`);
  if (r.batch) return r.batch.text;
  return r.failed.length
    ? t('page.runs.recordFailed', { done: num(r.done), failed: num(r.failed.length) })
    : t('page.runs.recordDone', { done: num(r.done) });
}

function RunTable({ runs }: { runs: RunRecord[] }) {
  return (
    <table class="table">
      <thead>
        <tr>
          <th>{t('page.runs.skill')}</th>
          <th>{t('page.runs.on')}</th>
          <th>{t('page.runs.state')}</th>
          <th>{t('page.runs.when')}</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={`#/runs/${enc(r.id)}`}>{r.skill}</a>
              {(r.kind === 'live' ? r.batch : r.batch !== undefined) && (
                <span class="tag">{t('page.runs.batch')}</span>
              )}
            </td>
            <td class="path">{r.kind === 'live' ? r.inputs.join(', ') : r.folder}</td>
            <td>{runState(r)}</td>
            <td>{when(r.kind === 'record' ? (r.updatedAt ?? r.startedAt) : r.startedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function JobTable({ jobs }: { jobs: BatchJob[] }) {
  return (
    <>
      <h2>{t('page.runs.jobs')}</h2>
      <table class="table">
        <thead>
          <tr>
            <th>{t('page.runs.job')}</th>
            <th>{t('page.runs.skill')}</th>
            <th>{t('page.runs.state')}</th>
            <th>{t('page.runs.when')}</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.id}>
              <td class="path">{j.id}</td>
              <td>{j.skill ?? ''}</td>
              <td>
                {j.text}
                {j.counts && ` (${num(j.counts.completed)}/${num(j.counts.total)})`}
              </td>
              <td>{j.createdAt ? when(j.createdAt) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
