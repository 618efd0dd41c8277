// Uncordon a cordoned node. Cordons are usually deliberate (a drain, an upgrade), so this is
// offered as what would work, for the few cordoned nodes the pod could otherwise use.
import { failing, failures } from './nodes.js';
import type { Candidate, FixInput } from './types.js';

const offered = 3;

export function proposeUncordons({ judgement }: FixInput): Candidate[] {
  if (!failures(judgement).plugins.has('NodeUnschedulable')) return [];
  const out: Candidate[] = [];
  // The first few cordoned nodes: no need to look through the other thousands.
  for (const n of failing(judgement)) {
    if (out.length === offered) break;
    if (n.reasons.some((r) => r.detail.kind === 'nodeCordoned')) out.push({ changes: [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: n.name }], nodes: [n.name] });
  }
  return out;
}
