import type { FolderEvent, SkippedFiles } from '../../agent/folder/events.js';
import { skipReason } from '../../agent/folder/skipped.js';
import { batchStatusText } from '../../llm/batch.js';
import { formatCost } from '../../llm/models.js';
import type { Currency } from '../../llm/platforms.js';
import { maxOf } from '../../support/arrays.js';
import { t } from '../../support/i18n/index.js';
import { visible } from '../../support/sanitize.js';
import { cutToWidth, textWidth } from '../../support/width.js';
import type { Style } from './style.js';

/** Index lines shown at the end before "… and N more". */
const MAX_INDEX_LINES = 20;
/** Up to this many written files (or failures) the end lists each; past it, it sums them up. */
const SMALL_RUN = 10;
/** Reasons of failure shown, and files named under each. */
const MAX_GROUPS = 5;
const GROUP_EXAMPLES = 3;

export interface ProgressOptions {
  err: Style;
  /** A live line that redraws itself (a terminal), or one plain line per file (piped). */
  live: boolean;
  /** Write a whole line to stderr (clears the live line first when there is one). */
  line(text: string): void;
  /** Write raw text to stderr (the live line, without a newline). */
  raw(text: string): void;
  columns?: () => number;
  now?: () => number;
}

/** `about 6 min left`, rounded the way a person would say it. */
export function formatLeft(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  return `${(m / 60).toFixed(1)} h`;
}

/** Piped, a long document's progress is said every this many parts (and at its last). */
const PIPED_PART_EVERY = 5;

/**
 * The progress of a folder run on stderr: `[137/500] 27%  ✓ 130  ✗ 2  · ¥0.41 so far · about
 * 6 min left · report.pdf` redrawn in place on a terminal, one plain line per finished file when
 * piped; at the end a table of failures with their reasons and an index of what was written.
 */
export class FolderProgress {
  private started = 0;
  private finishedThisRun = 0;
  private currency: Currency = 'CNY';
  private running = new Set<string>();
  /** Long documents running: how far their parts are (`part 3/12`). */
  private parts = new Map<string, string>();
  private last: Extract<FolderEvent, { type: 'folder_file' }> | undefined;
  private shown = false;
  /** An outage was said: the files put back meanwhile are not said one by one. */
  private paused = false;
  private readonly now: () => number;

  constructor(private readonly o: ProgressOptions) {
    this.now = o.now ?? Date.now;
  }

  handle(ev: FolderEvent): void {
    if (ev.type === 'folder_start') {
      this.start(ev);
      return;
    }
    if (ev.type === 'folder_end') {
      this.end(ev);
      return;
    }
    if (ev.type === 'folder_batch') {
      this.batch(ev);
      return;
    }
    if (ev.type === 'folder_wait') {
      const seconds = Math.max(1, Math.round((ev.ms ?? 0) / 1000));
      this.paused = ev.phase === 'paused';
      const said = ev.why === 'server' ? 'runs.pausedServer' : 'runs.paused';
      if (ev.phase === 'paused') this.say(this.o.err.yellow(t(said, { seconds })));
      else this.say(this.o.err.dim(t('runs.resumed')));
      return;
    }
    if (ev.type !== 'folder_file') return;
    if (ev.status === 'cleaned') {
      const outputs = (ev.outputs ?? []).map((p) => visible(p)).join(', ');
      this.say(this.o.err.dim(t('runs.file.cleaned', { file: visible(ev.file), outputs })));
      return;
    }
    if (ev.status === 'part') {
      this.part(ev);
      return;
    }
    this.last = ev;
    if (ev.status !== 'started') this.parts.delete(ev.file);
    if (ev.status === 'started') this.running.add(ev.file);
    else if (ev.status !== 'retry') this.running.delete(ev.file);
    if (ev.status === 'done' || ev.status === 'failed') this.finishedThisRun += 1;
    if (ev.status === 'failed') {
      this.say(`${this.o.err.red('✗')} ${visible(ev.file)}: ${visible(ev.reason ?? '')}`);
    } else if (ev.status === 'retry') {
      this.retry(ev);
    } else if (ev.status === 'done' && !this.o.live) {
      this.say(`${this.counter(ev)} ${this.o.err.green('✓')} ${visible(ev.file)}`);
    }
    if (this.o.live) this.draw();
  }

