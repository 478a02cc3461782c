// The drawing of a conversation's items: messages, tool lines, notices with advice, the cost line.
import { Component } from 'preact';
import { money, num, t } from './i18n.js';
import { Markdown } from './markdown-view.js';
import type { Item } from './thread.js';

/**
 * One item, drawn again only while it can change: a saved item (`fixed`) keeps its drawing, so a
 * streamed token costs the live run's items, not the whole conversation's.
 */
export class ItemRow extends Component<{ item: Item; fixed: boolean }> {
  override shouldComponentUpdate(next: { item: Item; fixed: boolean }): boolean {
    return !(next.fixed && this.props.fixed && next.item === this.props.item);
  }

  override render() {
    return <ItemView item={this.props.item} />;
  }
}

export function ItemView({ item }: { item: Item }) {
  switch (item.kind) {
    case 'user':
      return (
        <div class="msg user">
          <div class="bubble">{item.text}</div>
          {item.attachments && (
            <ul class="chips sent">
              {item.attachments.map((a) => (
                <li key={a} class="chip">
                  {a}
                </li>
              ))}
            </ul>
          )}
        </div>
      );
    case 'assistant':
      return (
        <div class={`msg assistant${item.streaming ? ' streaming' : ''}`}>
          {item.thinking && (
            <details class="thinking">
              <summary>
                {item.streaming && !item.text ? t('page.chat.thinkingNow') : t('page.chat.thinking')}
              </summary>
              <div class="thinking-text">{item.thinking}</div>
            </details>
          )}
          {item.text ? <Markdown text={item.text} /> : item.streaming && !item.thinking && <Dots />}
        </div>
      );
    case 'tool':
      return <ToolLine item={item} />;
    case 'notice':
      return (
        <div class={`notice ${item.tone}`} role={item.tone === 'error' ? 'alert' : undefined}>
          <p>{item.text}</p>
          {item.advice && (
            <div class="error-try">
              <span>{t('page.err.try')}</span>
              <ol>
                {item.advice.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ol>
            </div>
          )}
        </div>
      );
    case 'cost':
      return (
        <p class="cost">
          {[
            item.model,
            t('page.chat.tokens', { n: num(item.tokens) }),
            item.cost
              ? item.cost.covered
                ? t('page.chat.covered')
                : money(item.cost.amount, item.cost.currency, item.cost.approx)
              : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      );
  }
}

function ToolLine({ item }: { item: Extract<Item, { kind: 'tool' }> }) {
  const state = item.ok === undefined ? 'running' : item.ok ? 'ok' : 'failed';
  const mark = state === 'running' ? '…' : state === 'ok' ? '✓' : '✗';
  return (
    <div class={`tool ${state}`}>
      <span class="tool-mark" aria-hidden="true">
        {mark}
      </span>
      <span class="tool-label">{item.label}</span>
      <span class="sr-only">{t(`page.tool.${state}`)}</span>
      {item.summary && <span class="tool-summary">{item.summary}</span>}
      {item.lines && (
        <ul class="tool-lines">
          {item.lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Dots() {
  return (
    <span class="dots" role="status">
      <span class="sr-only">{t('page.chat.working')}</span>
      <i />
      <i />
      <i />
    </span>
  );
}
