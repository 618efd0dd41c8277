// The library: what the CLI runs, for other programs (an MCP server, a bot, a test). It reads a
// dump, diagnoses one pod or triages a scope with the registry's rules, and answers in the
// published JSON contract (schema/diagnosis.v1.json, schema/triage.v1.json) or in the text of
// any -o format. The CLI diagnoses and triages through `diagnosePod` and `triagePods` here: one
// path. What may change within v1 is written in README ("The JSON contract").
import { diagnose as diagnoseWith, type Outcome } from './engine/diagnose.js';
import type { Findings } from './engine/diagnosis.js';
import type { Query } from './engine/target.js';
import { triage as triageWith, type Triage, type TriageScope } from './engine/triage.js';
import { describeNotFound } from './messages/errors.js';
import { ruleSet } from './messages/registry.js';
import type { DiagnosisV1 } from './report/contract.js';
import { reporters, type Output } from './report/index.js';
import { present } from './report/present.js';
import type { TriageV1 } from './report/triage/contract.js';
import { triageReporters } from './report/triage/index.js';
import { triageEntry } from './report/triage/group.js';
import { presentTriage } from './report/triage/present.js';
import { readDump as readDumpFrom } from './sources/dump/read.js';
import type { Snapshot } from './snapshot/types.js';

export type { DiagnosisV1, Output, Snapshot, TriageV1 };

/** Reads a dump as `--from-dump` does: a file, a folder of files, or `-` for standard input. */
export function readDump(path: string): Promise<Snapshot> {
  return readDumpFrom(path, process.stdin);
}

/** The engine's answer for one pod, with the registry's rules (the CLI's path). */
export function diagnosePod(snapshot: Snapshot, query: Query): Outcome {
  return diagnoseWith(ruleSet, snapshot, query);
}

/** The engine's answers for every pending pod of a scope, as `keep` keeps each (the CLI's path). */
export function triagePods<T>(snapshot: Snapshot, scope: TriageScope, keep: (found: Findings) => T): Triage<T> {
  return triageWith(ruleSet, snapshot, scope, keep);
}

/** What -o writes, as a string. */
function textOf(write: (out: { write(s: string): void; color: boolean; columns: number | undefined }) => void): string {
  let text = '';
  write({ write: (s) => (text += s), color: false, columns: undefined });
  return text;
}

export type DiagnoseResult =
  | { kind: 'diagnosis'; json: DiagnosisV1; text(format?: Output): string }
  | { kind: 'notFound'; message: string };

/** Diagnoses `query` (a pod's name, or an owner's: `deploy/web`) in `snapshot`. */
export function diagnose(snapshot: Snapshot, query: { namespace: string; name: string }): DiagnoseResult {
  const outcome = diagnosePod(snapshot, query);
  if (outcome.kind === 'notFound') return { kind: 'notFound', message: describeNotFound(outcome, snapshot.source.description) };
  const d = outcome.diagnosis;
  return { kind: 'diagnosis', json: present(d), text: (format = 'human') => textOf((out) => reporters[format](d, out)) };
}

export interface TriageResult {
  json: TriageV1;
  text(format?: Output): string;
}

/** Triages the pending pods of a namespace (or of every namespace: no namespace). */
export function triage(snapshot: Snapshot, scope: { namespace?: string } = {}): TriageResult {
  const json = presentTriage({ scope, source: snapshot.source, ...triagePods(snapshot, scope, triageEntry) });
  return { json, text: (format = 'human') => textOf((out) => triageReporters[format](json, out)) };
}
