/** Text styles as functions; all of them return the text unchanged when colour is off. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  strike(text: string): string;
  inverse(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
  gray(text: string): string;
}

type StyleName = Exclude<keyof Style, 'enabled'>;

// [open, close] SGR parameters. Closers are per attribute, so styles nest.
const CODES: Record<StyleName, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  inverse: [7, 27],
  strike: [9, 29],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
};

function styler(open: number, close: number): (text: string) => string {
  const openSeq = `\x1b[${open}m`;
  const closeSeq = `\x1b[${close}m`;
  // bold and dim share a closer: an inner close must re-open the outer style.
  return (text) => (text ? openSeq + text.split(closeSeq).join(closeSeq + openSeq) + closeSeq : text);
}

/** Builds the style functions; with `enabled` false every function is the identity. */
export function createStyle(enabled: boolean): Style {
  const identity = (text: string) => text;
  const style = { enabled } as Record<string, unknown>;
  for (const [name, [open, close]] of Object.entries(CODES)) style[name] = enabled ? styler(open, close) : identity;
  return style as unknown as Style;
}

/**
 * Whether to colour output: never with NO_COLOR (any non-empty value, see no-color.org), TERM=dumb
 * or a stream that is not a terminal; FORCE_COLOR overrides the terminal check.
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}
