// Honor taints in a topology spread: with nodeTaintsPolicy Ignore (the default) a domain whose
// nodes all carry taints the pod does not tolerate still counts, usually with no matching pod,
// holding the global minimum at 0 where the pod can never go. Where only such domains push a
// node's skew past maxSkew (rules/PodTopologySpread.ts onlyTaintedDomains), setting
// nodeTaintsPolicy: Honor on that constraint is the safe fix: the pod may go nowhere new.
import type { V1TopologySpreadConstraint } from '@kubernetes/client-node';
import { failingOnlyOn } from './nodes.js';
import type { Candidate, FixInput } from './types.js';

export function proposeSpreadPolicies(input: FixInput): Candidate[] {
  const byIndex = new Map<number, Candidate>();
  const constraints = input.ctx.pod.pod.spec?.topologySpreadConstraints ?? [];
  for (const node of failingOnlyOn(input.judgement, 'PodTopologySpread')) {
    for (const { detail } of node.reasons) {
      if (detail.kind !== 'spreadSkewExceeded' || !detail.onlyTaintedDomains) continue;
      const index = detail.constraint.index;
      const known = byIndex.get(index);
      if (known) {
        if (!known.nodes.includes(node.name)) known.nodes.push(node.name);
        continue;
      }
      const after = constraints.map((c, i): V1TopologySpreadConstraint => (i === index ? { ...c, nodeTaintsPolicy: 'Honor' } : c));
      byIndex.set(index, { changes: [{ kind: 'honorTaintsInSpread', cause: 'PodTopologySpread', index, topologyKey: detail.constraint.topologyKey, after }], nodes: [node.name] });
    }
  }
  return [...byIndex.values()];
}