  /** A file put back, with what the API did: too many at once, overloaded, or one failed call. */
  private retry(ev: Extract<FolderEvent, { type: 'folder_file' }>): void {
    const file = visible(ev.file);
    const said =
      ev.pushBack === 'overloaded'
        ? t('runs.file.retryOverloaded', { file })
        : ev.pushBack === 'network' || ev.pushBack === 'server'
          ? this.paused
            ? undefined
            : t('runs.file.retryFailed', { file, reason: visible(ev.reason ?? '') })
          : t('runs.file.retry', { file });
    if (said) this.say(this.o.err.dim(said));
  }

  /**
   * A long document's parts: on a terminal the live line shows `part 3/12` after its name; piped,
   * a line every few parts (and the last), so a log is not one line per part.
   */
  private part(ev: Extract<FolderEvent, { type: 'folder_file' }>): void {
    const p = ev.part;
    if (!p) return;
    const text = partText(p);
    this.parts.set(ev.file, text);
    if (this.o.live) {
      if (this.last) this.draw();
    } else if (p.done === p.total || p.done % PIPED_PART_EVERY === 0) {
      this.say(this.o.err.dim(`  ${visible(ev.file)}: ${text}`));
    }
  }

  private batch(ev: Extract<FolderEvent, { type: 'folder_batch' }>): void {
    const id = visible(ev.id);
    if (ev.phase === 'submitted') {
      this.say(t('batch.submitted', { id, total: ev.total ?? 0, round: ev.round ?? 1 }));
      this.say(this.o.err.dim(t('batch.submitted.hint', { id })));
    } else if (ev.phase === 'waiting') {
      const params = {
        id,
        status: visible(batchStatusText(ev.status)),
        completed: ev.completed ?? 0,
        total: ev.total ?? 0,
      };
      this.say(this.o.err.dim(t('batch.waiting', params)));
    } else {
      this.say(t('batch.results', { id, answered: ev.answered ?? 0 }));
      if (ev.failed) this.say(this.o.err.yellow(t('batch.results.failed', { failed: ev.failed })));
    }
  }

  private start(ev: Extract<FolderEvent, { type: 'folder_start' }>): void {
    this.started = this.now();
    this.currency = ev.currency as Currency;
    const st = this.o.err;
    if (ev.skipped) this.skipped(ev.skipped);
    if (ev.skillChanged) this.say(st.yellow(t('runs.start.skillChanged')));
    if (ev.todo === 0) {
      this.say(t('runs.start.nothing'));
      return;
    }
    this.say(st.dim(t('runs.start', { todo: ev.todo, total: ev.counts.total, jobs: ev.jobs })));
    if (ev.counts.earlier) this.say(st.dim(t('runs.start.earlier', { earlier: ev.counts.earlier })));
    if (ev.replacing) this.say(st.yellow(t('runs.replacing', { count: ev.replacing })));
    if (ev.lost) this.say(st.yellow(t('runs.lost', { count: ev.lost })));
    if (ev.clashes) this.clashes(ev.clashes);
  }

  /** Inputs that would name their outputs alike, found before any call: how they are told apart. */
  private clashes(c: NonNullable<Extract<FolderEvent, { type: 'folder_start' }>['clashes']>): void {
    this.say(this.o.err.yellow(t('runs.clashes', { count: c.count })));
    for (const clash of c.shown)
      this.say(`  ${clash.files.map((f) => visible(f)).join(t('runs.skipped.sep'))}`);
    if (c.count > c.shown.length)
      this.say(`  ${t('runs.skipped.more', { count: c.count - c.shown.length })}`);
  }

