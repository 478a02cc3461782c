/** Shapes of the model registry (model-data.ts holds the data, models.ts the look-ups). */

/** One price step: applies when the call's input and output reach these token counts. */
export interface PriceTier {
  minInput?: number;
  minOutput?: number;
  input: number;
  cachedInput: number;
  output: number;
}

/** Per million tokens, in the platform's currency. */
export interface Price {
  input: number;
  cachedInput: number;
  output: number;
  /** Where the price comes from, and when (shown by `zhi models`). */
  source?: string;
  /** Read from a third-party copy, assumed or converted: the cost is shown with "≈". */
  unconfirmed?: boolean;
  /** Steps above the base price, in ascending order; the last one that applies wins. */
  tiers?: PriceTier[];
  /** A fixed price per call (web search), in the platform's currency. */
  perUse?: number;
}

export type Effort = 'low' | 'medium' | 'high' | 'max';

export interface ModelInfo {
  id: string;
  kind: 'chat' | 'vision' | 'ocr' | 'search';
  contextWindow: number;
  maxOutput: number;
  /** Accepts `thinking`. */
  thinking: boolean;
  /** Thinking cannot be disabled (GLM-5.3, GLM-4.5V): `disabled` is never sent. */
  thinkingForced?: boolean;
  /** `reasoning_effort` levels the model takes (GLM-5.2 and later). */
  efforts?: readonly Effort[];
  tools: boolean;
  /** Supports `tool_stream` (GLM-4.6 and later chat models). */
  toolStream: boolean;
  prices: { bigmodel: Price | null; zai: Price | null };
  description: string;
  descriptionZh: string;
  /** Not in the registry: conservative capabilities, no price. */
  unknown?: boolean;
}
