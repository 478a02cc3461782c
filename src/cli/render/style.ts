import { makeTheme } from './theme.js';

/** Colours for one output stream: on only for a terminal, and never with NO_COLOR or --no-color. */
export interface Style {
  enabled: boolean;
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  gray(s: string): string;
  italic(s: string): string;
}

export function colorEnabled(stream: NodeJS.WriteStream, noColorFlag: boolean, env = process.env): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

/** The colours of one stream: the Markdown theme's, of which a Style uses the plain ones. */
export function makeStyle(enabled: boolean): Style {
  return makeTheme(enabled);
}
