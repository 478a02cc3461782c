/** A chat completion as the API sends it: one streamed chunk, or the whole answer (wire JSON). */
import type { ToolCallDelta } from './accumulate.js';
import type { RawUsage } from './usage-parse.js';

export interface ChunkJson {
  error?: { code?: unknown; message?: unknown };
  model?: string;
  choices?: Array<{
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ToolCallDelta[] };
    message?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ToolCallDelta[] };
    finish_reason?: string | null;
  }>;
  usage?: RawUsage;
}
