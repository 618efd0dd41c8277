// A few ANSI styles, off unless the CLI decided the terminal takes them.
export interface Palette {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function palette(enabled: boolean): Palette {
  if (!enabled) return { red: (s) => s, green: (s) => s, yellow: (s) => s, bold: (s) => s, dim: (s) => s };
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), bold: wrap(1, 22), dim: wrap(2, 22) };
}
