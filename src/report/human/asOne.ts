// Reasons the scheduler counts twice that a person reads as one (-o json keeps both):
// - a cordoned node fails NodeUnschedulable for spec.unschedulable, and TaintToleration for the
//   node.kubernetes.io/unschedulable:NoSchedule taint the node lifecycle controller keeps in step;
// - a symmetric anti-affinity (the pod's term rejects pods whose own term rejects the pod) fails
//   InterPodAffinity twice: the pod's own term, which says so, is kept.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { NodeVerdict } from '../../engine/judge.js';
import { cordonTaint } from '../../engine/match/tolerations.js';


// Nodes of one class share their list of reasons: the shortened list is shared the same way.
const shortened = new WeakMap<NodeVerdict['reasons'], NodeVerdict['reasons']>();

function withoutCordonTaint(reasons: NodeVerdict['reasons']): NodeVerdict['reasons'] {
  let out = shortened.get(reasons);
  if (!out) {
    const cordoned = reasons.some((r) => r.detail.kind === 'nodeCordoned');
    const symmetric = reasons.some((r) => r.detail.kind === 'podAntiAffinityConflict' && r.detail.symmetric);
    const kept = cordoned || symmetric
      ? reasons.filter((r) => !(cordoned && r.detail.kind === 'untoleratedTaint' && r.detail.taint.key === cordonTaint.key) && !(symmetric && r.detail.kind === 'existingPodAntiAffinityConflict'))
      : reasons;
    out = kept.length === reasons.length ? reasons : kept;
    shortened.set(reasons, out);
  }
  return out;
}

/** The diagnosis as the human report tells it: a cordon and its taint, a symmetric anti-affinity, are one reason each. */
export function twinsAsOne(d: Diagnosis): Diagnosis {
  let changed = false;
  const nodes = d.nodes.map((n) => {
    const reasons = withoutCordonTaint(n.reasons);
    if (reasons === n.reasons) return n;
    changed = true;
    return { ...n, reasons };
  });
  return changed ? { ...d, nodes } : d;
}
