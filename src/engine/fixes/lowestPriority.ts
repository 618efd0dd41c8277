// The lowest priority of a pod on any of the nodes, once per list: when no bound pod ranks below
// the pod (every pod at priority 0, the common case), nothing can be preempted anywhere, known
// without walking 4,500 failing nodes. A fix's patched copy of the list that removes no pod (a
// toleration, a label, an uncordon) has the same lowest, and is not walked again.
import type { NodeFacts } from '../model.js';

const lowestOf = new WeakMap<readonly NodeFacts[], number>();

export function lowestPriority(nodes: readonly NodeFacts[]): number {
  let lowest = lowestOf.get(nodes);
  if (lowest === undefined) {
    lowest = Infinity;
    // Indexed: the first pass of a process over 5,000 nodes runs in the interpreter.
    for (let i = 0; i < nodes.length; i++) lowest = Math.min(lowest, (nodes[i] as NodeFacts).lowestPriority);
    lowestOf.set(nodes, lowest);
  }
  return lowest;
}

/** `to` is `from` patched without removing a pod: the same pods, the same lowest, once known. */
export function sameLowestPriority(from: readonly NodeFacts[], to: readonly NodeFacts[]): void {
  const lowest = lowestOf.get(from);
  if (lowest !== undefined && !lowestOf.has(to)) lowestOf.set(to, lowest);
}
