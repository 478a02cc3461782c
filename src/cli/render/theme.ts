import pc from 'picocolors';

export type Paint = (s: string) => string;

/**
 * The colours of rendered Markdown and of the REPL's own lines. With colour off every paint is
 * the identity, and `enabled` tells renderers to fall back to plain-text markers (`#`, `|`, `-`).
 */
export interface Theme {
  enabled: boolean;
  bold: Paint;
  italic: Paint;
  dim: Paint;
  underline: Paint;
  strike: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  blue: Paint;
  magenta: Paint;
  cyan: Paint;
  gray: Paint;
}

export function makeTheme(enabled: boolean): Theme {
  const c = pc.createColors(enabled);
  return {
    enabled,
    bold: c.bold,
    italic: c.italic,
    dim: c.dim,
    underline: c.underline,
    strike: c.strikethrough,
    red: c.red,
    green: c.green,
    yellow: c.yellow,
    blue: c.blue,
    magenta: c.magenta,
    cyan: c.cyan,
    gray: c.gray,
  };
}

/** Apply `outer` around `inner`: compose(bold, italic)(s) is bold italic. */
export function compose(outer: Paint | undefined, inner: Paint | undefined): Paint | undefined {
  if (!outer) return inner;
  if (!inner) return outer;
  return (s) => outer(inner(s));
}
