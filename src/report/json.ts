import type { Diagnosis } from '../engine/diagnosis.js';
import { unicodeEscapeControls } from './escape.js';
import { present } from './present.js';
import type { Writer } from './writer.js';

export function reportJson(d: Diagnosis, out: Writer): void {
  // The same strings, with the controls JSON.stringify leaves raw written as \u escapes.
  out.write(`${unicodeEscapeControls(JSON.stringify(present(d), null, 2))}\n`);
}
