// Triage: every pending pod of a scope (a namespace, or all; optionally a label selector),
// each diagnosed on the same snapshot. The snapshot is read once for all of them; the node
// facts every diagnosis needs are computed once too (facts.ts keeps them per snapshot).
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../snapshot/types.js';
import { diagnosePod } from './diagnose.js';
import type { Diagnosis } from './diagnosis.js';
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

/** A diagnosis per pending pod of `scope`, in pendingPods' order. */
export function triage(plugins: RuleSet, snapshot: Snapshot, scope: TriageScope): Diagnosis[] {
  const shared: EquivalenceCache = new Map();
  return pendingPods(snapshot, scope).map((pod) => diagnosePod(plugins, snapshot, pod, [], shared));
}
