// The pods of a node that carry one label value, indexed per label key on first use. Pod
// affinity terms and their fixes' replays scan every bound pod of the cluster for a selector;
// at 100,000 pods a scan costs 60 ms, and a diagnosis with anti-affinity made four of them (its
// judgement, then each fix replayed). A term with a matchLabels entry needs only the pods that
// carry that entry: those are looked up, and the term is matched on them alone.
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';

const none: readonly V1Pod[] = Object.freeze([]);

// By the node's list of pods, which facts never change (facts.ts): a fix's replay that patches
// one node keeps every other node's list, and so its index.
const indexOf = new WeakMap<readonly V1Pod[], Map<string, Map<string, V1Pod[]>>>();

/** The pods of `pods` (one node's) whose label `key` is `value`, in their order. */
function podsLabelled(pods: readonly V1Pod[], key: string, value: string): readonly V1Pod[] {
  let byKey = indexOf.get(pods);
  if (!byKey) indexOf.set(pods, (byKey = new Map()));
  let byValue = byKey.get(key);
  if (!byValue) {
    byValue = new Map();
    for (let i = 0; i < pods.length; i++) {
      const pod = pods[i] as V1Pod;
      const labels = pod.metadata?.labels;
      if (!labels || !Object.hasOwn(labels, key)) continue;
      const v = labels[key] as string;
      const list = byValue.get(v);
      if (list) list.push(pod);
      else byValue.set(v, [pod]);
    }
    byKey.set(key, byValue);
  }
  return byValue.get(value) ?? none;
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
