// What the page reads from the server (docs/web-api.md): only the fields it draws. Every string in
// here came from outside the page (the model, a document, a file name) and is drawn as text.

export interface ModelInfo {
  id: string;
  label: string;
  thinks?: boolean;
  vision?: boolean;
}

export interface Status {
  version: string;
  language: 'en' | 'zh';
  configured: boolean;
  platform?: string;
  model?: string;
  models: ModelInfo[];
  cwd: string;
  outputDir?: string;
  sandbox?: { available: boolean; note?: string };
}

export interface ErrorBody {
  code: string;
  message: string;
  advice?: string;
  suggestions?: string[];
}

export interface Conversation {
  id: string;
  title: string;
  updatedAt: string;
  kind?: string;
  model?: string;
  running?: boolean;
}

export type HistoryItem =
  | { role: 'user'; text: string; attachments?: string[] }
  | { role: 'assistant'; text: string; thinking?: string }
  | { role: 'tool'; label: string; ok: boolean; summary?: string };

export interface ConversationDetail {
  id: string;
  title: string;
  model?: string;
  running?: boolean;
  items: HistoryItem[];
}

export interface Upload {
  id: string;
  name: string;
  path: string;
  size: number;
}

export interface Skill {
  name: string;
  description: string;
  source?: string;
  model?: string;
  inputs?: unknown;
}

/** The `--dry-run` estimate: its figures, and the terminal's words (`lines`). */
export interface Estimate {
  files?: number;
  tokens?: number;
  currency?: string;
  price?: number;
  covered?: boolean;
  /** Absent when the skill cannot run as a batch job. */
  batchPrice?: number;
  text: string;
  lines: string[];
}

/** A skill run of this server (`live`) or a folder's run record (`record`, from any zhi). */
export type RunRecord =
  | {
      id: string;
      kind: 'live';
      skill: string;
      inputs: string[];
      batch?: boolean;
      state: 'running' | 'done' | 'stopped' | 'failed';
      startedAt: string;
      result?: { stopReason?: string; error?: ErrorBody };
    }
  | {
      id: string;
      kind: 'record';
      skill: string;
      folder: string;
      model?: string;
      startedAt: string;
      updatedAt?: string;
      done: number;
      failed: { file: string; error: string }[];
      batch?: { id: string; status: string; text: string };
    };

export interface BatchJob {
  id: string;
  status: string;
  text: string;
  counts?: { total: number; completed: number; failed: number };
  skill?: string;
  createdAt?: string;
}

export interface OutputFile {
  path: string;
  size: number;
  mtime: string | number;
  kind?: string;
}

export type Preview =
  | { kind: 'table'; sheets: { name: string; rows: string[][] }[] }
  | { kind: 'text'; text: string };

export interface UsageDay {
  date: string;
  cost: number;
  tokens: number;
  byModel: Record<string, number>;
  bySkill: Record<string, number>;
}

export interface Usage {
  days: UsageDay[];
  currency: string;
}

export interface McpServer {
  name: string;
  state: string;
  transport?: string;
  trust?: string;
  tools?: number | string[];
  error?: string;
}

export interface DoctorCheck {
  ok: boolean;
  level: 'ok' | 'note' | 'optional' | 'problem';
  text: string;
  advice?: string;
}

export interface Counts {
  total: number;
  done: number;
  failed: number;
  earlier: number;
}

export interface Cost {
  amount: number;
  currency: string;
  covered?: boolean;
  approx?: boolean;
}

/** The run events the page draws (the shape `--output-format stream-json` writes); others are ignored. */
export type RunEvent =
  | { type: 'user'; message?: { content?: unknown }; typed?: string; note?: true }
  | { type: 'turn_start'; turn: number; model: string }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'message'; message?: { role?: string; content?: unknown } }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: { message: string } }
  | { type: 'tool_start'; id: string; label: string; name: string }
  | { type: 'tool_end'; id: string; label: string; ok: boolean; result?: string; display?: string[] }
  | {
      type: 'permission';
      id: string;
      name?: string;
      decision: string;
      notice?: string;
      reason?: string;
      code?: string;
    }
  | { type: 'progress'; id: string; note: string }
  | { type: 'usage'; model: string; cost: Cost; usage?: Record<string, unknown> }
  | { type: 'warning'; message: string }
  | { type: 'error'; error: ErrorBody }
  | { type: 'done'; result: { stopReason: string; text?: string; error?: ErrorBody } & Partial<ErrorBody> }
  | { type: 'nested'; chain: string[]; event: RunEvent }
  | { type: 'skill_start'; skill: string; model: string }
  | { type: 'skill_step'; skill: string; index: number; total: number; label: string }
  | {
      type: 'folder_start';
      skill: string;
      counts: Counts;
      todo: number;
      jobs: number;
      currency: string;
    }
  | {
      type: 'folder_file';
      file: string;
      index: number;
      status: string;
      counts: Counts;
      spent: number;
      cost?: number;
      outputs?: string[];
      reason?: string;
    }
  | {
      type: 'folder_batch';
      phase: string;
      id: string;
      status: string;
      total?: number;
      completed?: number;
      failed?: number;
    }
  | { type: 'folder_wait'; phase: string; ms?: number }
  | {
      type: 'folder_end';
      counts: Counts;
      spent: number;
      currency: string;
      failures: { file: string; reason: string }[];
      saved?: number;
      outputs: { file: string; outputs: string[] }[];
      notStarted: number;
      interrupted: number;
    };

/**
 * A question waiting for a person, worded by the terminal's own functions: `lines` already hold
 * the call, then its warning and the sandbox summary, as the terminal shows them.
 */
export interface Approval {
  id: string;
  kind: 'tool' | 'question';
  title: string;
  lines: string[];
  danger?: boolean;
  warning?: string;
  sandbox?: string;
  canAlways: boolean;
  /** What "always" covers, in the terminal's words. */
  alwaysLabel?: string;
  /** Answers that widen this one call (write in the folder, use the network): sent with `yes`. */
  choices?: { key: string; label: string }[];
  /** The terminal's question line ("Allow? [y/N]"). */
  question?: string;
}
