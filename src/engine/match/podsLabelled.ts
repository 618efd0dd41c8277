// The pods of a node that carry one label value, found once per node's list and label. Pod
// affinity terms and their fixes' replays scan every bound pod of the cluster for a selector;
// a term with a matchLabels entry needs only the pods that carry that entry: those are found,
// kept for the node's list, and the term is matched on them alone. For the node index of a
// read, they are found for every node in one pass in the read's order (findLabelledOnEveryNode).
//
// Only the pods carrying the entry are kept, not an index of every value of its key: the scan
// is bound by reading each pod's labels from memory, and two Maps per node on 5,000 nodes cost
// about as much again in a process's first diagnosis (BENCHMARKS.md, "The engine alone").
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import { indexedNodes } from '../facts.js';
import type { NodeFacts } from '../model.js';

const none: readonly V1Pod[] = Object.freeze([]);

// By the entry, then by the node's list of pods, which facts never change (facts.ts): a fix's
// replay that patches one node keeps every other node's list, and so what was found in it.
const foundBy = new Map<string, WeakMap<readonly V1Pod[], readonly V1Pod[]>>();

// Each anchor's map, found once: a term asks for 5,000 nodes' lists, and making and hashing its
// entry's string for each was 4 ms of a first diagnosis.
const foundFor = new WeakMap<LabelAnchor, WeakMap<readonly V1Pod[], readonly V1Pod[]>>();

function foundOf(anchor: LabelAnchor): WeakMap<readonly V1Pod[], readonly V1Pod[]> {
  let found = foundFor.get(anchor);
  if (!found) {
    // Label keys and values hold no NUL.
    const entry = `${anchor[0]}\u0000${anchor[1]}`;
    found = foundBy.get(entry);
    if (!found) foundBy.set(entry, (found = new WeakMap()));
    foundFor.set(anchor, found);
  }
  return found;
}

/** The pods of `pods` (one node's) that carry the anchor's label, in their order. */
function podsLabelled(pods: readonly V1Pod[], anchor: LabelAnchor): readonly V1Pod[] {
  const found = foundOf(anchor);
  const known = found.get(pods);
  if (known) return known;
  const [key, value] = anchor;
  let carrying: V1Pod[] | undefined;
  // Indexed: 5,000 calls of 20 pods, mostly before V8 optimises it.
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i] as V1Pod;
    const labels = pod.metadata?.labels;
    // The value first (one read), then that it is the pod's own label, not an inherited property.
    // A dump may hold `labels: null`: no labels, as the API server reads it.
    if (labels == null || labels[key] !== value || !Object.hasOwn(labels, key)) continue;
    (carrying ??= []).push(pod);
  }
  const list = carrying ?? none;
  found.set(pods, list);
  return list;
}

// By the node index (facts.ts nodeIndex): the entries found in one pass, and the entries and
// topologyKeys the pass was not worth making for.
const decidedFor = new WeakMap<readonly NodeFacts[], Set<string>>();

/**
 * Finds the pods carrying the anchor's label on every node of the snapshot's node index (facts.ts
 * nodeIndex, when one was built) at once, reading the snapshot's pods in the order they were
 * read, and keeps what it found for each node's list (podsLabelled's answer). Why: a read's
 * objects lie in memory roughly in the order they were read, and node by node the same scan
 * jumps across a heap of 300 MB for every pod. At 100,000 pods, in a fresh process, the scan in
 * read order took 15 ms against 37 node by node after a full collection, 5 against 20 before
 * any (BENCHMARKS.md, "Where a first diagnosis goes"). `topologyKey`: the term's; only the nodes
 * carrying it are asked for.
 */
export function findLabelledOnEveryNode(snapshot: Snapshot, anchor: LabelAnchor | undefined, topologyKey: string): void {
  // The index's lists hold, in the read's order, the read's pods bound to each node.
  const nodes = indexedNodes(snapshot);
  if (!anchor || !nodes) return;
  const pods = snapshot.objects.pods;
  const [key, value] = anchor;
  const entry = `${key}\u0000${value}`;
  const declined = `${entry}\u0000${topologyKey}`;
  let decided = decidedFor.get(nodes);
  if (decided?.has(entry) || decided?.has(declined)) return;
  if (!decided) decidedFor.set(nodes, (decided = new Set()));
  const listOf = new Map<string, readonly V1Pod[]>();
  let inDomains = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as NodeFacts;
    // Nodes of one name share one list in the index: the name still tells the list.
    listOf.set(node.name, node.pods);
    if (Object.hasOwn(node.labels, topologyKey)) inDomains++;
  }
  // The rule scans only the nodes that carry the term's topologyKey: when they are few, their
  // lists cost less than a pass over every pod (at most about half the nodes, by the figures above).
  if (inDomains * 2 < nodes.length) {
    decided.add(declined);
    return;
  }
  const carrying = new Map<readonly V1Pod[], V1Pod[]>();
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i] as V1Pod;
    const labels = pod.metadata?.labels;
    if (labels == null || labels[key] !== value || !Object.hasOwn(labels, key)) continue;
    const list = listOf.get(pod.spec?.nodeName ?? '');
    // A terminal pod, or the target of nodeIndexWithout, is on no list.
    if (list === undefined || !list.includes(pod)) continue;
    const found = carrying.get(list);
    if (found) found.push(pod);
    else carrying.set(list, [pod]);
  }
  const found = foundOf(anchor);
  for (let i = 0; i < nodes.length; i++) {
    const list = (nodes[i] as NodeFacts).pods;
    found.set(list, carrying.get(list) ?? none);
  }
  decided.add(entry);
}

/** One matchLabels entry of a selector: every pod the selector matches carries it. */
export type LabelAnchor = readonly [key: string, value: string];

export function anchorOf(selector: V1LabelSelector | undefined | null): LabelAnchor | undefined {
  const [entry] = Object.entries(selector?.matchLabels ?? {});
  return entry;
}

/** The pods of `pods` (one node's) a selector anchored at `anchor` may match: those carrying it, or all. */
export function mayMatch(pods: readonly V1Pod[], anchor: LabelAnchor | undefined): readonly V1Pod[] {
  return anchor ? podsLabelled(pods, anchor) : pods;
}