  /** The files left out, named when few (counts and the first few when many). */
  private skipped(s: SkippedFiles): void {
    const st = this.o.err;
    const few = s.count <= s.shown.length;
    const counts = { count: s.count, parts: skippedParts(s.count, s.empty) };
    this.say(st.yellow(t(few ? 'runs.skipped.start' : 'runs.skipped.startMany', counts)));
    const w = Math.min(40, maxOf(s.shown.map((f) => textWidth(visible(f.file)))));
    for (const f of s.shown) {
      const name = visible(f.file);
      this.say(`  ${name}${' '.repeat(Math.max(1, w - textWidth(name) + 2))}${st.dim(skipReason(f.why))}`);
    }
    if (!few) this.say(`  ${t('runs.skipped.more', { count: s.count - s.shown.length })}`);
  }

  private counter(ev: { counts: { total: number; done: number; failed: number; earlier: number } }): string {
    const c = ev.counts;
    return `[${c.earlier + c.done + c.failed}/${c.total}]`;
  }

  /** The live line's text without the file in progress (also used by tests). */
  lineText(): string {
    const ev = this.last;
    if (!ev) return '';
    const c = ev.counts;
    const finished = c.earlier + c.done + c.failed;
    const pct = Math.floor((finished / Math.max(1, c.total)) * 100);
    const st = this.o.err;
    const parts = [
      `${this.counter(ev)} ${pct}%  ${st.green('✓')} ${c.done + c.earlier}  ${st.red('✗')} ${c.failed}`,
      t('runs.progress.spent', { cost: formatCost({ amount: ev.spent, currency: this.currency }) }),
    ];
    const left = c.total - finished;
    if (this.finishedThisRun > 0 && left > 0) {
      const per = (this.now() - this.started) / this.finishedThisRun;
      parts.push(t('runs.progress.left', { time: formatLeft(per * left) }));
    }
    return parts.join(' · ');
  }

  private draw(): void {
    const columns = this.o.columns?.() ?? 0;
    const cols = (columns > 0 ? columns : 80) - 1;
    let text = this.lineText();
    // The file in progress gets what room is left; the line never wraps (it could not be redrawn).
    // A long document under way is shown before other files: its parts are the news.
    const running = [...this.running];
    const current = running.findLast((f) => this.parts.has(f)) ?? running.pop();
    const room = cols - textWidth(text) - 3;
    if (current && room >= 8) {
      const part = this.parts.get(current);
      const name = visible(current);
      text += part
        ? ` · ${cutToWidth(name, Math.max(4, room - textWidth(part) - 1))} ${part}`
        : ` · ${cutToWidth(name, room)}`;
    }
    if (textWidth(text) > cols) {
      const ev = this.last!;
      text = cutToWidth(
        `${this.counter(ev)} ✓ ${ev.counts.done + ev.counts.earlier} ✗ ${ev.counts.failed}`,
        cols,
      );
    }
    this.o.raw(`\r\x1b[2K${text}`);
    this.shown = true;
  }

  private say(text: string): void {
    if (this.shown) {
      this.o.raw('\r\x1b[2K');
      this.shown = false;
    }
    this.o.line(text);
  }

