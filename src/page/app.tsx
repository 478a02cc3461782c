// The page's frame: the side bar (new chat, recent conversations, the other views) and the view
// the address's #/route names. Set-up comes first while zhi is not configured.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { ChatView } from './chat.js';
import { t } from './i18n.js';
import { OutputsView } from './outputs.js';
import { RunView } from './run-view.js';
import { RunsView } from './runs.js';
import { SessionsView } from './sessions.js';
import { SettingsView, SetupView } from './setup.js';
import { SkillsView } from './skills.js';
import { SystemView } from './system.js';
import type { Conversation, Status } from './types.js';
import { UsageView } from './usage.js';

/** The view the address names: `#/skills`, `#/chat/<id>`; `#conversation=<id>` is the REPL's /web. */
function currentRoute(): string[] {
  const from = /^#conversation=(.+)$/.exec(location.hash);
  if (from?.[1]) return ['chat', decodeURIComponent(from[1])];
  return location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
}

export function App({ status, reload }: { status: Status; reload(): Promise<void> }) {
  const [route, setRoute] = useState(currentRoute);
  const [recent, setRecent] = useState<Conversation[]>([]);
  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const navigate = useCallback((path: string) => {
    location.hash = `#${path}`;
  }, []);
  const refresh = useCallback(() => {
    api.get<Conversation[]>('/api/conversations').then(
      (l) => setRecent(l.slice(0, 12)),
      () => {},
    );
  }, []);
  useEffect(refresh, []);
  if (!status.configured) return <SetupView status={status} onDone={reload} />;
  const [view = 'chat', arg] = route;
  return (
    <div class="app">
      <a class="skip" href="#main">
        {t('page.skip')}
      </a>
      <nav class="side" aria-label={t('page.nav.label')}>
        <div class="brand">
          <span class="logo" aria-hidden="true">
            智
          </span>
          zhi
        </div>
        <a class="button primary new-chat" href="#/chat">
          {t('page.chat.newButton')}
        </a>
        <ul class="nav">
          {(['skills', 'outputs', 'sessions', 'usage', 'system', 'settings'] as const).map((v) => (
            <li key={v}>
              <a
                href={`#/${v}`}
                aria-current={view === v || (v === 'skills' && view === 'runs') ? 'page' : undefined}
              >
                {t(`page.nav.${v}`)}
              </a>
            </li>
          ))}
        </ul>
        {recent.length > 0 && (
          <>
            <h2 class="side-title">{t('page.nav.recent')}</h2>
            <ul class="recent">
              {recent.map((c) => (
                <li key={c.id}>
                  <a
                    href={`#/chat/${enc(c.id)}`}
                    aria-current={view === 'chat' && arg === c.id ? 'page' : undefined}
                    title={c.title}
                  >
                    {c.running && <span class="live-dot" aria-hidden="true" />}
                    {c.title || t('page.chat.new')}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
        <p class="folder" title={status.cwd}>
          <span class="muted">{t('page.side.folder')}</span>
          <span class="folder-path">{status.cwd}</span>
        </p>
      </nav>
      <main id="main" class="main">
        <View view={view} arg={arg} status={status} navigate={navigate} refresh={refresh} reload={reload} />
      </main>
    </div>
  );
}

interface ViewProps {
  view: string;
  arg: string | undefined;
  status: Status;
  navigate(p: string): void;
  refresh(): void;
  reload(): Promise<void>;
}

function View({ view, arg, status, navigate, refresh, reload }: ViewProps) {
  switch (view) {
    case 'skills':
      return <SkillsView name={arg} navigate={navigate} />;
    case 'runs':
      return arg ? <RunView id={arg} navigate={navigate} /> : <RunsView />;
    case 'outputs':
      return <OutputsView />;
    case 'sessions':
      return <SessionsView onChanged={refresh} />;
    case 'usage':
      return <UsageView />;
    case 'system':
      return <SystemView />;
    case 'settings':
      return <SettingsView status={status} onSaved={reload} />;
    default:
      return (
        <ChatView
          key={arg ?? 'new'}
          id={arg || undefined}
          status={status}
          navigate={navigate}
          onChanged={refresh}
        />
      );
  }
}
