// The triage reporters, one per -o format (the same choices as a single diagnosis's).
import type { Output } from '../index.js';
import { unicodeEscapeControls } from '../escape.js';
import type { Writer } from '../writer.js';
import { toYaml } from '../yaml.js';
import type { TriageV1 } from './contract.js';
import { reportTriageHuman } from './human.js';
import { reportTriageMarkdown } from '../markdown/triage.js';

export const triageReporters: Readonly<Record<Output, (t: TriageV1, out: Writer) => void>> = {
  human: reportTriageHuman,
  // The groups have no node table to widen.
  wide: reportTriageHuman,
  json: (t, out) => out.write(`${unicodeEscapeControls(JSON.stringify(t, null, 2))}\n`),
  yaml: (t, out) => out.write(toYaml(t)),
  markdown: reportTriageMarkdown,
};
