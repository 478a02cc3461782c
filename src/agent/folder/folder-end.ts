import { pushAll } from '../../support/arrays.js';
import { ZhiError } from '../../support/errors.js';
import { type Shown, t } from '../../support/i18n/index.js';
import { type AgentResult, emptyResult } from '../events.js';
import type { FolderCounts, FolderEvent, SkippedFiles } from './events.js';
import type { RunManifest } from './manifest.js';

/** One file's end as the pool sees it. */
export interface FileResult {
  result?: AgentResult;
  error?: ZhiError;
  cost: number;
  outputs: string[];
  /** Why a file that answered is still not done (an output not written), in the person's language. */
  notWritten?: string;
}

/** The error kinds after which no other file should start: they would all fail the same way. */
export const STOP_KINDS = new Set(['balance', 'auth', 'budget', 'config']);

/** Why a file failed, in the person's language. */
export function reasonOf(r: FileResult | undefined): string {
  if (r?.notWritten) return r.notWritten;
  const err = r?.error ?? r?.result?.error;
  if (err) return err.whyText() ? `${err.whatText()} ${err.whyText()}` : err.whatText();
  if (r?.result?.stopReason === 'turn_limit') return t('runs.reason.turnLimit');
  if (r?.result?.stopReason === 'aborted') return t('runs.reason.aborted');
  return t('runs.reason.unknown');
}

export interface FolderEnd {
  skill: string;
  currency: string;
  files: string[];
  todo: number[];
  outcomes: { status: string; value?: FileResult | undefined }[];
  stopped: boolean;
  aborted: boolean;
  manifest: RunManifest;
  counts: FolderCounts;
  spent: number;
  saved?: number;
  show: (abs: string) => string;
  relOf: (abs: string) => string;
  skipped?: SkippedFiles;
}

/** What the folder's files came to, in folder order: answers, failures, outputs. */
interface Tally {
  total: AgentResult;
  sections: string[];
  failures: { file: string; reason: string }[];
  outputs: { file: string; outputs: string[] }[];
  stopError?: ZhiError;
  notStarted: number;
  interrupted: number;
}

/**
 * The end of a folder run: every file's answer under its name in folder order (earlier runs'
 * from the manifest), the failures with their reasons, the index of what was written, and the
 * run's verdict (the stop error of a 1113, interrupted, or how many failed).
 */
export function finishFolder(o: FolderEnd): { result: AgentResult; event: FolderEvent } {
  const tally = tallyFiles(o);
  const total = tally.total;
  total.text =
    o.files.length === 1
      ? (tally.sections[0] ?? '').replace(/^## [^\n]*\n\n/, '')
      : tally.sections.join('\n\n');
  if (tally.stopError) {
    total.stopReason = 'error';
    total.error = tally.stopError;
  } else if (o.aborted) {
    total.stopReason = 'aborted';
  } else if (tally.failures.length) {
    total.stopReason = 'error';
    total.error = new ZhiError({
      kind: 'internal',
      what: {
        key: 'skills.err.someFailed',
        params: { failed: tally.failures.length, total: o.files.length },
      },
      why: failedNames(tally.failures, o.show(o.manifest.path)),
      exitCode: 1,
    });
  }
  const event: FolderEvent = {
    type: 'folder_end',
    skill: o.skill,
    counts: { ...o.counts },
    spent: o.spent,
    ...(o.saved ? { saved: o.saved } : {}),
    currency: o.currency,
    failures: tally.failures,
    outputs: tally.outputs,
    notStarted: tally.notStarted,
    interrupted: tally.interrupted,
    manifest: o.show(o.manifest.path),
    ...(o.skipped ? { skipped: o.skipped } : {}),
  };
  return { result: total, event };
}

/** Files named in the closing error; past them, how many more and where all are listed. */
const NAMED_FAILURES = 5;

function failedNames(failures: { file: string }[], manifest: string): Shown {
  const named = failures.slice(0, NAMED_FAILURES).map((f) => f.file);
  if (failures.length <= NAMED_FAILURES) return t('runs.end.failedList', { files: named.join(', ') });
  return t('runs.end.failedNames', {
    files: named.join(', '),
    count: failures.length - NAMED_FAILURES,
    manifest,
  });
}

function tallyFiles(o: FolderEnd): Tally {
  const tally: Tally = {
    total: emptyResult(),
    sections: [],
    failures: [],
    outputs: [],
    notStarted: 0,
    interrupted: 0,
  };
  const byFile = new Map<number, { status: string; value?: FileResult | undefined }>();
  for (const [n, fileIndex] of o.todo.entries()) byFile.set(fileIndex, o.outcomes[n]!);
  for (const [i, file] of o.files.entries()) {
    const name = o.show(file);
    const outcome = byFile.get(i);
    const r = outcome?.value;
    if (!outcome) {
      // Done by an earlier run: its answer and outputs come from the manifest.
      const entry = o.manifest.entry(o.relOf(file));
      if (entry?.text) tally.sections.push(`## ${name}\n\n${entry.text.trim()}`);
      if (entry?.outputs.length) tally.outputs.push({ file: name, outputs: entry.outputs });
      continue;
    }
    // Put back or never reached: not started. Running when Ctrl+C came: stopped mid-way.
    if (outcome.status === 'skipped') {
      tally.notStarted += 1;
      continue;
    }
    if (r?.result?.stopReason === 'aborted' || r?.error?.kind === 'aborted') {
      tally.interrupted += 1;
      continue;
    }
    if (r?.result) {
      tally.total.turns += r.result.turns;
      tally.total.toolCalls += r.result.toolCalls;
      tally.total.filesRead += r.result.filesRead;
      pushAll(tally.total.filesWritten, r.result.filesWritten);
      if (r.result.text) tally.sections.push(`## ${name}\n\n${r.result.text.trim()}`);
    }
    if (r?.outputs.length) tally.outputs.push({ file: name, outputs: r.outputs });
    if (outcome.status === 'failed') {
      tally.failures.push({ file: name, reason: reasonOf(r) });
      const err = r?.error ?? r?.result?.error;
      if (o.stopped && err && STOP_KINDS.has(err.kind)) tally.stopError ??= err;
    }
  }
  return tally;
}
