// The page's entry: its words and zhi's status from the server, then the app.
import './app.css';
import { render } from 'preact';
import { api } from './api.js';
import { App } from './app.js';
import { setStrings } from './i18n.js';
import type { Status } from './types.js';

interface Strings {
  language: 'en' | 'zh';
  strings: Record<string, string>;
}

async function boot(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  const reload = async () => {
    const [strings, status] = await Promise.all([
      api.get<Strings>('/api/strings'),
      api.get<Status>('/api/status'),
    ]);
    setStrings(strings.language, strings.strings);
    document.title = strings.strings['page.title'] ?? 'zhi';
    render(<App status={status} reload={reload} />, root);
  };
  try {
    await reload();
  } catch {
    // Without its words the page can only say, in both languages, how to open it again.
    root.textContent = '';
    const p = document.createElement('p');
    p.className = 'fatal';
    p.textContent =
      'zhi is not reachable. Start it again (zhi web) and open the address it prints. · 连接不到 zhi。请重新运行 zhi web，并打开它显示的地址。';
    root.append(p);
  }
  document.body.classList.add('ready');
}

void boot();
