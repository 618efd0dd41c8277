// The reporters, by output format. `-o` offers exactly these keys (cli/options.ts) and the CLI
// calls the one chosen: a format is added here, or it does not exist.
import type { Diagnosis } from '../engine/diagnosis.js';
import { reportHuman } from './human/index.js';
import { reportJson } from './json.js';
import { reportMarkdown } from './markdown/index.js';
import { reportYaml } from './yaml.js';
import type { Writer } from './writer.js';

/** Turns a diagnosis into text on `out`. Never touches `process`. */
export type Reporter = (diagnosis: Diagnosis, out: Writer) => void;

const byFormat = {
  human: (d, out) => reportHuman(d, out, { wide: false }),
  wide: (d, out) => reportHuman(d, out, { wide: true }),
  json: reportJson,
  yaml: reportYaml,
  markdown: reportMarkdown,
} satisfies Record<string, Reporter>;

export type Output = keyof typeof byFormat;

export const reporters: Readonly<Record<Output, Reporter>> = byFormat;

/** The `-o` choices, in the order --help lists them. */
export const outputs = Object.keys(reporters) as Output[];
