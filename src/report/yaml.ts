import { stringify } from 'yaml';
import type { Diagnosis } from '../engine/diagnosis.js';
import { jsonReplacer, present } from './present.js';
import type { Writer } from './writer.js';

export function reportYaml(d: Diagnosis, out: Writer): void {
  // Round-trip through JSON so the YAML holds exactly the JSON's data (bigint as strings).
  const data: unknown = JSON.parse(JSON.stringify(present(d), jsonReplacer));
  out.write(stringify(data, { lineWidth: 0 }));
}
