// MCP servers with their state, and `zhi doctor`'s checks, on one page.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { t } from './i18n.js';
import type { DoctorCheck, McpServer } from './types.js';
import { Empty, ErrorBox, Loading } from './ui.js';

const MARKS: Record<string, string> = { ok: '✓', note: '·', optional: '○', problem: '✗' };

const MCP_STATES = ['idle', 'starting', 'ready', 'stopped', 'failed'] as const;

/** An MCP server's state in the person's words (an unknown one as it is). */
function mcpState(state: string): string {
  const known = MCP_STATES.find((k) => k === state);
  return known ? t(`page.system.mcp.${known}`) : state;
}

export function SystemView() {
  const [mcp, setMcp] = useState<McpServer[]>();
  const [checks, setChecks] = useState<DoctorCheck[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    api.get<McpServer[]>('/api/mcp').then(setMcp, setError);
    api.get<DoctorCheck[]>('/api/doctor').then(setChecks, setError);
  }, []);
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.nav.system')}</h1>
      </header>
      <ErrorBox error={error} />
      <h2>{t('page.system.mcp')}</h2>
      {!mcp && !error && <Loading />}
      {mcp?.length === 0 && <Empty>{t('page.system.noMcp')}</Empty>}
      {mcp && mcp.length > 0 && (
        <table class="table">
          <thead>
            <tr>
              <th>{t('page.system.name')}</th>
              <th>{t('page.system.state')}</th>
              <th>{t('page.system.transport')}</th>
              <th>{t('page.system.tools')}</th>
            </tr>
          </thead>
          <tbody>
            {mcp.map((s) => (
              <tr key={s.name}>
                <td>{s.name}</td>
                <td>
                  <span class={`state ${s.error ? 'failed' : 'done'}`}>{mcpState(s.state)}</span>
                  {s.error && <div class="reason">{s.error}</div>}
                </td>
                <td>{s.transport ?? ''}</td>
                <td>{Array.isArray(s.tools) ? s.tools.length : (s.tools ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t('page.system.doctor')}</h2>
      {!checks && !error && <Loading />}
      {checks && (
        <ul class="checks">
          {checks.map((c, i) => (
            <li key={i} class={c.level}>
              <span class="check-mark" aria-hidden="true">
                {MARKS[c.level] ?? '·'}
              </span>
              <div>
                <span>{c.text}</span>
                {c.advice && <p class="muted">{c.advice}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
