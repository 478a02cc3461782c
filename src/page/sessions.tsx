// Saved conversations (the same session files as the terminal's `zhi sessions`): search,
// resume, export as Markdown, delete (after asking).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { t, when } from './i18n.js';
import type { Conversation } from './types.js';
import { Dialog, Empty, ErrorBox, Loading } from './ui.js';

export function SessionsView({ onChanged }: { onChanged(): void }) {
  const [q, setQ] = useState('');
  const [list, setList] = useState<Conversation[]>();
  const [error, setError] = useState<unknown>();
  const [confirm, setConfirm] = useState<Conversation>();
  // Only the latest search's answer is drawn: an earlier one arriving late would show the wrong list.
  const latest = useRef(0);
  const load = (query: string) => {
    const n = ++latest.current;
    return api
      .get<Conversation[]>(`/api/conversations${query ? `?q=${enc(query)}` : ''}`)
      .then((l) => n === latest.current && setList(l), setError);
  };
  useEffect(() => {
    const timer = setTimeout(() => void load(q), 200);
    return () => clearTimeout(timer);
  }, [q]);
  const remove = async (c: Conversation) => {
    setConfirm(undefined);
    try {
      await api.del(`/api/conversations/${enc(c.id)}`);
      onChanged();
      await load(q);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.nav.sessions')}</h1>
        <input
          type="search"
          class="search"
          value={q}
          placeholder={t('page.sessions.search')}
          aria-label={t('page.sessions.search')}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
      </header>
      <ErrorBox error={error} />
      {!list && !error && <Loading />}
      {list?.length === 0 && <Empty>{q ? t('page.sessions.noMatch') : t('page.sessions.none')}</Empty>}
      {list && list.length > 0 && <SessionTable list={list} onDelete={setConfirm} />}
      {confirm && (
        <Dialog label={t('page.sessions.deleteTitle')} onCancel={() => setConfirm(undefined)}>
          <div class="approval">
            <h2>{t('page.sessions.deleteTitle')}</h2>
            <p>{t('page.sessions.deleteText', { title: confirm.title || confirm.id })}</p>
            <div class="approval-buttons">
              <button type="button" class="danger-button" onClick={() => remove(confirm)}>
                {t('page.sessions.delete')}
              </button>
              <button type="button" onClick={() => setConfirm(undefined)}>
                {t('page.cancel')}
              </button>
            </div>
          </div>
        </Dialog>
      )}
    </section>
  );
}

function SessionTable({ list, onDelete }: { list: Conversation[]; onDelete(c: Conversation): void }) {
  return (
    <table class="table">
      <thead>
        <tr>
          <th>{t('page.sessions.title')}</th>
          <th>{t('page.sessions.when')}</th>
          <th>{t('page.sessions.model')}</th>
          <th>
            <span class="sr-only">{t('page.outputs.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((c) => (
          <tr key={c.id}>
            <td>
              <a href={`#/chat/${enc(c.id)}`}>{c.title || c.id}</a>
              {c.running && <span class="tag live">{t('page.sessions.running')}</span>}
            </td>
            <td>{when(c.updatedAt)}</td>
            <td class="nowrap">{c.model ?? ''}</td>
            <td class="actions">
              <a class="button" href={`#/chat/${enc(c.id)}`}>
                {t('page.sessions.resume')}
              </a>
              <a class="button" href={`/api/conversations/${enc(c.id)}/export`} download>
                {t('page.sessions.export')}
              </a>
              <button type="button" class="danger-button" onClick={() => onDelete(c)}>
                {t('page.sessions.delete')}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
