import { type MessageKey, type Params, t } from './i18n/index.js';

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

export interface ZhiErrorInit {
  kind: ErrorKind;
  what: ErrorText;
  why?: ErrorText | string | undefined;
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
  readonly why: ErrorText | string | undefined;
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
    return typeof this.why === 'string' ? this.why : t(this.why.key, this.why.params);
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
      why: e.message,
      tries: [{ key: 'cli.try.freeSpace' }],
      cause: err,
    });
  }
  if (e && typeof e === 'object' && (e.code === 'EACCES' || e.code === 'EPERM')) {
    return new ZhiError({
      kind: 'io',
      what: { key: 'cli.err.permission' },
      why: e.message,
      tries: [{ key: 'cli.try.permissions' }],
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ZhiError({
    kind: 'internal',
    what: { key: 'cli.err.unexpected' },
    why: message,
    tries: [{ key: 'cli.try.debug' }],
    cause: err,
  });
}
