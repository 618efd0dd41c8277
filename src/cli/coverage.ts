// The tags a run gives the launcher's code cache (codeCache.ts), which is written again when a
// run covers a tag its header lacks: what decides which of the CLI's code a run compiles. Beside
// the command, the source and the output: the stage, each kind of failing reason (each key of the
// engine's tally: a plugin, or a plugin and its resource) and each kind of fix (a triage's findings
// have none: it proposes fixes for the pods it shows only). A bounded set, so a machine's cache
// is written a few times, then kept.
import type { Diagnosis, Findings } from '../engine/diagnosis.js';

export function diagnosisCoverage(diagnosis: Diagnosis | Findings): string[] {
  return [
    `stage:${diagnosis.stage}`,
    ...Object.keys(diagnosis.scheduler.engineTally).map((key) => `reason:${key}`),
    ...('fixes' in diagnosis ? diagnosis.fixes : []).flatMap((fix) => fix.changes.map((change) => `fix:${change.kind}`)),
  ];
}
