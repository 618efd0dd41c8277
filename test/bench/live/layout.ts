// Where the live benchmark's bound pods go. `even`: pod j on node j % nodes, as every node has
// the same set of pods (the 50,000-pod run). `skewed`: a few nodes packed to 110 pods (the
// kubelet's default maxPods) with small pods, as a cluster's busiest nodes are, and the rest
// shared evenly. Both keep what the cases assume: every node runs a pod of slot 0 (case (e)'s
// anti-affinity matches one on every node), no node's requests exceed its cpu, and one request
// (the freest node's free cpu + 1m) is above every node's free cpu and within allocatable
// (cases (b) and (d)).
import { candidateStride, NODE_CPU_MILLIS, podCpuMillis, tainted } from './seed.js';

export type Spread = 'even' | 'skewed';

/** The kubelet's default maxPods: a node packed this full takes no pod more. */
const MAX_PODS_PER_NODE = 110;
/**
 * The requests of each pod on a packed node: sidecars and small agents, so that 110 of them fit
 * the node's cpu and memory (a node whose requests exceed its allocatable is not one a kubelet
 * admits pods to, and the scheduler would count another reason on it).
 */
const PACKED_POD_CPU_MILLIS = 100;
const PACKED_POD_MEMORY_MI = 256;

/**
 * One node in 50 is packed (skewed spread): never tainted nor a candidate of case (b), so that
 * those cases count the same nodes as in an even spread and a node read to confirm a fix is not
 * one a pod cannot go to for its pod count alone.
 */
function packedNode(i: number, nodes: number): boolean {
  return i % 50 === 25 && !tainted(i) && i % candidateStride(nodes) !== 0;
}

export interface Placement {
  node: number;
  /** The pod's rank on its node: slot 0 carries the label every node has once. */
  slot: number;
  cpuMillis: number;
  /** The pod's memory request (MiB); undefined: the seeder's own mix. */
  memoryMi?: number;
}

export interface Layout {
  spread: Spread;
  /** Where bound pod j goes. */
  place(j: number): Placement;
  /** The nodes packed to MAX_PODS_PER_NODE (skewed spread). */
  packed: number[];
  podsOn(i: number): number;
  /** The most free cpu any node has once seeded (millicores). */
  maxFreeCpuMillis: number;
  /** The fewest and most pods a node holds. */
  minPods: number;
  maxPods: number;
}

/**
 * Lays `pods` bound pods over `nodes` nodes. Pods are dealt round-robin by slot (every node's
 * slot 0, then every node's slot 1...), so that an even spread is exactly pod j on node
 * j % nodes, slot floor(j / nodes), as the seeder has always placed them.
 */
export function layout(nodes: number, pods: number, spread: Spread): Layout {
  const packed = spread === 'skewed' ? Array.from({ length: nodes }, (_, i) => i).filter((i) => packedNode(i, nodes)) : [];
  const isPacked = new Set(packed);
  const rest = pods - packed.length * MAX_PODS_PER_NODE;
  const others = nodes - packed.length;
  if (rest < others) throw new Error(`--skew packs ${packed.length} nodes with ${MAX_PODS_PER_NODE} pods each: ${pods} pods leave fewer than one for each of the other ${others} nodes`);
  const counts = new Int32Array(nodes);
  let extra = rest % others;
  for (let i = 0; i < nodes; i++) {
    if (isPacked.has(i)) counts[i] = MAX_PODS_PER_NODE;
    else counts[i] = Math.floor(rest / others) + (extra-- > 0 ? 1 : 0);
  }
  const maxPods = counts.reduce((a, b) => Math.max(a, b), 0);
  if (maxPods > MAX_PODS_PER_NODE) throw new Error(`${pods} pods over ${nodes} nodes puts ${maxPods} on a node, above its ${MAX_PODS_PER_NODE} pods`);
  const nodeOf = new Int32Array(pods);
  const slotOf = new Int32Array(pods);
  let j = 0;
  for (let slot = 0; slot < maxPods; slot++) {
    for (let i = 0; i < nodes; i++) {
      if ((counts[i] ?? 0) <= slot) continue;
      nodeOf[j] = i;
      slotOf[j] = slot;
      j++;
    }
  }
  const cpuOf = (node: number, slot: number) => (isPacked.has(node) ? PACKED_POD_CPU_MILLIS : podCpuMillis(slot));
  let maxFree = -Infinity;
  for (let i = 0; i < nodes; i++) {
    let used = 0;
    for (let s = 0; s < (counts[i] ?? 0); s++) used += cpuOf(i, s);
    // The cases' arithmetic holds only where no node is overcommitted (the apiserver would take
    // the bound pods; a node's free cpu below zero is not one a cluster reports).
    if (used > NODE_CPU_MILLIS) throw new Error(`${counts[i] ?? 0} pods on node ${i} request ${used}m cpu, above its ${NODE_CPU_MILLIS}m: fewer pods per node, or --skew`);
    maxFree = Math.max(maxFree, NODE_CPU_MILLIS - used);
  }
  return {
    spread,
    place: (n) => {
      const node = nodeOf[n] ?? 0;
      const slot = slotOf[n] ?? 0;
      return { node, slot, cpuMillis: cpuOf(node, slot), ...(isPacked.has(node) ? { memoryMi: PACKED_POD_MEMORY_MI } : {}) };
    },
    packed,
    podsOn: (i) => counts[i] ?? 0,
    maxFreeCpuMillis: maxFree,
    minPods: counts.reduce((a, b) => Math.min(a, b), Infinity),
    maxPods,
  };
}
