// Triage: every pending pod of a scope (a namespace, or all; optionally a label selector),
// each diagnosed on the same snapshot. The snapshot is read once for all of them; the node
// facts every diagnosis needs are computed once too (facts.ts keeps them per snapshot).
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../snapshot/types.js';
import { diagnosePod, replayPod } from './diagnose.js';
import type { Diagnosis, Findings } from './diagnosis.js';
import type { EquivalenceCache } from './equivalence.js';
import { matchesLabelSelector } from './match/labelSelector.js';
import type { RuleSet } from './reasons.js';

export interface TriageScope {
  /** One namespace; undefined: every namespace (-A). */
  namespace?: string;
  /** -l: only pods whose labels match. */
  selector?: V1LabelSelector;
}

/** Pending: phase Pending (or not reported yet), bound or not. A pod being deleted is leaving, not waiting. */
function isWaiting(pod: V1Pod): boolean {
  return (pod.status?.phase ?? 'Pending') === 'Pending' && !pod.metadata?.deletionTimestamp;
}

function inScope(pod: V1Pod, scope: TriageScope): boolean {
  if (scope.namespace !== undefined && (pod.metadata?.namespace ?? 'default') !== scope.namespace) return false;
  return scope.selector === undefined || matchesLabelSelector(scope.selector, pod.metadata?.labels);
}

/** The pending pods of `scope`, by namespace then name. */
export function pendingPods(snapshot: Snapshot, scope: TriageScope): V1Pod[] {
  const key = (p: V1Pod) => `${p.metadata?.namespace ?? 'default'}\u0000${p.metadata?.name ?? ''}`;
  return snapshot.objects.pods
    .filter((p) => p.spec !== undefined && isWaiting(p) && inScope(p, scope))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** A triage's answer: every pending pod's findings, and any one's whole diagnosis on demand. */
export interface Triage {
  /** Each pending pod of the scope, in pendingPods' order. */
  findings: Findings[];
  /**
   * The whole diagnosis of one of `findings`, its fixes proposed now: a triage shows one pod's
   * per group. Its class's replay is not redone, and a class proposes its fixes once.
   */
  diagnosisOf(findings: Findings): Diagnosis;
}

/** Replays every pending pod of `scope`, proposing fixes only for the pods `diagnosisOf` is asked about. */
export function triage(plugins: RuleSet, snapshot: Snapshot, scope: TriageScope): Triage {
  const shared: EquivalenceCache = new Map();
  // The pod of each finding, to diagnose it whole later; nothing more is kept of its replay.
  const podOf = new Map<Findings, V1Pod>();
  const findings = pendingPods(snapshot, scope).map((pod) => {
    const { findings: found } = replayPod(plugins, snapshot, pod, [], shared);
    podOf.set(found, pod);
    return found;
  });
  return {
    findings,
    diagnosisOf(found) {
      const pod = podOf.get(found);
      if (!pod) throw new Error(`findings of ${found.pod.namespace}/${found.pod.name ?? ''} are not this triage's`);
      return diagnosePod(plugins, snapshot, pod, [], shared);
    },
  };
}
