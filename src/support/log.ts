import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redact, redactDeep } from './redact.js';

/** A small file logger: zhi.log rotated at 5 MB, three files kept. `--debug` mirrors to stderr. Every line is redacted. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export const MAX_LOG_BYTES = 5 * 1024 * 1024;
export const LOG_FILES = 3;

export interface Logger {
  debug(msg: string, data?: unknown): void;
  info(msg: string, data?: unknown): void;
  warn(msg: string, data?: unknown): void;
  error(msg: string, data?: unknown): void;
}

interface LoggerOptions {
  dir?: string | undefined;
  level?: LogLevel;
  stderr?: boolean;
  maxBytes?: number;
}

let active: Logger = createLogger({});

export function log(): Logger {
  return active;
}

export function setLogger(logger: Logger): void {
  active = logger;
}

export function createLogger(opts: LoggerOptions): Logger {
  const min = order[opts.level ?? 'info'];
  const maxBytes = opts.maxBytes ?? MAX_LOG_BYTES;
  let ready = false;
  const file = opts.dir ? join(opts.dir, 'zhi.log') : undefined;
  const write = (level: LogLevel, msg: string, data?: unknown) => {
    // The key, tokens and URL credentials never reach the log file or --debug output. Data is
    // redacted before it becomes JSON, so a replacement can never break the line's escaping.
    const line = `${new Date().toISOString()} ${level.toUpperCase()} ${redact(msg)}${data === undefined ? '' : ` ${safeJson(redactDeep(data))}`}\n`;
    if (opts.stderr) process.stderr.write(`[debug] ${line}`);
    if (!file || order[level] < min) return;
    try {
      if (!ready) {
        mkdirSync(opts.dir!, { recursive: true, mode: 0o700 });
        ready = true;
      }
      rotateIfNeeded(file, maxBytes);
      appendFileSync(file, line, { mode: 0o600 });
    } catch {
      // Logging must never break the app (full disk, read-only home…).
    }
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}

function rotateIfNeeded(file: string, maxBytes: number): void {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    return;
  }
  if (size < maxBytes) return;
  for (let i = LOG_FILES - 1; i >= 1; i--) {
    const from = i === 1 ? file : `${file}.${i - 1}`;
    try {
      renameSync(from, `${file}.${i}`);
    } catch {
      // missing generation: nothing to move
    }
  }
}

function safeJson(data: unknown): string {
  try {
    return JSON.stringify(data, (_k, v) =>
      v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v,
    );
  } catch {
    return String(data);
  }
}
