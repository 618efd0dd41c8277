import type { Diagnosis } from '../engine/diagnosis.js';
import { jsonReplacer, present } from './present.js';
import type { Writer } from './writer.js';

export function reportJson(d: Diagnosis, out: Writer): void {
  out.write(`${JSON.stringify(present(d), jsonReplacer, 2)}\n`);
}
