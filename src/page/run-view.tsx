// One skill run: live per-file progress from its events, the end summary, failures with their
// reasons, Stop, and Resume (the same skill on the same inputs again: the run record skips the
// files already done, a batch run picks up its job's answers).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { ApprovalDialog } from './approval.js';
import { money, num, t } from './i18n.js';
import { ItemView } from './items.js';
import { type FolderEnd, RunProgress } from './run-progress.js';
import { runState } from './runs.js';
import { openStream } from './stream.js';
import type { Approval, RunRecord } from './types.js';
import { ErrorBox, frameThrottle } from './ui.js';

export function RunView({ id, navigate }: { id: string; navigate(p: string): void }) {
  const progress = useMemo(() => new RunProgress(), [id]);
  const [record, setRecord] = useState<RunRecord>();
  const [, setTick] = useState(0);
  const redraw = useMemo(() => frameThrottle(() => setTick((n) => n + 1)), []);
  const [error, setError] = useState<unknown>();
  const [approvals, setApprovals] = useState<Approval[]>([]);
  useEffect(() => {
    const load = () => api.get<RunRecord>(`/api/runs/${enc(id)}`).then(setRecord, setError);
    void load();
    if (id.startsWith('record:')) return;
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
        void load();
      },
      approval: (a) => setApprovals((list) => [...list.filter((x) => x.id !== a.id), a]),
      approvalDone: (aid) => setApprovals((list) => list.filter((x) => x.id !== aid)),
    });
  }, [id]);
  const running = record?.kind === 'live' && record.state === 'running' && !progress.end;
  const stop = () => api.post(`/api/runs/${enc(id)}/stop`).catch(setError);
  const resume = async () => {
    if (!record) return;
    setError(undefined);
    try {
      const inputs = record.kind === 'live' ? record.inputs : [record.folder];
      const batch = record.kind === 'live' ? !!record.batch : record.batch !== undefined;
      const { runId } = await api.post<{ runId: string }>(`/api/skills/${enc(record.skill)}/runs`, {
        inputs,
        batch,
      });
      navigate(`/runs/${runId}`);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section class="view">
      <RunHead
        record={record}
        running={running}
        resumable={!!record && !running && canResume(record, progress.end)}
        onStop={stop}
        onResume={resume}
      />
      <a href="#/runs" class="back">
        ← {t('page.runs.title')}
      </a>
      <ErrorBox error={error} />
      <Summary progress={progress} />
      {progress.isFolder ? <FileTable progress={progress} /> : <RunThread progress={progress} />}
      {progress.end && <EndSummary end={progress.end} />}
      {record?.kind === 'record' && <RecordSummary record={record} />}
      {approvals[0] && (
        <ApprovalDialog
          key={approvals[0].id}
          approval={approvals[0]}
          onAnswered={(aid) => setApprovals((list) => list.filter((x) => x.id !== aid))}
        />
      )}
    </section>
  );
}

/** The run's name and state, with Stop while it runs and Resume when something is left to do. */
function RunHead(p: {
  record: RunRecord | undefined;
  running: boolean;
  resumable: boolean;
  onStop(): void;
  onResume(): void;
}) {
  return (
    <header class="view-head">
      <h1>{p.record?.skill ?? t('page.runs.run')}</h1>
      <div class="row">
        {p.record && <span class="muted">{runState(p.record)}</span>}
        {p.running && (
          <button type="button" class="stop" onClick={p.onStop}>
            {t('page.chat.stop')}
          </button>
        )}
        {p.resumable && (
          <button type="button" class="primary" onClick={p.onResume}>
            {t('page.runs.resume')}
          </button>
        )}
      </div>
    </header>
  );
}

/** Something is left to do: files failed, were not started or interrupted, or the run was stopped. */
function canResume(r: RunRecord, end: FolderEnd | undefined): boolean {
  if (end) return end.counts.failed + end.notStarted + end.interrupted > 0;
  if (r.kind === 'live') return r.state === 'stopped' || r.state === 'failed';
  return r.failed.length > 0 || (r.batch !== undefined && !/completed|done/i.test(r.batch.status));
}

function Summary({ progress }: { progress: RunProgress }) {
  const c = progress.counts;
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

/** The folder every file of the run is in ('' when they are not in one), so rows name only the file. */
function commonFolder(files: string[]): string {
  if (files.length === 0) return '';
  let prefix = files[0] ?? '';
  for (const f of files) while (!f.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf('/') + 1);
}

function FileTable({ progress }: { progress: RunProgress }) {
  const rows = [...progress.files.values()];
  const folder = commonFolder(rows.map((r) => r.file));
  return (
    <table class="table files">
      {folder && <caption>{t('page.runs.inFolder', { folder })}</caption>}
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
            <td class="path" title={r.file}>
              {r.file.slice(folder.length)}
            </td>
            <td>
              <span class={`state ${r.status}`}>{fileState(r.status)}</span>
              {r.reason && <div class="reason">{r.reason}</div>}
            </td>
            <td class="path">{r.outputs?.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function fileState(status: string): string {
  if (status === 'started' || status === 'done' || status === 'failed' || status === 'retry')
    return t(`page.runs.file.${status}`);
  return status;
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

function EndSummary({ end }: { end: FolderEnd }) {
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
      <Failures list={end.failures.map((f) => ({ file: f.file, error: f.reason }))} />
      {end.outputs.length > 0 && (
        <p>
          <a href="#/outputs">{t('page.runs.seeOutputs', { n: num(end.outputs.length) })}</a>
        </p>
      )}
    </div>
  );
}

function RecordSummary({ record }: { record: Extract<RunRecord, { kind: 'record' }> }) {
  return (
    <div class="card end-summary">
      <p class="path">{record.folder}</p>
      <p>{runState(record)}</p>
      <Failures list={record.failed} />
    </div>
  );
}

function Failures({ list }: { list: { file: string; error: string }[] }) {
  if (list.length === 0) return null;
  const folder = commonFolder(list.map((f) => f.file));
  return (
    <>
      <h3>{t('page.runs.failures')}</h3>
      <ul class="failures">
        {list.map((f) => (
          <li key={f.file}>
            <strong title={f.file}>{f.file.slice(folder.length)}</strong>: {f.error}
          </li>
        ))}
      </ul>
    </>
  );
}