  private end(ev: Extract<FolderEvent, { type: 'folder_end' }>): void {
    if (this.shown) this.o.raw('\r\x1b[2K');
    this.shown = false;
    const st = this.o.err;
    if (ev.failures.length > SMALL_RUN) this.failureGroups(ev);
    else if (ev.failures.length) {
      this.o.line(st.bold(t('runs.end.failures', { count: ev.failures.length })));
      const w = Math.min(40, maxOf(ev.failures.map((f) => textWidth(visible(f.file)))));
      for (const f of ev.failures) {
        const name = visible(f.file);
        this.o.line(`  ${name}${' '.repeat(Math.max(1, w - textWidth(name) + 2))}${visible(f.reason)}`);
      }
    }
    const written = ev.outputs.flatMap((o) => o.outputs.map((out) => ({ file: o.file, out })));
    if (written.length > SMALL_RUN) {
      // A long run is summed up: how many were written, and where (every one is in the run record).
      const folders = [...new Set(written.map((w) => dirOf(w.out)))];
      const where = folders.length === 1 ? folders[0]! : t('runs.end.folders', { count: folders.length });
      this.o.line(st.bold(t('runs.end.written', { count: written.length, where: visible(where) })));
    } else if (written.length) {
      this.o.line(st.bold(t('runs.end.outputs', { count: written.length })));
      for (const w of written.slice(0, MAX_INDEX_LINES))
        this.o.line(`  ${visible(w.file)} → ${visible(w.out)}`);
      if (written.length > MAX_INDEX_LINES)
        this.o.line(
          `  ${t('runs.end.more', { count: written.length - MAX_INDEX_LINES, manifest: ev.manifest })}`,
        );
    }
    if (ev.saved) {
      const saved = formatCost({ amount: ev.saved, currency: this.currency });
      const percent = Math.round((ev.saved / Math.max(1e-12, ev.spent + ev.saved)) * 100);
      this.o.line(st.green(t('batch.end.saved', { saved, percent })));
    }
    if (ev.interrupted) this.o.line(st.yellow(t('runs.end.interrupted', { count: ev.interrupted })));
    if (ev.notStarted) this.o.line(st.yellow(t('runs.end.notStarted', { count: ev.notStarted })));
    if (ev.skipped) {
      const { count, empty } = ev.skipped;
      this.o.line(st.yellow(t('runs.skipped.end', { count, parts: skippedParts(count, empty) })));
    }
    this.o.line(st.dim(t('runs.end.manifest', { path: visible(ev.manifest) })));
  }

  /** Many failures: grouped by reason, the largest group first, a few files named in each. */
  private failureGroups(ev: Extract<FolderEvent, { type: 'folder_end' }>): void {
    const st = this.o.err;
    const groups = new Map<string, string[]>();
    for (const f of ev.failures) groups.set(f.reason, [...(groups.get(f.reason) ?? []), f.file]);
    this.o.line(st.bold(t('runs.end.failures', { count: ev.failures.length })));
    const sorted = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
    for (const [reason, files] of sorted.slice(0, MAX_GROUPS)) {
      this.o.line(`  ${t('runs.end.group', { count: files.length, reason: visible(reason) })}`);
      const shown = files.slice(0, GROUP_EXAMPLES).map((f) => visible(f));
      const more = files.length - shown.length;
      this.o.line(
        st.dim(`    ${shown.join(', ')}${more > 0 ? ` ${t('runs.end.andMore', { count: more })}` : ''}`),
      );
    }
    if (sorted.length > MAX_GROUPS)
      this.o.line(
        `  ${t('runs.end.more', { count: sorted.slice(MAX_GROUPS).reduce((n, g) => n + g[1].length, 0), manifest: ev.manifest })}`,
      );
  }
}

/** `part 3/12`, or `combining 2/4` in a combining round. */
export function partText(p: { done: number; total: number; round: number }): string {
  return t(p.round ? 'runs.progress.combining' : 'runs.progress.part', { done: p.done, total: p.total });
}

/** The folder part of an output path as shown (`zhi-output/a.md` → `zhi-output/`). */
function dirOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? './' : path.slice(0, i + 1);
}

/**
 * "Long document: 12 parts", always; the estimate only when it is more than `max_cost_per_run`
 * leaves (a question or a stop follows).
 */
export function longDocumentLines(ev: Extract<FolderEvent, { type: 'long_document' }>, st: Style): string[] {
  const said = ev.joined ? 'runs.longJoined' : 'runs.long';
  const lines = [st.dim(t(said, { file: visible(ev.file), parts: ev.parts }))];
  if (ev.limit !== undefined) {
    const money = (amount: number) => formatCost({ amount, currency: ev.currency as Currency });
    lines.push(
      st.yellow(
        t('runs.longOver', { cost: money(ev.estimate), limit: money(ev.limit), left: money(ev.left ?? 0) }),
      ),
    );
  }
  return lines;
}

/** "3 empty, 2 of other kinds", leaving out a kind there is none of. */
export function skippedParts(count: number, empty: number): string {
  const parts: string[] = [];
  if (empty) parts.push(t('runs.skipped.partEmpty', { count: empty }));
  if (count - empty) parts.push(t('runs.skipped.partOther', { count: count - empty }));
  return parts.join(t('runs.skipped.partSep'));
}
