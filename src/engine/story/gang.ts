// Gangs (GenericWorkload, beta in v1.37; PodGroup scheduling.k8s.io/v1beta1): a pod whose
// spec.schedulingGroup names a PodGroup with a gang policy is scheduled only with at least
// minCount pods of its group. While fewer exist the scheduler waits and says nothing: no
// PodScheduled condition, no event, the PodGroup's status empty (only its log, at -v=4, says
// "waiting for minCount pods from a gang to appear in scheduling queue"); a group that does not
// exist is waited for in silence too. When the group cannot be placed together, the pods that
// fit read "pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0
// remaining", the others their own "0/N nodes are available: ...", and the PodGroup's
// PodGroupInitiallyScheduled (v1.36: PodGroupScheduled) condition is False, Unschedulable.
import type { V1Pod } from '@kubernetes/client-node';
import { isGap, toTime, type PodGroupRecord, type Snapshot } from '../../snapshot/types.js';
import type { ObjectRef } from '../events.js';
import { isTerminal } from '../facts.js';
import { ownerChain } from '../owners.js';
import { byText } from '../order.js';

/** The PodGroup a pod names (v1.36 and v1.37: spec.schedulingGroup.podGroupName). */
export function podGroupOf(pod: V1Pod): string | undefined {
  const group = (pod.spec as { schedulingGroup?: { podGroupName?: string } } | undefined)?.schedulingGroup?.podGroupName;
  return group || undefined;
}

/**
 * The group's pods that are not terminal, in the order they were created (the scheduler's queue
 * order), by name within a second.
 */
export function groupPods(snapshot: Snapshot, namespace: string, name: string): V1Pod[] {
  return snapshot.objects.pods
    .filter((p) => (p.metadata?.namespace ?? 'default') === namespace && podGroupOf(p) === name && !isTerminal(p))
    .sort((a, b) => (toTime(a.metadata?.creationTimestamp) ?? 0) - (toTime(b.metadata?.creationTimestamp) ?? 0) || byText(a.metadata?.name ?? '', b.metadata?.name ?? ''));
}

export interface GangMember {
  name: string;
  /** Its node, once bound. */
  node?: string;
}

/** The group's condition the scheduler writes (PodGroupInitiallyScheduled, or PodGroupScheduled before v1.37). */
export interface GroupCondition {
  status: string;
  reason?: string;
  message?: string;
  since?: number;
}

export interface Gang {
  /** namespace/name of the PodGroup. */
  podGroup: string;
  /** false: the PodGroups were read and this one is not among them; undefined: they were not read. */
  found: boolean | undefined;
  /** The gang policy's minCount; absent for a basic policy or an unread group. */
  minCount?: number;
  /** The group's pods that are not terminal, this one included, bound ones with their node. */
  members: GangMember[];
  condition?: GroupCondition;
  /** Who makes the members: the top owners of those that have one (a Job, a JobSet's Job...). */
  owners: ObjectRef[];
  /** When the group, else the oldest member, was created: how long the wait has lasted. */
  since?: number;
}

const conditionTypes = ['PodGroupInitiallyScheduled', 'PodGroupScheduled'];

export function gangOf(snapshot: Snapshot, pod: V1Pod): Gang | undefined {
  const name = podGroupOf(pod);
  if (!name) return undefined;
  const namespace = pod.metadata?.namespace ?? 'default';
  const group: PodGroupRecord | undefined = snapshot.objects.podGroups.find((g) => (g.metadata?.namespace ?? 'default') === namespace && g.metadata?.name === name);
  const found = group ? true : isGap(snapshot, 'podGroups') ? undefined : false;
  const pods = groupPods(snapshot, namespace, name);
  const members = pods.map((p): GangMember => ({ name: p.metadata?.name ?? '', ...(p.spec?.nodeName ? { node: p.spec.nodeName } : {}) }));
  const owners = new Map<string, ObjectRef>();
  for (const p of pods) {
    const top = ownerChain(snapshot, p).at(-1);
    if (top) owners.set(`${top.kind}/${top.namespace}/${top.name}`, top);
  }
  const c = group?.status?.conditions?.find((x) => conditionTypes.includes(x.type));
  const since = toTime(group?.metadata?.creationTimestamp) ?? toTime(pods[0]?.metadata?.creationTimestamp);
  const minCount = group?.spec?.schedulingPolicy?.gang?.minCount;
  return {
    podGroup: `${namespace}/${name}`,
    found,
    ...(minCount !== undefined ? { minCount } : {}),
    members,
    ...(c ? { condition: { status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}), ...(toTime(c.lastTransitionTime) !== undefined ? { since: toTime(c.lastTransitionTime) } : {}) } } : {}),
    owners: [...owners.values()],
    ...(since !== undefined ? { since } : {}),
  };
}

/**
 * The scheduler's words about the group rather than the nodes: v1.36+ "pod group is
 * unschedulable, ..." on the members that fit; v1.35 a Permit timeout, "0/1 nodes are
 * available: 1 rejected due to timeout after waiting 5m0s at plugin GangScheduling."
 */
export function isGroupMessage(message: string | undefined): boolean {
  return message !== undefined && (message.startsWith('pod group is unschedulable') || / at plugin GangScheduling\b/.test(message));
}

/** Whether the scheduler has found the group unschedulable (its condition, or this pod's words). */
export function groupUnschedulable(gang: Gang, podMessage: string | undefined): boolean {
  return (gang.condition?.status === 'False' && gang.condition.reason === 'Unschedulable') || isGroupMessage(podMessage);
}
