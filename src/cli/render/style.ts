import pc from 'picocolors';

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

export function makeStyle(enabled: boolean): Style {
  const c = pc.createColors(enabled);
  return {
    enabled,
    dim: c.dim,
    bold: c.bold,
    red: c.red,
    yellow: c.yellow,
    green: c.green,
    cyan: c.cyan,
    gray: c.gray,
    italic: c.italic,
  };
}
