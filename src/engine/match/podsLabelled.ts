// The pods of a node that carry one label value, found once per node's list and label. Pod
// affinity terms and their fixes' replays scan every bound pod of the cluster for a selector;
// a term with a matchLabels entry needs only the pods that carry that entry: those are found,
// kept for the node's list, and the term is matched on them alone.
//
// Only the pods carrying the entry are kept, not an index of every value of its key: the scan
// is bound by reading each pod's labels from memory, and two Maps per node on 5,000 nodes cost
// about as much again in a process's first diagnosis (BENCHMARKS.md, "The engine alone").
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';

const none: readonly V1Pod[] = Object.freeze([]);

// By the entry, then by the node's list of pods, which facts never change (facts.ts): a fix's
// replay that patches one node keeps every other node's list, and so what was found in it.
const foundBy = new Map<string, WeakMap<readonly V1Pod[], readonly V1Pod[]>>();

/** The pods of `pods` (one node's) whose label `key` is `value`, in their order. */
function podsLabelled(pods: readonly V1Pod[], key: string, value: string): readonly V1Pod[] {
  // Label keys and values hold no NUL.
  const entry = `${key}\u0000${value}`;
  let found = foundBy.get(entry);
  if (!found) foundBy.set(entry, (found = new WeakMap()));
  const known = found.get(pods);
  if (known) return known;
  let carrying: V1Pod[] | undefined;
  // Indexed: 5,000 calls of 20 pods, mostly before V8 optimises it.
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i] as V1Pod;
    const labels = pod.metadata?.labels;
    // The value first (one read), then that it is the pod's own label, not an inherited property.
    if (labels === undefined || labels[key] !== value || !Object.hasOwn(labels, key)) continue;
    (carrying ??= []).push(pod);
  }
  const list = carrying ?? none;
  found.set(pods, list);
  return list;
}

/** One matchLabels entry of a selector: every pod the selector matches carries it. */
export type LabelAnchor = readonly [key: string, value: string];

export function anchorOf(selector: V1LabelSelector | undefined | null): LabelAnchor | undefined {
  const [entry] = Object.entries(selector?.matchLabels ?? {});
  return entry;
}

/** The pods of `pods` (one node's) a selector anchored at `anchor` may match: those carrying it, or all. */
export function mayMatch(pods: readonly V1Pod[], anchor: LabelAnchor | undefined): readonly V1Pod[] {
  return anchor ? podsLabelled(pods, anchor[0], anchor[1]) : pods;
}
