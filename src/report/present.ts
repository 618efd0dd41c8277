// The diagnosis as documented data: English added next to each reason, amounts as decimal
// strings in the scheduler's units (millicores for cpu, bytes, counts), quantities also in
// Kubernetes notation where a person reads them. This is what -o json and -o yaml print.
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Reason } from '../engine/model.js';
import { formatResource } from '../engine/quantity/index.js';
import type { ResourceList } from '../engine/resources/amounts.js';
import { describeReason } from '../messages/reasons.js';
import { summarySentence } from '../messages/summary.js';

function presentReason(reason: Reason): Record<string, unknown> {
  const { kind, ...data } = reason.detail;
  return { plugin: reason.plugin, code: reason.code, kind, message: describeReason(reason.detail), ...data };
}

function display(list: ResourceList): Record<string, string> {
  return Object.fromEntries(Object.entries(list).sort(([a], [b]) => a.localeCompare(b)).map(([r, v]) => [r, formatResource(r, v)]));
}

export function present(d: Diagnosis): Record<string, unknown> {
  return {
    apiVersion: d.apiVersion,
    kind: d.kind,
    summary: summarySentence(d),
    pod: d.pod,
    stage: d.stage,
    stageDetail: d.stageDetail,
    ...(d.requests
      ? {
          requests: {
            total: display(d.requests.total),
            containers: display(d.requests.parts.containers),
            sidecars: display(d.requests.parts.sidecars),
            initPeak: display(d.requests.parts.initPeak),
            podLevel: display(d.requests.parts.podLevel),
            overhead: display(d.requests.parts.overhead),
            origins: d.requests.origins,
          },
        }
      : {}),
    preFilter: d.preFilter.map(presentReason),
    nodes: d.nodes.map((n) => ({
      name: n.name,
      fits: n.fits,
      verdict: n.verdict,
      ...(n.reasons[0] ? { firstPlugin: n.reasons[0].plugin } : {}),
      reasons: n.reasons.map(presentReason),
      ...(n.unchecked.length > 0 ? { unchecked: n.unchecked } : {}),
    })),
    counts: d.counts,
    notChecked: d.notChecked,
    scheduler: {
      source: d.scheduler.source,
      ...(d.scheduler.message !== undefined ? { message: d.scheduler.message } : {}),
      ...(d.scheduler.conditionReason ? { conditionReason: d.scheduler.conditionReason } : {}),
      truncated: d.scheduler.truncated,
      agrees: d.scheduler.agrees,
      schedulerTally: d.scheduler.schedulerTally,
      engineTally: d.scheduler.engineTally,
      differences: d.scheduler.differences,
      likelyCauses: d.scheduler.likelyCauses,
    },
    ownerEvents: d.ownerEvents,
    notes: d.notes,
    gaps: d.gaps,
  };
}

/** JSON.stringify cannot write bigint: amounts become decimal strings. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
