// Skills: the list with descriptions; one skill's inputs (dropped or picked files, a dropped
// folder, or a folder inside the connected folder), the --dry-run estimate first, then a run
// (online or as a cheaper batch job).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { money, num, t } from './i18n.js';
import type { Estimate, Skill, Upload } from './types.js';
import { ErrorBox, Loading } from './ui.js';
import { droppedFiles, uploadAll } from './uploads.js';

export function SkillsView({ name, navigate }: { name: string | undefined; navigate(p: string): void }) {
  const [skills, setSkills] = useState<Skill[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api.get<Skill[]>('/api/skills').then(setSkills, setError);
  }, []);
  const chosen = skills?.find((s) => s.name === name);
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.nav.skills')}</h1>
        <a class="button" href="#/runs">
          {t('page.runs.title')}
        </a>
      </header>
      <ErrorBox error={error} />
      {!skills && !error && <Loading />}
      {chosen ? (
        <SkillRunForm skill={chosen} navigate={navigate} />
      ) : (
        <ul class="cards">
          {skills?.map((s) => (
            <li key={s.name}>
              <a class="card skill-card" href={`#/skills/${enc(s.name)}`}>
                <strong>{s.name}</strong>
                <span>{s.description}</span>
                {s.source && <small class="muted">{s.source}</small>}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SkillRunForm({ skill, navigate }: { skill: Skill; navigate(p: string): void }) {
  const [inputs, setInputs] = useState<string[]>([]);
  const [folder, setFolder] = useState('');
  const [uploaded, setUploaded] = useState<Upload[]>([]);
  const [busy, setBusy] = useState<'upload' | 'estimate' | 'run' | undefined>();
  const [estimate, setEstimate] = useState<Estimate>();
  const [error, setError] = useState<unknown>();
  const [over, setOver] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const dir = useRef<HTMLInputElement>(null);

  const add = async (list: File[]) => {
    if (list.length === 0) return;
    setBusy('upload');
    setError(undefined);
    setEstimate(undefined);
    try {
      const ups = await uploadAll(list);
      setUploaded((u) => [...u, ...ups]);
      setInputs((i) => [...i, ...ups.map((u) => u.path)]);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const all = folder.trim() ? [...inputs, folder.trim()] : inputs;
  const doEstimate = async () => {
    setBusy('estimate');
    setError(undefined);
    try {
      setEstimate(await api.post<Estimate>(`/api/skills/${enc(skill.name)}/estimate`, { inputs: all }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const run = async (batch: boolean) => {
    setBusy('run');
    setError(undefined);
    try {
      const { runId } = await api.post<{ runId: string }>(`/api/skills/${enc(skill.name)}/runs`, {
        inputs: all,
        batch,
      });
      navigate(`/runs/${runId}`);
    } catch (e) {
      setError(e);
      setBusy(undefined);
    }
  };
  const currency = estimate?.currency;
  const price = (p: number | string | undefined) => (typeof p === 'number' ? money(p, currency) : (p ?? '—'));
  return (
    <div class="skill-run">
      <a href="#/skills" class="back">
        ← {t('page.skills.all')}
      </a>
      <h2>{skill.name}</h2>
      <p>{skill.description}</p>
      <section
        class={`dropzone${over ? ' over' : ''}`}
        aria-label={t('page.skills.drop')}
        data-testid="skill-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          if (e.dataTransfer) void droppedFiles(e.dataTransfer).then(add);
        }}
      >
        <p>{t('page.skills.drop')}</p>
        <div class="row">
          <button type="button" onClick={() => files.current?.click()}>
            {t('page.skills.pickFiles')}
          </button>
          <button type="button" onClick={() => dir.current?.click()}>
            {t('page.skills.pickFolder')}
          </button>
        </div>
        <input
          ref={files}
          type="file"
          multiple
          hidden
          onChange={(e) => void add([...(e.currentTarget.files ?? [])])}
        />
        <input
          ref={dir}
          type="file"
          hidden
          {...{ webkitdirectory: '' }}
          onChange={(e) => void add([...(e.currentTarget.files ?? [])])}
        />
        {busy === 'upload' && <p class="muted">{t('page.attach.uploading')}</p>}
      </section>
      {uploaded.length > 0 && (
        <ul class="chips">
          {uploaded.map((u) => (
            <li class="chip" key={u.id}>
              {u.name}
            </li>
          ))}
        </ul>
      )}
      <label class="inline-field">
        <span>{t('page.skills.folder')}</span>
        <input
          type="text"
          value={folder}
          placeholder={t('page.skills.folderPlaceholder')}
          onInput={(e) => {
            setFolder(e.currentTarget.value);
            setEstimate(undefined);
          }}
        />
      </label>
      <ErrorBox error={error} />
      <div class="row">
        <button type="button" class="primary" disabled={all.length === 0 || !!busy} onClick={doEstimate}>
          {busy === 'estimate' ? t('page.skills.estimating') : t('page.skills.estimate')}
        </button>
      </div>
      {estimate && (
        <div class="card estimate" aria-live="polite">
          <h3>{t('page.skills.estimateTitle')}</h3>
          <dl>
            <dt>{t('page.skills.files')}</dt>
            <dd>{num(estimate.files)}</dd>
            <dt>{t('page.skills.tokens')}</dt>
            <dd>{num(estimate.tokens)}</dd>
            <dt>{t('page.skills.price')}</dt>
            <dd>{price(estimate.price)}</dd>
            {estimate.batchPrice !== undefined && (
              <>
                <dt>{t('page.skills.batchPrice')}</dt>
                <dd>{price(estimate.batchPrice)}</dd>
              </>
            )}
          </dl>
          {estimate.lines.length > 0 && <pre class="estimate-lines">{estimate.lines.join('\n')}</pre>}
          <div class="row">
            <button type="button" class="primary" disabled={!!busy} onClick={() => run(false)}>
              {t('page.skills.run')}
            </button>
            <button type="button" disabled={!!busy} onClick={() => run(true)}>
              {t('page.skills.runBatch')}
            </button>
          </div>
          <p class="hint">{t('page.skills.batchHint')}</p>
        </div>
      )}
    </div>
  );
}
