// The diagnosis as documented data: English added next to each reason, amounts as decimal
// strings in the scheduler's units (millicores for cpu, bytes, counts), quantities also in
// Kubernetes notation where a person reads them. This is what -o json and -o yaml print; its
// type is the documented contract (contract.ts, schema/diagnosis.v1.json).
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Fix } from '../engine/fixes/index.js';
import type { Reason } from '../engine/reasons.js';
import { classifyOps, type AlignedOp } from '../engine/nearmiss/compare.js';
import type { TextDiff } from '../engine/nearmiss/index.js';
import { formatResource } from '../engine/quantity/index.js';
import type { ResourceList } from '../engine/resources/amounts.js';
import { fixText } from '../messages/fixes.js';
import { describeReason } from '../messages/reasons.js';
import { summarySentence } from '../messages/summary.js';
import { toolVersion } from '../version.js';
import type { AsJson, DiagnosisV1, FixV1, QuantitiesV1, ReasonV1 } from './contract.js';
import { byText } from '../engine/order.js';

/** A copy holding what JSON.stringify would write for bigints (decimal strings) and dates. */
function asJson<T>(value: T): AsJson<T>;
function asJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toJSON();
  if (Array.isArray(value)) return value.map((v: unknown) => asJson(v));
  if (value !== null && typeof value === 'object') return eachValue(value, asJson);
  return value;
}

/** A new object with `f` of each own value (for...in: 5,000 nodes' reasons go through this, and entries() pairs would be garbage at once). */
function eachValue(value: object, f: (v: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) out[key] = f((value as Record<string, unknown>)[key]);
  }
  return out;
}

function isTextDiff(value: object): value is TextDiff {
  return 'ops' in value && 'kinds' in value && 'equal' in value && Array.isArray(value.ops);
}

/**
 * Character detail is for near misses, and only the characters that differ: each with its
 * 1-based position in either string. At 5,000 nodes the unchanged characters, each with its
 * Unicode name, were most of the document.
 */
function onlyDifferences<T>(value: T): T;
function onlyDifferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v: unknown) => onlyDifferences(v));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (isTextDiff(value)) return { equal: value.equal, kinds: value.kinds, ops: differencesOf(value) };
  return eachValue(value, onlyDifferences);
}

// The near-miss comparisons are cached by the engine (compareText), so 4,500 nodes' reasons
// share a few diffs: each is classified once. The ops are copied afterwards (asJson), so no two
// places of the document share an object (YAML would write them as an anchor and aliases).
const differences = new WeakMap<TextDiff, readonly AlignedOp[]>();

function differencesOf(diff: TextDiff): readonly AlignedOp[] {
  let ops = differences.get(diff);
  if (!ops) {
    ops = classifyOps(diff.ops)
      .filter((o) => o.op !== 'same')
      .map((o): AlignedOp => ({ op: o.op, ...(o.wanted ? { wanted: o.wanted, wantedPosition: o.wantedPos } : {}), ...(o.actual ? { actual: o.actual, actualPosition: o.actualPos } : {}) }));
    differences.set(diff, ops);
  }
  return ops;
}

function presentReason(reason: Reason): ReasonV1 {
  const detail = asJson(onlyDifferences(reason.detail));
  // The kind before the message, the rest of its data after.
  return Object.assign({ plugin: reason.plugin, code: reason.code, kind: detail.kind, message: describeReason(reason.detail) }, detail);
}

function display(list: ResourceList): QuantitiesV1 {
  return Object.fromEntries(Object.entries(list).sort(([a], [b]) => byText(a, b)).map(([r, v]) => [r, formatResource(r, v)]));
}

function presentFix(fix: Fix): FixV1 {
  const text = fixText(fix);
  return {
    class: fix.class,
    ...(fix.cautions ? { cautions: fix.cautions.map((c) => asJson(c)) } : {}),
    cause: fix.cause,
    change: text.change,
    ...(text.yaml !== undefined ? { yaml: text.yaml } : {}),
    ...(text.command !== undefined ? { command: text.command } : {}),
    makesFit: fix.makesFit,
    ...(fix.unproven.length > 0 ? { unproven: fix.unproven } : {}),
    ...(Object.keys(fix.stillBlockedBy).length > 0 ? { stillBlockedBy: fix.stillBlockedBy } : {}),
    ...(fix.spec ? { target: asJson(fix.spec) } : {}),
    changes: fix.changes.map((c) => asJson(c)),
  };
}

export function present(d: Diagnosis): DiagnosisV1 {
  return {
    apiVersion: d.apiVersion,
    kind: d.kind,
    version: toolVersion,
    summary: summarySentence(d),
    pod: d.pod,
    cluster: d.cluster,
    stage: d.stage,
    stageDetail: asJson(onlyDifferences(d.stageDetail)),
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
      ...(n.nominated ? { nominated: n.nominated } : {}),
      ...(n.disputed ? { disputed: true } : {}),
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
      ...(d.scheduler.evidence ? { evidence: d.scheduler.evidence } : {}),
    },
    ownerEvents: d.ownerEvents,
    notes: d.notes.map((n) => asJson(n)),
    gaps: d.gaps,
    fixes: d.fixes.map(presentFix),
  };
}
