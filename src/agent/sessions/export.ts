import { formatCost } from '../../llm/models.js';
import type { Message } from '../../llm/types.js';
import { maxBy, pushAll } from '../../support/arrays.js';
import { exhaustive } from '../../support/exhaustive.js';
import { t } from '../../support/i18n/index.js';
import { messageText, turnsText } from './format.js';
import type { LoadedSession } from './store.js';

const RESULT_CHARS = 2000;

function fence(text: string): string {
  const longest = maxBy(text.matchAll(/`+/g), (m) => m[0].length, 2);
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars.slice(0, max).join('')}\n… (${chars.length - max} more characters)`;
}

function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * The whole conversation as Markdown: every message in order (including what compaction later
 * summarised away), tool calls with their arguments and the beginning of their results, and
 * where the context was summarised.
 */
export function sessionMarkdown(s: LoadedSession): string {
  const out: string[] = [];
  out.push(`# ${s.title || t('sessions.list.untitled')}`, '');
  const cost =
    s.covered && s.cost === 0
      ? t('sessions.list.plan')
      : formatCost({ amount: s.cost, currency: s.currency });
  out.push(
    `- ${t('sessions.md.session')}: \`${s.id}\`${s.skill ? ` (${s.skill})` : ''}`,
    `- ${t('sessions.md.started')}: ${localTime(s.created)} · ${t('sessions.md.folder')}: \`${s.cwd}\``,
    `- ${t('sessions.md.model')}: ${s.model} · ${turnsText(s.turns)} · ${s.tokens.toLocaleString('en-US')} tokens · ${cost}`,
    '',
  );
  const toolNames = new Map<string, string>();
  for (const ev of s.events) {
    switch (ev.type) {
      case 'message':
        pushAll(out, messageBlock(ev.message, toolNames, ev.t));
        break;
      case 'compaction':
        out.push(`> *${t('sessions.md.compacted', { n: ev.replaced })}*`, '');
        break;
      case 'model':
        out.push(`> *${t('sessions.md.modelChanged', { model: ev.model })}*`, '');
        break;
      case 'resume':
        out.push(`> *${t('sessions.md.resumed', { time: localTime(ev.t) })}*`, '');
        break;
      case 'truncate':
      case 'context':
        out.push(`> *${t('sessions.md.rewound')}*`, '');
        break;
      case 'error':
        out.push(`> *${t('sessions.md.error', { message: ev.message })}*`, '');
        break;
      case 'title':
      case 'system':
      case 'usage':
      case 'end':
        break;
      default:
        exhaustive(ev);
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function messageBlock(m: Message, toolNames: Map<string, string>, time: string): string[] {
  switch (m.role) {
    case 'system':
      return [];
    case 'user':
      return [`## ${t('sessions.you')} · ${localTime(time)}`, '', messageText(m).trim(), ''];
    case 'assistant': {
      const lines: string[] = [];
      if (m.content.trim()) lines.push('## zhi', '', m.content.trim(), '');
      for (const c of m.tool_calls ?? []) {
        toolNames.set(c.id, c.function.name);
        let args = c.function.arguments;
        try {
          args = JSON.stringify(JSON.parse(args || '{}'), null, 2);
        } catch {
          // keep the raw text
        }
        lines.push(
          `**${t('sessions.md.tool')}** \`${c.function.name}\``,
          '',
          fence(clip(args, RESULT_CHARS)),
          '',
        );
      }
      return lines;
    }
    case 'tool':
      return [
        '<details>',
        `<summary>${t('sessions.md.result', { name: toolNames.get(m.tool_call_id) ?? 'tool' })}</summary>`,
        '',
        fence(clip(m.content, RESULT_CHARS)),
        '',
        '</details>',
        '',
      ];
  }
}
