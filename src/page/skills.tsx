// Skills: the list with descriptions; one skill's inputs (dropped or picked files, a dropped
// folder, or a folder inside the connected folder), the --dry-run estimate first, then a run
// (online or as a cheaper batch job).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { money, num, t } from './i18n.js';
import type { Estimate, Skill, Upload } from './types.js';
import { ErrorBox, Loading } from './ui.js';
import { droppedFiles, runFolderName, uploadAll } from './uploads.js';

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
                {s.source && <small class="muted">{sourceLabel(s.source)}</small>}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Where a skill comes from, in the person's words (a source zhi does not know is shown as it is). */
function sourceLabel(source: string): string {
  if (source === 'builtin' || source === 'user' || source === 'project')
    return t(`page.skills.source.${source}`);
  return source;
}

function SkillRunForm({ skill, navigate }: { skill: Skill; navigate(p: string): void }) {
  const [uploadsDir] = useState(() => runFolderName(skill.name));
  const [dropped, setDropped] = useState(false);
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState<'estimate' | 'run' | undefined>();
  const [estimate, setEstimate] = useState<Estimate>();
  const [error, setError] = useState<unknown>();
  // The files dropped or picked are uploaded into a folder of their own, and the skill runs on it.
  // A skill takes one input: those files, or else the folder typed below.
  const all = dropped ? [`zhi-uploads/${uploadsDir}/`] : folder.trim() ? [folder.trim()] : [];
  const act = async (what: 'estimate' | 'run', batch = false) => {
    setBusy(what);
    setError(undefined);
    try {
      const path = `/api/skills/${enc(skill.name)}/${what === 'estimate' ? 'estimate' : 'runs'}`;
      if (what === 'estimate') setEstimate(await api.post<Estimate>(path, { inputs: all }));
      else navigate(`/runs/${(await api.post<{ runId: string }>(path, { inputs: all, batch })).runId}`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <div class="skill-run">
      <a href="#/skills" class="back">
        ← {t('page.skills.all')}
      </a>
      <h2>{skill.name}</h2>
      <p>{skill.description}</p>
      <InputPicker
        folder={uploadsDir}
        onAdded={() => {
          setDropped(true);
          setEstimate(undefined);
        }}
        onError={setError}
      />
      <label class="inline-field">
        <span>{t('page.skills.folder')}</span>
        <input
          type="text"
          value={folder}
          disabled={dropped}
          placeholder={t('page.skills.folderPlaceholder')}
          onInput={(e) => {
            setFolder(e.currentTarget.value);
            setEstimate(undefined);
          }}
        />
      </label>
      <ErrorBox error={error} />
      <div class="row">
        <button
          type="button"
          class="primary"
          disabled={all.length === 0 || !!busy}
          onClick={() => act('estimate')}
        >
          {busy === 'estimate' ? t('page.skills.estimating') : t('page.skills.estimate')}
        </button>
      </div>
      {estimate && <EstimateCard estimate={estimate} busy={!!busy} onRun={(batch) => act('run', batch)} />}
    </div>
  );
}

/** Files for a skill: dropped (folders walked), or picked as files or as a folder; each is uploaded. */
interface PickerProps {
  folder: string;
  onAdded(): void;
  onError(e: unknown): void;
}

function InputPicker({ folder, onAdded, onError }: PickerProps) {
  const [uploaded, setUploaded] = useState<Upload[]>([]);
  const [uploading, setUploading] = useState(false);
  const [over, setOver] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const dir = useRef<HTMLInputElement>(null);
  const add = async (list: File[]) => {
    if (list.length === 0) return;
    setUploading(true);
    onError(undefined);
    try {
      const ups = await uploadAll(list, undefined, folder);
      setUploaded((u) => [...u, ...ups]);
      onAdded();
    } catch (e) {
      onError(e);
    } finally {
      setUploading(false);
    }
  };
  const picked = (e: Event) => void add([...((e.currentTarget as HTMLInputElement).files ?? [])]);
  return (
    <>
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
        <input ref={files} type="file" multiple hidden data-testid="skill-files" onChange={picked} />
        <input ref={dir} type="file" hidden {...{ webkitdirectory: '' }} onChange={picked} />
        {uploading && <p class="muted">{t('page.attach.uploading')}</p>}
      </section>
      {uploaded.length > 0 && (
        <ul class="chips" aria-label={t('page.attach.list')}>
          {uploaded.map((u) => (
            <li class="chip" key={u.id}>
              {u.name.split('/').pop()}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The dry-run estimate in the terminal's words, then the two ways to run. */
function EstimateCard({
  estimate: e,
  busy,
  onRun,
}: {
  estimate: Estimate;
  busy: boolean;
  onRun(batch: boolean): void;
}) {
  const price = (p: number) => (e.covered ? t('page.chat.covered') : money(p, e.currency));
  return (
    <div class="card estimate" aria-live="polite">
      <h3>{t('page.skills.estimateTitle')}</h3>
      {e.files !== undefined && (
        <dl class="figures">
          <dt>{t('page.skills.files')}</dt>
          <dd>{num(e.files)}</dd>
          <dt>{t('page.skills.tokens')}</dt>
          <dd>{num(e.tokens ?? 0)}</dd>
          <dt>{t('page.skills.price')}</dt>
          <dd>{price(e.price ?? 0)}</dd>
          {e.batchPrice !== undefined && (
            <>
              <dt>{t('page.skills.batchPrice')}</dt>
              <dd>{price(e.batchPrice)}</dd>
            </>
          )}
        </dl>
      )}
      <pre class="estimate-lines">{e.lines.length ? e.lines.join('\n') : e.text}</pre>
      <div class="row">
        <button type="button" class="primary" disabled={busy} onClick={() => onRun(false)}>
          {t('page.skills.run')}
        </button>
        {e.batchPrice !== undefined && (
          <button type="button" disabled={busy} onClick={() => onRun(true)}>
            {t('page.skills.runBatch')}
          </button>
        )}
      </div>
      {e.batchPrice !== undefined && <p class="hint">{t('page.skills.batchHint')}</p>}
    </div>
  );
}
