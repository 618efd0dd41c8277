// Uncordon a cordoned node. Cordons are usually deliberate (a drain, an upgrade), so this is
// offered as what would work, for the few cordoned nodes the pod could otherwise use.
import { toTime } from '../../snapshot/types.js';
import { cordonTaint } from '../match/tolerations.js';
import { failing, failures } from './nodes.js';
import type { Candidate, FixInput } from './types.js';

const offered = 3;


export function proposeUncordons({ ctx, judgement }: FixInput): Candidate[] {
  if (!failures(judgement).plugins.has('NodeUnschedulable')) return [];
  const out: Candidate[] = [];
  // The first few cordoned nodes: no need to look through the other thousands.
  for (const n of failing(judgement)) {
    if (out.length === offered) break;
    if (!n.reasons.some((r) => r.detail.kind === 'nodeCordoned')) continue;
    // When it was cordoned: the taint the node lifecycle controller keeps with the cordon says.
    const taint = ctx.nodes.find((f) => f.name === n.name)?.node.spec?.taints?.find((t) => t.key === cordonTaint.key);
    const since = toTime(taint?.timeAdded);
    out.push({ changes: [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: n.name, ...(since !== undefined ? { since } : {}) }], nodes: [n.name] });
  }
  return out;
}
