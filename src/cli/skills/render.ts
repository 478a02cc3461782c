import type { AgentEvent } from '../../agent/events.js';
import type { SkillEvent } from '../../agent/skills/run.js';
import { t } from '../../support/i18n/index.js';
import type { OutputFormat } from '../args.js';
import { errorJson, formatWarning } from '../render/error.js';
import { safeEvent } from '../render/safe-event.js';
import type { StreamPrinter } from '../render/printer.js';
import type { Style } from '../render/style.js';
import { formatDuration } from '../render/summary.js';

export interface SkillPrinterOptions {
  format: OutputFormat;
  err: Style;
  stderrIsTTY: boolean;
  /** Write a whole line to stderr (progress) / stdout (stream-json). */
  errLine?: (line: string) => void;
  outLine?: (line: string) => void;
}

/**
 * Renders a skill run: the agent events go to the one-shot StreamPrinter (answer on stdout, tool
 * lines on stderr); the skill's own events — which skill runs on which model, `[3/12] file` steps,
 * and what nested skills do — become lines on stderr (or JSON lines with stream-json).
 */
export class SkillPrinter {
  private headerShown = false;
  private readonly errLine: (line: string) => void;
  private readonly outLine: (line: string) => void;

  constructor(
    private readonly printer: StreamPrinter,
    private readonly o: SkillPrinterOptions,
  ) {
    // On a terminal the spinner owns the last line: clear it before writing a line of our own.
    const clear = o.stderrIsTTY ? '\r\x1b[2K' : '';
    this.errLine = o.errLine ?? ((line) => process.stderr.write(`${clear}${line}\n`));
    this.outLine = o.outLine ?? ((line) => process.stdout.write(`${line}\n`));
  }

  /** The model of the skill the user ran (from its first skill_start). */
  model: string | undefined;

  handle(event: SkillEvent): void {
    // File names and labels of the skill's own lines are shown, never executed.
    const ev = event.type.startsWith('skill_') && this.o.format !== 'stream-json' ? safeEvent(event) : event;
    if (ev.type === 'skill_start') {
      this.model ??= ev.model;
      if (this.o.format === 'stream-json') this.outLine(JSON.stringify(ev));
      else if (this.o.format === 'text' && !this.headerShown) {
        this.errLine(this.o.err.dim(t('skills.running', { name: ev.skill, model: ev.model })));
      }
      this.headerShown = true;
      return;
    }
    if (ev.type === 'skill_step') {
      if (this.o.format === 'stream-json') this.outLine(JSON.stringify(ev));
      else if (this.o.format === 'text') this.errLine(`[${ev.index + 1}/${ev.total}] ${ev.label}`);
      return;
    }
    if (ev.type === 'skill_ocr') {
      if (this.o.format === 'stream-json') this.outLine(JSON.stringify(ev));
      else if (this.o.format === 'text') this.errLine(this.o.err.dim(t('skills.ocr', { file: ev.file })));
      return;
    }
    this.printer.handle(ev as AgentEvent);
  }

  /** An event of a nested run (a composite's step or a per-file step). */
  nested(event: SkillEvent, chain: readonly string[]): void {
    const ev = this.o.format === 'stream-json' ? event : safeEvent(event);
    if (this.o.format === 'stream-json') {
      if (ev.type === 'text_delta' || ev.type === 'thinking_delta') return;
      const event = ev.type === 'error' ? { type: 'error', ...errorJson(ev.error) } : ev;
      this.outLine(JSON.stringify({ type: 'nested', chain, event }));
      return;
    }
    if (this.o.format !== 'text') return;
    const st = this.o.err;
    const depth = Math.max(1, chain.length - 1);
    const indent = '  '.repeat(depth);
    const arrow = st.enabled ? '↳' : '>';
    const who = chain[chain.length - 1] ?? '';
    switch (ev.type) {
      case 'skill_start':
        this.errLine(
          st.dim(`${indent}${arrow} ${t('skills.nested', { chain: chain.join(' › '), model: ev.model })}`),
        );
        break;
      case 'skill_step':
        this.errLine(`${indent}  [${ev.index + 1}/${ev.total}] ${ev.label}`);
        break;
      case 'skill_ocr':
        this.errLine(st.dim(`${indent}  ${who}: ${t('skills.ocr', { file: ev.file })}`));
        break;
      case 'tool_end': {
        const mark = ev.ok ? st.green('✓') : st.red('✗');
        const label = ev.label === ev.name ? '' : ` ${ev.label}`;
        const why = ev.ok ? '' : ` ${st.dim(firstLine(ev.result))}`;
        this.errLine(
          `${indent}  ${st.dim(`${who}:`)} ${ev.name}${label} ${mark} ${formatDuration(ev.durationMs)}${why}`,
        );
        break;
      }
      case 'permission':
        if (ev.decision === 'denied') {
          this.errLine(
            formatWarning(
              ev.reason
                ? t('render.denied', { name: ev.name, reason: ev.reason })
                : t('render.deniedByUser', { name: ev.name }),
              st,
            ).trimEnd(),
          );
        } else if (ev.decision === 'refused') {
          this.errLine(
            formatWarning(t('render.refused', { name: ev.name, reason: ev.reason ?? '' }), st).trimEnd(),
          );
        }
        break;
      case 'warning':
        this.errLine(formatWarning(`${who}: ${ev.message}`, st).trimEnd());
        break;
      case 'error':
        this.errLine(formatWarning(`${who}: ${ev.error.whatText()}`, st).trimEnd());
        break;
      default:
        break;
    }
  }
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 137)}…` : line;
}
