// Groups a triage's findings by root cause: the same stage, the same first failing plugin and
// the same distinguishing fact (the taint, the selector entry, the resource, the claim: the
// headline's own group key, messages/summary.ts leadingCause), so that 300 pending pods read
// as the few reasons they wait for. Largest group first; among equals, the order pods came in.
import type { Findings } from '../../engine/diagnosis.js';
import type { Stage } from '../../engine/stage.js';
import type { ObjectRef } from '../../engine/events.js';
import { stageCause } from '../../messages/stages.js';
import { leadingCause } from '../../messages/summary.js';
import type { TriagePodV1 } from './contract.js';

export interface TriageCause {
  stage: Stage;
  /** The filter plugin of the cause, where the stage has node verdicts. */
  plugin?: string;
  /** The kind of detail, or the stage's own kind of cause (a gate, a waiting reason...). */
  reason?: string;
  /** What distinguishes this cause from others of the same plugin and reason; opaque. */
  key: string;
  /**
   * ScaleUpNotPossible refusals: the autoscaler's reasons, each as its plugin or its own kind
   * (maxNodeGroupSize, ...), sorted: pods refused for other reasons are another cause even when
   * the existing nodes fail them alike (the group's headline is one pod's).
   */
  autoscalerReasons?: string[];
}

/** What a triage keeps of each pending pod: its cause, not its verdicts (one per node). */
export interface TriageEntry {
  cause: TriageCause;
  pod: TriagePodV1;
  /** The top of the pod's owner chain (Deployment above ReplicaSet); none for a bare pod. */
  owner: ObjectRef | undefined;
}

export interface TriageGroup {
  cause: TriageCause;
  /** The index, among the triage's entries, of the group's first pod: its diagnosis is shown. */
  first: number;
  entries: TriageEntry[];
}

export function triageEntry(d: Findings): TriageEntry {
  return {
    cause: causeOf(d),
    pod: {
      pod: { namespace: d.pod.namespace, name: d.pod.name ?? '' },
      stage: d.stage,
      ...(d.pod.nodeName ? { nodeName: d.pod.nodeName } : {}),
      ...(d.pod.nominatedNodeName ? { nominatedNodeName: d.pod.nominatedNodeName } : {}),
    },
    owner: d.pod.owners[d.pod.owners.length - 1],
  };
}

function causeOf(d: Findings): TriageCause {
  const s = d.stageDetail;
  const cause = baseCause(d);
  if (s.stage !== 'ScaleUpNotPossible' || s.cause !== 'noScaleUp') return cause;
  return { ...cause, autoscalerReasons: [...new Set(s.reconciliation.reasons.map((r) => r.plugin ?? r.own ?? r.reason))].sort() };
}

function baseCause(d: Findings): TriageCause {
  const s = d.stageDetail;
  // The stage's own cause (messages/stages.ts): a gate, a PodGroup, a missing scheduler...
  const own = stageCause(d);
  const first = own.nodesFirst ? leadingCause(d) : undefined;
  if (first) return { stage: s.stage, ...first };
  if (own.cause) return { stage: s.stage, ...own.cause };
  if (d.counts.fitting > 0) return { stage: s.stage, reason: 'fitsSomewhere', key: '' };
  // Pods that would fit but for room held for the same nominated pods wait on one preemption.
  const held = heldFor(d);
  if (held) return { stage: s.stage, reason: 'heldForNominated', key: held };
  const lead = leadingCause(d);
  if (lead) return { stage: s.stage, ...lead };
  if (d.counts.unproven > 0) return { stage: s.stage, reason: 'unproven', key: '' };
  return { stage: s.stage, reason: d.nodes.length === 0 ? 'noNodes' : 'unknown', key: '' };
}

/** The nominated pods (namespace/name, sorted) whose held room alone keeps the pod off some node. */
function heldFor(d: Findings): string | undefined {
  const pods = new Set<string>();
  for (const n of d.nodes) if (n.nominated?.decides) for (const p of n.nominated.pods) pods.add(`${p.namespace}/${p.name}`);
  return pods.size > 0 ? [...pods].sort().join(',') : undefined;
}

function identity(c: TriageCause): string {
  return JSON.stringify([c.stage, c.plugin ?? '', c.reason ?? '', c.key, c.autoscalerReasons ?? []]);
}

export function groupByCause(entries: readonly TriageEntry[]): TriageGroup[] {
  const groups = new Map<string, TriageGroup>();
  entries.forEach((entry, index) => {
    const id = identity(entry.cause);
    const group = groups.get(id) ?? { cause: entry.cause, first: index, entries: [] };
    group.entries.push(entry);
    groups.set(id, group);
  });
  return [...groups.values()].sort((a, b) => b.entries.length - a.entries.length);
}

/** The top of each pod's owner chain (Deployment above ReplicaSet), with how many pods it has here. */
export function ownersOf(group: TriageGroup): { owner: ObjectRef | undefined; pods: number }[] {
  const counts = new Map<string, { owner: ObjectRef | undefined; pods: number }>();
  for (const { owner: top } of group.entries) {
    const id = top ? `${top.kind}/${top.namespace}/${top.name}` : '';
    const entry = counts.get(id) ?? { owner: top, pods: 0 };
    entry.pods += 1;
    counts.set(id, entry);
  }
  return [...counts.values()].sort((a, b) => b.pods - a.pods);
}
