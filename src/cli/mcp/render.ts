import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import type { McpStatus } from '../../tools/mcp/manager.js';
import type { Style } from '../render/style.js';

/** One block per server: name, transport, trust and state, then its tools or its error. */
export function statusLines(list: readonly McpStatus[], st: Style): string[] {
  const lines: string[] = [];
  for (const s of list) {
    const state = t(`mcp.state.${s.state}`);
    lines.push(
      t('mcp.line', {
        name: st.bold(s.name),
        transport: s.transport,
        trust: s.trust,
        state: s.state === 'ready' ? state : s.state === 'failed' ? st.red(state) : st.dim(state),
      }),
    );
    if (s.state === 'ready')
      lines.push(s.tools.length ? t('mcp.tools', { tools: s.tools.join(', ') }) : t('mcp.noTools'));
    // A server's own words (its error, its stderr) are shown, never executed.
    if (s.error) lines.push(t('mcp.error', { error: visible(s.error) }));
  }
  return lines;
}
