// Builds the facts rules read: the pod's effective request, and for each node its
// non-terminal pods and what they request (the scheduler's NodeInfo), computed once.
import type { V1Pod } from '@kubernetes/client-node';
import { UnreadableQuantity, type QuantityPlace } from '../errors.js';
import type { NodeRecord, Snapshot } from '../snapshot/types.js';
import type { NodeFacts, PodFacts } from './model.js';
import { QuantityError } from './quantity/index.js';
import { toResourceList, type ResourceList } from './resources/amounts.js';
import { requestRulesFor } from './release.js';
import { newestRequestRules, podRequestTotal, podRequests, RequestSum, type RequestRules } from './resources/requests.js';

export function isTerminal(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function isTerminating(pod: V1Pod): boolean {
  return pod.metadata?.deletionTimestamp !== undefined && pod.metadata?.deletionTimestamp !== null;
}

export function podKey(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}

// A quantity that does not parse is the input's fault: say which object holds it.
// `where` is a function: it is only worked out for an error, not for each of 50,000 pods.
function reading<T>(where: () => QuantityPlace, compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof QuantityError) throw new UnreadableQuantity(where(), error);
    throw error;
  }
}

/** `rules`: the arithmetic of the cluster's release (release.ts requestRulesFor). */
export function podFacts(pod: V1Pod, rules: RequestRules = newestRequestRules): PodFacts {
  return {
    pod,
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    requests: reading(() => ({ kind: 'Pod', name: podKey(pod), field: 'resources' }), () => podRequests(pod, rules)),
  };
}

/** What `pods` request together; a quantity that does not parse is blamed on the first pod that holds one. */
function requestedOn(pods: readonly V1Pod[], sum: RequestSum | undefined, rules: RequestRules): ResourceList {
  try {
    if (sum) return sum.total();
    const fresh = new RequestSum(rules);
    for (const pod of pods) fresh.add(pod);
    return fresh.total();
  } catch (error) {
    if (!(error instanceof QuantityError)) throw error;
    for (const pod of pods) reading(() => ({ kind: 'Pod', name: podKey(pod), field: 'resources' }), () => podRequestTotal(pod, rules));
    throw error;
  }
}

/** The pod's priority as the scheduler reads it (admission resolved priorityClassName into it). */
export function priorityOf(pod: V1Pod): number {
  return pod.spec?.priority ?? 0;
}

