/** One slide as the model describes it (pptx.ts reads it, pptx-fit.ts fits it to the page). */
import type { Table } from './payload.js';

export interface SlideSpec {
  title: string;
  subtitle?: string;
  bullets: { text: string; level: number }[];
  text: string[];
  table?: Table;
  image?: string;
  notes: string;
}
