// First-run set-up (key, platform, language, model; the server checks the key live, as the
// terminal's wizard does) and the settings (language, model, connected folder).
import { useState } from 'preact/hooks';
import { ApiError, api } from './api.js';
import { t } from './i18n.js';
import type { Status } from './types.js';
import { ErrorBox } from './ui.js';

const PLATFORMS = ['bigmodel', 'zai', 'bigmodel-coding', 'zai-coding', 'openrouter'] as const;

export function SetupView({ status, onDone }: { status: Status; onDone(): void }) {
  const [platform, setPlatform] = useState(
    status.platform ?? (status.language === 'zh' ? 'bigmodel' : 'zai'),
  );
  const [apiKey, setKey] = useState('');
  const [language, setLanguage] = useState(status.language);
  const [model, setModel] = useState(status.model ?? status.models[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (e: Event, save = false) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.post('/api/setup', {
        apiKey: apiKey.trim(),
        platform,
        language,
        ...(model ? { model } : {}),
        ...(save ? { save } : {}),
      });
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="setup">
      <form class="card setup-card" onSubmit={submit}>
        <h1>{t('page.setup.title')}</h1>
        <p class="muted">{t('page.setup.intro')}</p>
        <LanguageField value={language} onChange={setLanguage} />
        <label>
          <span>{t('page.setup.platform')}</span>
          <select value={platform} onChange={(e) => setPlatform(e.currentTarget.value)}>
            {PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {t(`page.platform.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('page.setup.key')}</span>
          <input
            type="password"
            autoComplete="off"
            required
            value={apiKey}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
          <small class="muted">{t('page.setup.keyHelp')}</small>
        </label>
        {status.models.length > 0 && (
          <label>
            <span>{t('page.setup.model')}</span>
            <select value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              <ModelOptions status={status} />
            </select>
          </label>
        )}
        <ErrorBox error={error} />
        <button type="submit" class="primary" disabled={busy || !apiKey.trim()}>
          {busy ? t('page.setup.checking') : t('page.setup.save')}
        </button>
        {/* As the wizard offers: a key that could not be checked (no network, no balance) can be kept anyway; a rejected one cannot. */}
        {error instanceof ApiError && error.status === 400 && error.body.code !== 'auth' && (
          <button type="button" disabled={busy} onClick={(e) => submit(e, true)}>
            {t('page.setup.saveAnyway')}
          </button>
        )}
      </form>
    </main>
  );
}

function ModelOptions({ status }: { status: Status }) {
  return (
    <>
      {status.models.map((m) => (
        <option key={m.id} value={m.id}>
          {m.label && m.label !== m.id ? `${m.id} — ${m.label}` : m.id}
        </option>
      ))}
    </>
  );
}

export function SettingsView({ status, onSaved }: { status: Status; onSaved(): void }) {
  const [language, setLanguage] = useState(status.language);
  const [model, setModel] = useState(status.model ?? '');
  const [cwd, setCwd] = useState(status.cwd);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      const changes: Record<string, string> = {};
      if (language !== status.language) changes.language = language;
      if (model && model !== status.model) changes.model = model;
      if (cwd.trim() && cwd.trim() !== status.cwd) changes.cwd = cwd.trim();
      await api.put('/api/settings', changes);
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.nav.settings')}</h1>
      </header>
      <form class="card form" onSubmit={submit}>
        <LanguageField value={language} onChange={setLanguage} />
        {status.models.length > 0 && (
          <label>
            <span>{t('page.setup.model')}</span>
            <select value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              <ModelOptions status={status} />
            </select>
          </label>
        )}
        <label>
          <span>{t('page.settings.folder')}</span>
          <input type="text" value={cwd} onInput={(e) => setCwd(e.currentTarget.value)} spellcheck={false} />
          <small class="muted">{t('page.settings.folderHelp')}</small>
        </label>
        <ErrorBox error={error} />
        <div class="row">
          <button type="submit" class="primary">
            {t('page.settings.save')}
          </button>
          {saved && (
            <span class="ok-note" role="status">
              {t('page.settings.saved')}
            </span>
          )}
        </div>
      </form>
      <div class="card facts">
        <dl>
          <dt>{t('page.settings.platform')}</dt>
          <dd>
            {status.platform ? t(`page.platform.${status.platform as (typeof PLATFORMS)[number]}`) : '—'}
          </dd>
          <dt>{t('page.settings.outputs')}</dt>
          <dd>{status.outputDir ?? '—'}</dd>
          <dt>{t('page.settings.sandbox')}</dt>
          <dd>{status.sandbox?.note ?? (status.sandbox?.available ? t('page.yes') : t('page.no'))}</dd>
          <dt>{t('page.settings.version')}</dt>
          <dd>{status.version}</dd>
        </dl>
      </div>
    </section>
  );
}

/** The language choice, each language named in itself. */
function LanguageField({ value, onChange }: { value: 'en' | 'zh'; onChange(v: 'en' | 'zh'): void }) {
  return (
    <label>
      <span>{t('page.setup.language')}</span>
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as 'en' | 'zh')}>
        <option value="zh">中文</option>
        <option value="en">English</option>
      </select>
    </label>
  );
}
