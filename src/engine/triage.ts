// Triage: every pending pod of a scope (a namespace, or all; optionally a label selector),
// each diagnosed on the same snapshot. The snapshot is read once for all of them; the node
// facts every diagnosis needs are computed once too (facts.ts keeps them per snapshot).
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../snapshot/types.js';
import { diagnosePod, replayPod } from './diagnose.js';
import type { Diagnosis, Findings } from './diagnosis.js';
import { equivalenceKey, type EquivalenceCache } from './equivalence.js';
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

/** A triage's answer: what was kept of every pending pod, and any one's whole diagnosis on demand. */
export interface Triage<T> {
  /** What `keep` kept of each pending pod of the scope, in pendingPods' order. */
  kept: T[];
  /**
   * The whole diagnosis of the pod kept at `index`, its fixes proposed now: a triage shows one
   * pod's per group. A class asked about twice is replayed, and proposes its fixes, once.
   */
  diagnosisOf(index: number): Diagnosis;
}

/**
 * Replays every pending pod of `scope` and keeps what `keep` takes of its findings; fixes are
 * proposed only for the pods `diagnosisOf` is asked about.
 */
export function triage<T>(plugins: RuleSet, snapshot: Snapshot, scope: TriageScope, keep: (found: Findings) => T): Triage<T> {
  const pods = pendingPods(snapshot, scope);
  const kept = new Array<T>(pods.length);
  // Class after class: a class's verdicts (one per node, 5,000 of them at 5,000 nodes) live only
  // while its own pods are kept, not until the last of 150 classes is replayed.
  for (const members of byClass(pods)) {
    const shared: EquivalenceCache = new Map();
    for (const i of members) kept[i] = keep(replayPod(plugins, snapshot, pods[i] as V1Pod, [], shared).findings);
  }
  const asked: EquivalenceCache = new Map();
  return {
    kept,
    diagnosisOf(index) {
      const pod = pods[index];
      if (!pod) throw new Error(`no pending pod at ${index} in this triage of ${pods.length}`);
      return diagnosePod(plugins, snapshot, pod, [], asked);
    },
  };
}

/** The indices of `pods` by equivalence class; a pod of no class is one alone. */
function byClass(pods: readonly V1Pod[]): number[][] {
  const classes = new Map<string, number[]>();
  const alone: number[][] = [];
  pods.forEach((pod, i) => {
    const key = equivalenceKey(pod);
    const members = key === undefined ? undefined : classes.get(key);
    if (key === undefined) alone.push([i]);
    else if (members) members.push(i);
    else classes.set(key, [i]);
  });
  return [...classes.values(), ...alone];
}
