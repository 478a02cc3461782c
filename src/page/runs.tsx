// Skill runs and batch jobs: the list (the run records), and one run live: per-file progress, the
// end summary, failures with their reasons, Stop, and Resume after a stop or failures.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { money, num, t, when } from './i18n.js';
import { ItemView } from './items.js';
import { RunProgress } from './run-progress.js';
import { openStream } from './stream.js';
import type { RunRecord } from './types.js';
import { Empty, ErrorBox, frameThrottle, Loading } from './ui.js';

export function RunsView({ navigate }: { navigate(p: string): void }) {
  const [runs, setRuns] = useState<RunRecord[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const load = () => api.get<RunRecord[]>('/api/runs').then(setRuns, setError);
    void load();
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.runs.title')}</h1>
      </header>
      <ErrorBox error={error} />
      {!runs && !error && <Loading />}
      {runs?.length === 0 && <Empty>{t('page.runs.none')}</Empty>}
      {runs && runs.length > 0 && (
        <table class="table">
          <thead>
            <tr>
              <th>{t('page.runs.skill')}</th>
              <th>{t('page.runs.state')}</th>
              <th>{t('page.runs.progress')}</th>
              <th>{t('page.runs.when')}</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td>
                  <a
                    href={`#/runs/${enc(r.id)}`}
                    onClick={(e) => {
                      e.preventDefault();
                      navigate(`/runs/${r.id}`);
                    }}
                  >
                    {r.skill ?? r.id}
                  </a>
                  {r.batch && <span class="tag">{t('page.runs.batch')}</span>}
                </td>
                <td>{r.state ?? r.status ?? ''}</td>
                <td>{r.counts ? `${num(r.counts.done + r.counts.earlier)}/${num(r.counts.total)}` : ''}</td>
                <td>{r.updatedAt || r.startedAt ? when(r.updatedAt ?? r.startedAt ?? '') : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const FINISHED = /^(done|finished|ended|completed|failed|stopped|interrupted|cancell?ed)$/i;

export function RunView({ id, navigate }: { id: string; navigate(p: string): void }) {
  const progress = useMemo(() => new RunProgress(), [id]);
  const [record, setRecord] = useState<RunRecord>();
  const [, setTick] = useState(0);
  const redraw = useMemo(() => frameThrottle(() => setTick((n) => n + 1)), []);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api.get<RunRecord>(`/api/runs/${enc(id)}`).then(setRecord, setError);
    return openStream(`/api/runs/${enc(id)}/events`, {
      event: (ev) => {
        progress.apply(ev);
        redraw();
      },
      runStart: () => {
        progress.reset();
        redraw();
      },
      runEnd: () => {
        progress.running = false;
        redraw();
        api.get<RunRecord>(`/api/runs/${enc(id)}`).then(setRecord, () => {});
      },
    });
  }, [id]);
  const stop = () => api.post(`/api/runs/${enc(id)}/stop`).catch(setError);
  const resume = async () => {
    if (!record?.skill) return;
    try {
      const { runId } = await api.post<{ runId: string }>(`/api/skills/${enc(record.skill)}/runs`, {
        inputs: record.inputs ?? [],
        resume: true,
        ...(record.batch ? { batch: true } : {}),
      });
      navigate(`/runs/${runId}`);
    } catch (e) {
      setError(e);
    }
  };
  const end = progress.end;
  const running = progress.running || (!!record?.state && !FINISHED.test(record.state) && !end);
  const canResume =
    !running && !!record?.skill && (end ? end.counts.failed + end.notStarted + end.interrupted > 0 : true);
  return (
    <section class="view">
      <header class="view-head">
        <h1>{record?.skill ?? t('page.runs.run')}</h1>
        <div class="row">
          {running && (
            <button type="button" class="stop" onClick={stop}>
              {t('page.chat.stop')}
            </button>
          )}
          {canResume && (
            <button type="button" class="primary" onClick={resume}>
              {t('page.runs.resume')}
            </button>
          )}
        </div>
      </header>
      <ErrorBox error={error} />
      <Summary progress={progress} record={record} />
      {progress.isFolder ? <FileTable progress={progress} /> : <RunThread progress={progress} />}
      {end && <EndSummary end={end} />}
    </section>
  );
}

function Summary({ progress, record }: { progress: RunProgress; record: RunRecord | undefined }) {
  const c = progress.counts ?? record?.counts;
  const b = progress.batch;
  return (
    <div class="run-summary" aria-live="polite">
      {c && (
        <>
          <progress max={c.total || 1} value={c.done + c.failed + c.earlier} />
          <p>
            {t('page.runs.counts', {
              done: num(c.done + c.earlier),
              failed: num(c.failed),
              total: num(c.total),
            })}
            {progress.spent > 0 && ` · ${money(progress.spent, progress.currency)}`}
          </p>
        </>
      )}
      {b && (
        <p class="batch-line">
          {t('page.runs.batchJob', {
            id: b.id,
            status: b.status,
            completed: num(b.completed ?? 0),
            total: num(b.total ?? 0),
          })}
        </p>
      )}
      {progress.paused && <p class="notice warning">{t('page.runs.paused')}</p>}
      {progress.step && <p class="muted">{progress.step}</p>}
    </div>
  );
}

function FileTable({ progress }: { progress: RunProgress }) {
  const rows = [...progress.files.values()];
  return (
    <table class="table files">
      <thead>
        <tr>
          <th>{t('page.runs.file')}</th>
          <th>{t('page.runs.state')}</th>
          <th>{t('page.runs.outputs')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.file} class={`file-${r.status}`}>
            <td>{r.file}</td>
            <td>
              <span class={`state ${r.status}`}>{stateText(r.status)}</span>
              {r.reason && <div class="reason">{r.reason}</div>}
            </td>
            <td>{r.outputs?.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function stateText(status: string): string {
  switch (status) {
    case 'started':
      return t('page.runs.file.started');
    case 'done':
      return t('page.runs.file.done');
    case 'failed':
      return t('page.runs.file.failed');
    case 'retry':
      return t('page.runs.file.retry');
    default:
      return status;
  }
}

function RunThread({ progress }: { progress: RunProgress }) {
  return (
    <div class="messages run-thread">
      {progress.thread.items.map((item, i) => (
        <ItemView key={i} item={item} />
      ))}
    </div>
  );
}

function EndSummary({ end }: { end: NonNullable<RunProgress['end']> }) {
  const c = end.counts;
  return (
    <div class="card end-summary">
      <h2>{t('page.runs.endTitle')}</h2>
      <p>
        {t('page.runs.endLine', {
          done: num(c.done),
          earlier: num(c.earlier),
          failed: num(c.failed),
          spent: money(end.spent, end.currency),
        })}
        {end.saved ? ` ${t('page.runs.saved', { saved: money(end.saved, end.currency) })}` : ''}
      </p>
      {end.notStarted + end.interrupted > 0 && (
        <p class="notice warning">
          {t('page.runs.unfinished', { n: num(end.notStarted + end.interrupted) })}
        </p>
      )}
      {end.failures.length > 0 && (
        <>
          <h3>{t('page.runs.failures')}</h3>
          <ul class="failures">
            {end.failures.map((f) => (
              <li key={f.file}>
                <strong>{f.file}</strong>: {f.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {end.outputs.length > 0 && (
        <p>
          <a href="#/outputs">{t('page.runs.seeOutputs', { n: num(end.outputs.length) })}</a>
        </p>
      )}
    </div>
  );
}
