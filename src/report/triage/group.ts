// Groups a triage's diagnoses by root cause: the same stage, the same first failing plugin and
// the same distinguishing fact (the taint, the selector entry, the resource, the claim: the
// headline's own group key, messages/summary.ts leadingCause), so that 300 pending pods read
// as the few reasons they wait for. Largest group first; among equals, the order pods came in.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { Stage } from '../../engine/stage.js';
import type { ObjectRef } from '../../engine/events.js';
import { leadingCause } from '../../messages/summary.js';

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

export interface TriageGroup {
  cause: TriageCause;
  diagnoses: Diagnosis[];
}

function causeOf(d: Diagnosis): TriageCause {
  const s = d.stageDetail;
  const cause = baseCause(d);
  if (s.stage !== 'ScaleUpNotPossible' || s.cause !== 'noScaleUp') return cause;
  return { ...cause, autoscalerReasons: [...new Set(s.reconciliation.reasons.map((r) => r.plugin ?? r.own ?? r.reason))].sort() };
}

function baseCause(d: Diagnosis): TriageCause {
  const s = d.stageDetail;
  switch (s.stage) {
    case 'SchedulingGated':
      return { stage: s.stage, reason: 'gates', key: [...s.gates].sort().join(',') };
    // The pods of one PodGroup are one group.
    case 'WaitingForGang':
    case 'GangUnschedulable':
      return { stage: s.stage, reason: 'podGroup', key: s.podGroup };
    case 'NoScheduler': {
      // Not seen by a scheduler yet, but judged: what the nodes say is the cause to group by.
      const lead = d.counts.fitting === 0 ? leadingCause(d) : undefined;
      return lead ? { stage: s.stage, ...lead } : { stage: s.stage, reason: 'schedulerName', key: s.schedulerName };
    }
    case 'NodeNameSet':
      return { stage: s.stage, reason: s.nodeExists === false ? 'nodeMissing' : 'nodeName', key: s.nodeName };
    case 'PreemptionPending':
      return { stage: s.stage, reason: 'nominatedNode', key: s.nominatedNodeName };
    case 'WaitingForDeviceBinding':
      return { stage: s.stage, reason: 'bindingConditions', key: s.node };
    case 'ScheduledNotRunning': {
      if (s.nodeReady === false) return { stage: s.stage, reason: 'nodeNotReady', key: s.nodeName };
      const waiting = s.waiting[0];
      if (waiting) return { stage: s.stage, reason: 'containerWaiting', key: waiting.reason };
      const warning = s.warnings[0];
      if (warning) return { stage: s.stage, reason: 'warning', key: warning.reason };
      return { stage: s.stage, reason: s.containerStatusesReported ? 'notStarted' : 'notTakenUp', key: '' };
    }
    case 'AdmissionRejected':
      return { stage: s.stage, reason: 'admission', key: `${s.owner.kind}/${s.owner.name}` };
    case 'NotPending':
      return { stage: s.stage, reason: s.phase, key: s.reason ?? '' };
    case 'WaitingForScaleUp':
      // Waiting for nodes an autoscaler is adding is its own cause: it will pass by itself.
      return { stage: s.stage, reason: 'waitingForScaleUp', key: s.autoscaler.autoscaler };
    case 'ScaleUpNotPossible':
      // A failed scale-up: the groups backed off. A refusal: what keeps the pod off the existing
      // nodes (below); the stage in the group's identity keeps it apart from plain Unschedulable.
      if (s.cause === 'backoff') return { stage: s.stage, reason: 'scaleUpBackoff', key: `${s.autoscaler.autoscaler}:${s.backedOff.map((g) => g.name).sort().join(',')}` };
      break;
    case 'Unschedulable':
      break;
  }
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
function heldFor(d: Diagnosis): string | undefined {
  const pods = new Set<string>();
  for (const n of d.nodes) if (n.nominated?.decides) for (const p of n.nominated.pods) pods.add(`${p.namespace}/${p.name}`);
  return pods.size > 0 ? [...pods].sort().join(',') : undefined;
}

function identity(c: TriageCause): string {
  return JSON.stringify([c.stage, c.plugin ?? '', c.reason ?? '', c.key, c.autoscalerReasons ?? []]);
}

export function groupByCause(diagnoses: readonly Diagnosis[]): TriageGroup[] {
  const groups = new Map<string, TriageGroup>();
  for (const d of diagnoses) {
    const cause = causeOf(d);
    const id = identity(cause);
    const group = groups.get(id) ?? { cause, diagnoses: [] };
    group.diagnoses.push(d);
    groups.set(id, group);
  }
  return [...groups.values()].sort((a, b) => b.diagnoses.length - a.diagnoses.length);
}

/** The top of each pod's owner chain (Deployment above ReplicaSet), with how many pods it has here. */
export function ownersOf(group: TriageGroup): { owner: ObjectRef | undefined; pods: number }[] {
  const counts = new Map<string, { owner: ObjectRef | undefined; pods: number }>();
  for (const d of group.diagnoses) {
    const top = d.pod.owners[d.pod.owners.length - 1];
    const id = top ? `${top.kind}/${top.namespace}/${top.name}` : '';
    const entry = counts.get(id) ?? { owner: top, pods: 0 };
    entry.pods += 1;
    counts.set(id, entry);
  }
  return [...counts.values()].sort((a, b) => b.pods - a.pods);
}