export function hasRequiredAntiAffinity(pod: V1Pod): boolean {
  return (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
}

/** What the index's one pass over the pods found out about a node's pods. */
interface PodsOnNode {
  pods: V1Pod[];
  /** Their requests, summed; undefined when one does not parse (nodeFacts says which). */
  sum: RequestSum | undefined;
  withRequiredAntiAffinity: V1Pod[];
  lowestPriority: number;
}

/** A node's facts; `found`: what is known of its pods already (the index's pass). */
export function nodeFacts(node: NodeRecord, boundPods: V1Pod[], found?: PodsOnNode, rules: RequestRules = newestRequestRules): NodeFacts {
  const requested = requestedOn(boundPods, found?.sum, rules);
  const name = node.metadata?.name ?? '';
  return {
    node,
    name,
    labels: node.metadata?.labels ?? {},
    pods: boundPods,
    requested,
    withRequiredAntiAffinity: found ? found.withRequiredAntiAffinity : boundPods.filter(hasRequiredAntiAffinity),
    lowestPriority: found ? found.lowestPriority : boundPods.reduce((lowest, pod) => Math.min(lowest, priorityOf(pod)), Infinity),
    allocatable: reading(() => ({ kind: 'Node', name, field: 'status.allocatable' }), () => toResourceList(node.status?.allocatable ?? node.status?.capacity)),
  };
}

// Every pending pod of a triage (and every case a process diagnoses) is judged against the same
// nodes: their facts (each bound pod's requests parsed and summed, as the scheduler's NodeInfo)
// are computed once per collection of objects, not per pod. Facts are never mutated (a fix's
// replay patches copies), so sharing them is safe.
// Kept with the release's arithmetic they were summed by.
const sharedNodeFacts = new WeakMap<Snapshot['objects'], { rules: RequestRules; nodes: NodeFacts[] }>();

// The pods of a collection bound to no node, kept by the pass below (which reads every pod's
// node anyway): the pods nominated to a node are among them (nominated.ts), and at 100,000 pods
// a second pass to find them costs a diagnosis as much as reading every pod's status from memory.
const unboundOf = new WeakMap<readonly V1Pod[], readonly V1Pod[]>();

/** The pods of `pods` bound to no node, in their order. */
export function unboundPods(pods: readonly V1Pod[]): readonly V1Pod[] {
  let unbound = unboundOf.get(pods);
  if (!unbound) {
    unbound = pods.filter((pod) => !pod.spec?.nodeName);
    unboundOf.set(pods, unbound);
  }
  return unbound;
}

// One pass over the pods, each summed into its node's total as it is grouped: at 50,000 pods
// the walk is bound by reading the objects, so each is read once.
function nodeFactsOf(snapshot: Snapshot): NodeFacts[] {
  const rules = requestRulesFor(snapshot);
  const byNode = new Map<string, PodsOnNode>();
  const unbound: V1Pod[] = [];
  for (const pod of snapshot.objects.pods) {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) {
      unbound.push(pod);
      continue;
    }
    if (isTerminal(pod)) continue;
    let on = byNode.get(nodeName);
    if (!on) byNode.set(nodeName, (on = { pods: [], sum: new RequestSum(rules), withRequiredAntiAffinity: [], lowestPriority: Infinity }));
    on.pods.push(pod);
    on.lowestPriority = Math.min(on.lowestPriority, priorityOf(pod));
    if (hasRequiredAntiAffinity(pod)) on.withRequiredAntiAffinity.push(pod);
    try {
      on.sum?.add(pod);
    } catch (error) {
      // Summed again by nodeFacts, which says which pod holds the quantity, if that node is asked for.
      if (!(error instanceof QuantityError)) throw error;
      on.sum = undefined;
    }
  }
  unboundOf.set(snapshot.objects.pods, unbound);
  return snapshot.objects.nodes.map((node) => {
    const on = byNode.get(node.metadata?.name ?? '');
    return on ? nodeFacts(node, on.pods, on, rules) : podlessFacts(node);
  });
}

// A node without pods has the same facts in every snapshot that holds the same node object: a
// follow-up read adds the pods of 20 nodes to a read of 5,000 whose pods were left unread, and
// the others keep theirs (allocatable is not parsed again).
const podless = new WeakMap<NodeRecord, NodeFacts>();

function podlessFacts(node: NodeRecord): NodeFacts {
  let facts = podless.get(node);
  if (!facts) {
    facts = nodeFacts(node, []);
    podless.set(node, facts);
  }
  return facts;
}

/** Every node's facts with all its non-terminal pods, built once per snapshot's objects. */
export function nodeIndex(snapshot: Snapshot): NodeFacts[] {
  const rules = requestRulesFor(snapshot);
  let shared = sharedNodeFacts.get(snapshot.objects);
  if (!shared || shared.rules !== rules) {
    shared = { rules, nodes: nodeFactsOf(snapshot) };
    sharedNodeFacts.set(snapshot.objects, shared);
  }
  return shared.nodes;
}

/** The node index of the snapshot's objects when one was built (nodeIndex), without building it. */
export function indexedNodes(snapshot: Snapshot): readonly NodeFacts[] | undefined {
  return sharedNodeFacts.get(snapshot.objects)?.nodes;
}

/**
 * The index without `pod`: a bound pod is on its node's list, and left out there it is not
 * counted against itself. Only its own node's facts change; the others are the index's, so a
 * triage of hundreds of bound pods does not walk every pod again for each.
 */
export function nodeIndexWithout(snapshot: Snapshot, pod: V1Pod): NodeFacts[] {
  const index = nodeIndex(snapshot);
  const at = index.findIndex((n) => n.name === pod.spec?.nodeName);
  const own = index[at];
  if (!own) return index;
  const key = podKey(pod);
  const others = own.pods.filter((p) => podKey(p) !== key);
  if (others.length === own.pods.length) return index;
  const nodes = index.slice();
  nodes[at] = nodeFacts(own.node, others, undefined, requestRulesFor(snapshot));
  return nodes;
}
