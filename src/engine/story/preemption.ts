// Preemption, told from the objects (pkg/scheduler/framework/plugins/defaultpreemption and
// framework/preemption, v1.37):
// - Only pods of strictly lower priority can be victims (selectVictimsOnNode removes every pod
//   with GetPodPriority(p) < GetPodPriority(preemptor)); equal or higher priority never are.
// - Once a node is nominated and a lower-priority pod there is terminating, the preemptor waits
//   (PodEligibleToPreemptOthers) for the victims to go: they are the pods to watch.
// - A PodDisruptionBudget does not forbid preemption: filterPodsWithPDBViolation only sorts the
//   candidates into violating and non-violating; the scheduler reprieves violating ones first
//   and prefers the node whose victims violate the fewest budgets, but evicts them as a last
//   resort. A budget with a nil or empty selector matches nothing; pods without labels match no
//   budget; each matching pod not already in status.disruptedPods uses one disruption, and the
//   pod that takes the budget below zero is the violating one.
// - preemptionPolicy Never (set on the pod from its PriorityClass by the Priority admission
//   plugin) makes the pod never preempt: "not eligible due to preemptionPolicy=Never".
import type { V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import { isGap, toTime, type Snapshot } from '../../snapshot/types.js';
import { isTerminal, isTerminating, podKey, priorityOf } from '../facts.js';
import { isEmptySelector, matchesLabelSelector } from '../match/labelSelector.js';
import { byText } from '../order.js';

export interface BudgetRef {
  name: string;
  disruptionsAllowed: number;
}

/** A pod on the nominated node, and what preemption can do with it. */
export interface NominatedNodePod {
  namespace: string;
  name: string;
  priority: number;
  /**
   * `victim`: lower priority and terminating (the preemptor waits for it to go);
   * `lowerPriority`: lower priority, not terminating (not chosen, or not yet);
   * `equalPriority` / `higherPriority`: never preempted by this pod.
   */
  role: 'victim' | 'lowerPriority' | 'equalPriority' | 'higherPriority';
  /** ISO time the deletion was asked for (metadata.deletionTimestamp), victims only. */
  deletionTimestamp?: string;
  /** metadata.deletionGracePeriodSeconds: the grace period the deletion was given. */
  deletionGracePeriodSeconds?: number;
  /** spec.terminationGracePeriodSeconds. */
  terminationGracePeriodSeconds?: number;
  /** metadata.finalizers: a terminating pod stays until each is removed. */
  finalizers: string[];
  /** Lower-priority pods only: the budgets its eviction would violate (evicted only as a last resort). */
  budgets: BudgetRef[];
}

export interface PreemptionStory {
  priority: number;
  /** The nominated node's pods (all bound pods), sorted by priority, highest first. */
  pods: NominatedNodePod[];
  /** False: the pods were not (all) read, so the list may miss victims. */
  podsKnown: boolean;
  /** False: PodDisruptionBudgets were not read: whether one protects a pod is unknown. */
  budgetsKnown: boolean;
}

export interface NeverPreempts {
  /** spec.priorityClassName, when the pod names one. */
  priorityClass?: string;
  /** The PriorityClass's own preemptionPolicy, when the class was read. */
  classPolicy?: string;
  /** The class's value, when read. */
  classValue?: number;
}


function iso(value: Date | string | undefined | null): string | undefined {
  const ms = toTime(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

export function preemptionStory(snapshot: Snapshot, pod: V1Pod, nodeName: string): PreemptionStory {
  const priority = priorityOf(pod);
  const target = podKey(pod);
  const onNode = snapshot.objects.pods
    .filter((p) => p.spec?.nodeName === nodeName && !isTerminal(p) && podKey(p) !== target)
    .sort((a, b) => priorityOf(b) - priorityOf(a) || byText(podKey(a), podKey(b)));
  const budgetsKnown = !isGap(snapshot, 'podDisruptionBudgets');
  const violating = violatingPods(onNode.filter((p) => priorityOf(p) < priority && !isTerminating(p)), snapshot.objects.podDisruptionBudgets);
  const pods = onNode.map((p): NominatedNodePod => {
    const lower = priorityOf(p) < priority;
    const role = lower ? (isTerminating(p) ? 'victim' : 'lowerPriority') : priorityOf(p) === priority ? 'equalPriority' : 'higherPriority';
    const deletionTimestamp = iso(p.metadata?.deletionTimestamp);
    return {
      namespace: p.metadata?.namespace ?? 'default',
      name: p.metadata?.name ?? '',
      priority: priorityOf(p),
      role,
      ...(deletionTimestamp ? { deletionTimestamp } : {}),
      ...(p.metadata?.deletionGracePeriodSeconds != null ? { deletionGracePeriodSeconds: p.metadata.deletionGracePeriodSeconds } : {}),
      ...(p.spec?.terminationGracePeriodSeconds != null ? { terminationGracePeriodSeconds: p.spec.terminationGracePeriodSeconds } : {}),
      finalizers: p.metadata?.finalizers ?? [],
      budgets: violating.get(podKey(p)) ?? [],
    };
  });
  return { priority, pods, podsKnown: !isGap(snapshot, 'pods'), budgetsKnown };
}

/**
 * filterPodsWithPDBViolation over `pods` (highest priority first, as the scheduler walks its
 * candidates): each budget's disruptionsAllowed is used up pod by pod; a pod that takes a
 * budget below zero would violate it.
 */
export function violatingPods(pods: readonly V1Pod[], budgets: readonly V1PodDisruptionBudget[]): Map<string, BudgetRef[]> {
  const allowed = budgets.map((b) => b.status?.disruptionsAllowed ?? 0);
  const out = new Map<string, BudgetRef[]>();
  for (const pod of pods) {
    const labels = pod.metadata?.labels ?? {};
    if (Object.keys(labels).length === 0) continue;
    budgets.forEach((budget, i) => {
      if ((budget.metadata?.namespace ?? 'default') !== (pod.metadata?.namespace ?? 'default')) return;
      const selector = budget.spec?.selector;
      if (!selector || isEmptySelector(selector) || !matchesLabelSelector(selector, labels)) return;
      if (Object.hasOwn(budget.status?.disruptedPods ?? {}, pod.metadata?.name ?? '')) return;
      allowed[i] = (allowed[i] ?? 0) - 1;
      if ((allowed[i] ?? 0) < 0) {
        out.set(podKey(pod), [...(out.get(podKey(pod)) ?? []), { name: budget.metadata?.name ?? '', disruptionsAllowed: budget.status?.disruptionsAllowed ?? 0 }]);
      }
    });
  }
  return out;
}

/** For a pod with preemptionPolicy Never: the PriorityClass that set it, as far as it was read. */
export function neverPreempts(snapshot: Snapshot, pod: V1Pod): NeverPreempts | undefined {
  if (pod.spec?.preemptionPolicy !== 'Never') return undefined;
  const name = pod.spec.priorityClassName;
  if (!name) return {};
  const found = snapshot.objects.priorityClasses.find((pc) => pc.metadata?.name === name);
  return {
    priorityClass: name,
    ...(found?.preemptionPolicy ? { classPolicy: found.preemptionPolicy } : found ? { classPolicy: 'PreemptLowerPriority' } : {}),
    ...(found && found.value !== undefined ? { classValue: found.value } : {}),
  };
}
