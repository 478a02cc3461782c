/** The catalogue's types, apart from index.ts so the catalogue modules can name a language without importing the module that imports them. */
import type { messages } from './messages/index.js';

export type Language = 'en' | 'zh';
export type MessageKey = keyof typeof messages.en;
export type Params = Record<string, string | number>;
