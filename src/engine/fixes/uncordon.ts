// Uncordon a cordoned node. Cordons are usually deliberate (a drain, an upgrade), so this is
// offered as what would work, for the few cordoned nodes the pod could otherwise use.
import { failing } from './nodes.js';
import type { Candidate, FixInput } from './types.js';

export function proposeUncordons({ judgement }: FixInput): Candidate[] {
  return failing(judgement)
    .filter((n) => n.reasons.some((r) => r.detail.kind === 'nodeCordoned'))
    .slice(0, 3)
    .map((n) => ({ changes: [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: n.name }], nodes: [n.name] }));
}
