// A spec.nodeName set by hand to a node that does not exist: the nodes whose names it nearly
// is (`worker-l` typed for `worker-1`), found by the same comparison as a taint's or a label's
// near miss (nearmiss/), with the character-level difference.
import type { NodeRecord } from '../../snapshot/types.js';
import { nearMissesOf, type TextDiff } from '../nearmiss/index.js';

export interface NearNode {
  name: string;
  /** The pod's spec.nodeName against the node's name. */
  diff: TextDiff;
}

/** At most this many near nodes (`worker-l` against `worker-1` and `worker-I`). */
const shown = 3;

/**
 * The nodes whose names differ from `nodeName` only cosmetically (a look-alike, letter case,
 * white space, an invisible character), nearest first. A typo is not enough: `node-9` is one
 * character from `node-1` and is more likely a node that is gone than a slip.
 */
export function nearNodes(nodes: readonly NodeRecord[], nodeName: string): NearNode[] {
  // Cosmetic near misses outrank every typo (similarity.ts), so they are the first found.
  return nearMissesOf(nodeName, nodes, (n) => n.metadata?.name ?? '', shown)
    .filter((near) => !near.diff.kinds.includes('other'))
    .map((near) => ({ name: near.item.metadata?.name ?? '', diff: near.diff }));
}
