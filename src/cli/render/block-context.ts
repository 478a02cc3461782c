/** What drawing a Markdown block needs: the width and the theme (markdown.ts, table.ts). */
import type { Theme } from './theme.js';

export interface BlockContext {
  width: number;
  theme: Theme;
}
