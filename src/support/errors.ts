import { type MessageKey, type Params, type Shown, t } from './i18n/index.js';

/** Exit codes, exactly as design.md §2 promises. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  turnLimit: 4,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** How a model call can fail (design.md §1): the client ends a failed call with one of these. */
export type ApiErrorKind =
  | 'auth'
  | 'balance'
  | 'rate_limit'
  | 'overloaded'
  | 'context_overflow'
  | 'content_filter'
  | 'bad_request'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted';

/** Error kinds: the API's, and those that belong to zhi itself. */
export type ErrorKind = ApiErrorKind | 'config' | 'usage' | 'turn_limit' | 'budget' | 'io' | 'internal';

export interface ErrorText {
  key: MessageKey;
  params?: Params;
}

/**
 * Words zhi did not write — the platform's error message, the operating system's — shown to the
 * person as a quote with who said it, never as zhi's own sentence. Text written for the model
 * (a ToolError's English) is neither: the person gets a catalogue message instead.
 */
export interface Quoted {
  said: string;
  /** Who said it, in the catalogue (`cli.by.platform`: "the platform"). */
  by: MessageKey;
}

export const quoted = (said: string, by: MessageKey): Quoted => ({ said, by });

/** Why something failed: a catalogue message (as a key, or made by `t()`), or someone else's words marked as theirs. */
export type WhyText = ErrorText | Shown | Quoted;

export interface ZhiErrorInit {
  kind: ErrorKind;
  what: ErrorText;
  why?: WhyText | undefined;
  tries?: ErrorText[];
  exitCode?: ExitCodeValue;
  cause?: unknown;
}

/**
 * An error a person reads: what happened, why (if known), and what to try. Text is resolved at
 * render time so the language can change after the error was made.
 */
export class ZhiError extends Error {
  readonly kind: ErrorKind;
  readonly what: ErrorText;
  readonly why: WhyText | undefined;
  readonly tries: ErrorText[];
  readonly exitCode: ExitCodeValue;

  constructor(init: ZhiErrorInit) {
    super(t(init.what.key, init.what.params, 'en'), { cause: init.cause });
    this.name = 'ZhiError';
    this.kind = init.kind;
    this.what = init.what;
    this.why = init.why;
    this.tries = init.tries ?? [];
    this.exitCode = init.exitCode ?? defaultExitCode(init.kind);
  }

  whatText(): string {
    return t(this.what.key, this.what.params);
  }

  whyText(): string | undefined {
    if (this.why === undefined) return undefined;
    if (typeof this.why === 'string') return this.why;
    return 'said' in this.why
      ? t('cli.why.said', { by: t(this.why.by), said: this.why.said })
      : t(this.why.key, this.why.params);
  }

  tryTexts(): string[] {
    return this.tries.map((x) => t(x.key, x.params));
  }
}

/**
 * The one table from how something ended to its exit code (design.md §2). Every mode — one-shot,
 * pipe, `zhi run`, folder runs, `zhi skill new`, the commands — ends through it: an error's kind
 * gives its code, and a run's stop reason is read as the kind it stands for.
 */
const EXIT_BY_KIND: Partial<Record<ErrorKind, ExitCodeValue>> = {
  auth: ExitCode.config,
  balance: ExitCode.config,
  config: ExitCode.config,
  usage: ExitCode.usage,
  turn_limit: ExitCode.turnLimit,
  aborted: ExitCode.interrupted,
};

export function defaultExitCode(kind: ErrorKind): ExitCodeValue {
  return EXIT_BY_KIND[kind] ?? ExitCode.failure;
}

/** A finished run as the exit code sees it (the agent's result has this shape). */
export interface RunOutcome {
  stopReason: 'answer' | 'turn_limit' | 'error' | 'aborted' | 'budget';
  error?: { exitCode: ExitCodeValue } | undefined;
}

/** The exit code of a finished run: 0 for an answer, else its stop reason's or its error's. */
export function exitCodeOf(result: RunOutcome): ExitCodeValue {
  switch (result.stopReason) {
    case 'answer':
      return ExitCode.ok;
    case 'turn_limit':
    case 'aborted':
      return defaultExitCode(result.stopReason);
    default:
      return result.error?.exitCode ?? ExitCode.failure;
  }
}

/** Wrap anything thrown into a ZhiError so every failure renders the same way. */
export function toZhiError(err: unknown): ZhiError {
  if (err instanceof ZhiError) return err;
  const e = err as NodeJS.ErrnoException | undefined;
  if (e && typeof e === 'object' && e.name === 'AbortError') {
    return new ZhiError({ kind: 'aborted', what: { key: 'cli.interrupted' } });
  }
  if (e && typeof e === 'object' && (e.code === 'ENOSPC' || e.code === 'EDQUOT')) {
    return new ZhiError({
      kind: 'io',
      what: { key: 'cli.err.diskFull' },
      why: quoted(e.message, 'cli.by.system'),
      tries: [{ key: 'cli.try.freeSpace' }],
      cause: err,
    });
  }
  if (e && typeof e === 'object' && (e.code === 'EACCES' || e.code === 'EPERM')) {
    return new ZhiError({
      kind: 'io',
      what: { key: 'cli.err.permission' },
      why: quoted(e.message, 'cli.by.system'),
      tries: [{ key: 'cli.try.permissions' }],
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ZhiError({
    kind: 'internal',
    what: { key: 'cli.err.unexpected' },
    why: quoted(message, 'cli.by.program'),
    tries: [{ key: 'cli.try.debug' }],
    cause: err,
  });
}
