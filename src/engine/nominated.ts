// Pods nominated to a node reserve room there, as the scheduler's
// RunFilterPluginsWithNominatedPods does: a node's filters run first with every pod nominated to
// it of equal or higher priority added (the pod itself excluded), as if they ran there, PreFilter
// state included (each plugin's AddPod); when that passes, again without them. A pod that
// preempted victims is nominated to their node while they terminate, so a lower-priority pod
// cannot take the room it freed.
import type { V1Pod } from '@kubernetes/client-node';
import { toTime, type Snapshot } from '../snapshot/types.js';
import { isTerminal, isTerminating, nodeFacts, podKey, priorityOf, unboundPods } from './facts.js';
import type { NodeFacts, RuleContext } from './model.js';
import { requestRulesFor } from './release.js';

/** A pod nominated to a node, as a verdict names it. */
export interface NominatedPod {
  namespace: string;
  name: string;
  priority: number;
  /** When the scheduler last wrote the pod's PodScheduled condition (ms since the epoch): the nomination is at least that old. */
  since?: number;
  /** Pods of lower priority on the node that are terminating: the victims its preemption waits on. */
  waitingOn: { namespace: string; name: string }[];
}

// Every pending pod with a nomination, found once per collection of pods: a triage diagnoses
// thousands of pending pods against the same 100,000, and each asks for its own subset. Only
// the unbound pods are looked at (kept by the node index's pass over every pod).
const nominations = new WeakMap<readonly V1Pod[], readonly V1Pod[]>();

function nominatedPods(pods: readonly V1Pod[]): readonly V1Pod[] {
  let found = nominations.get(pods);
  if (!found) {
    found = unboundPods(pods).filter((pod) => pod.status?.nominatedNodeName && !isTerminal(pod) && !isTerminating(pod));
    nominations.set(pods, found);
  }
  return found;
}

/** Pending pods nominated to each node that the scheduler adds when it filters `target` there. */
export function nominatedFor(snapshot: Snapshot, target: V1Pod): ReadonlyMap<string, readonly V1Pod[]> | undefined {
  const priority = priorityOf(target);
  const self = podKey(target);
  const uid = target.metadata?.uid;
  let byNode: Map<string, V1Pod[]> | undefined;
  for (const pod of nominatedPods(snapshot.objects.pods)) {
    const node = pod.status?.nominatedNodeName ?? '';
    // addGENominatedPods: priority >= the pod's, and never the pod itself.
    if (priorityOf(pod) < priority || (uid !== undefined && pod.metadata?.uid === uid) || podKey(pod) === self) continue;
    byNode ??= new Map();
    const list = byNode.get(node);
    if (list) list.push(pod);
    else byNode.set(node, [pod]);
  }
  return byNode;
}

/** The context of the first pass on `node`: its nominated pods added to its facts, as if bound there. */
export function withNominated(ctx: RuleContext, node: NodeFacts, nominated: readonly V1Pod[]): RuleContext {
  const added = nominated.map((pod): V1Pod => ({ ...pod, spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: node.name } }));
  // Summed with the release's arithmetic, as the node's own facts were (facts.ts nodeIndex).
  const facts = nodeFacts(node.node, [...node.pods, ...added], undefined, requestRulesFor(ctx.snapshot));
  return { ...ctx, nodes: ctx.nodes.map((n) => (n === node ? facts : n)), nominated: undefined };
}

function scheduledConditionTime(pod: V1Pod): number | undefined {
  const condition = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  return toTime(condition?.lastTransitionTime ?? condition?.lastProbeTime);
}

/** How a verdict names the nominated pods: who, their priority, since when, and which victims they wait on. */
export function describeNominated(nominated: readonly V1Pod[], node: NodeFacts): NominatedPod[] {
  return nominated
    .map((pod): NominatedPod => {
      const priority = priorityOf(pod);
      const since = scheduledConditionTime(pod);
      const waitingOn = node.pods
        .filter((p) => isTerminating(p) && priorityOf(p) < priority)
        .map((p) => ({ namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '' }))
        .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
      return { namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '', priority, ...(since !== undefined ? { since } : {}), waitingOn };
    })
    .sort((a, b) => b.priority - a.priority || `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}
