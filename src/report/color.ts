// A few ANSI styles, off unless the CLI decided the terminal takes them.
export interface Palette {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
  /** Every control sequence this palette writes: the only ones the human report lets through. */
  readonly sequences: readonly string[];
}

const codes = { red: [31, 39], green: [32, 39], yellow: [33, 39], bold: [1, 22], dim: [2, 22] } as const;

const sgr = (code: number) => `\u001b[${code}m`;
const wrap = ([open, close]: readonly [number, number]) => (s: string) => `${sgr(open)}${s}${sgr(close)}`;

export function palette(enabled: boolean): Palette {
  if (!enabled) return { red: (s) => s, green: (s) => s, yellow: (s) => s, bold: (s) => s, dim: (s) => s, sequences: [] };
  const sequences = [...new Set(Object.values(codes).flat())].map(sgr);
  return { red: wrap(codes.red), green: wrap(codes.green), yellow: wrap(codes.yellow), bold: wrap(codes.bold), dim: wrap(codes.dim), sequences };
}
