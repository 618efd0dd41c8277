// A cordoned node fails twice: NodeUnschedulable for spec.unschedulable, and TaintToleration for
// the node.kubernetes.io/unschedulable:NoSchedule taint the node lifecycle controller keeps in
// step with it. Both are the scheduler's (and -o json keeps both); a person reads one cordon.
import type { Diagnosis, NodeVerdict } from '../../engine/diagnosis.js';

const cordonTaintKey = 'node.kubernetes.io/unschedulable';

// Nodes of one class share their list of reasons: the shortened list is shared the same way.
const shortened = new WeakMap<NodeVerdict['reasons'], NodeVerdict['reasons']>();

function withoutCordonTaint(reasons: NodeVerdict['reasons']): NodeVerdict['reasons'] {
  let out = shortened.get(reasons);
  if (!out) {
    const cordoned = reasons.some((r) => r.detail.kind === 'nodeCordoned');
    const kept = cordoned ? reasons.filter((r) => !(r.detail.kind === 'untoleratedTaint' && r.detail.taint.key === cordonTaintKey)) : reasons;
    out = kept.length === reasons.length ? reasons : kept;
    shortened.set(reasons, out);
  }
  return out;
}

/** The diagnosis as the human report tells it: a cordon and its taint are one reason. */
export function cordonAsOne(d: Diagnosis): Diagnosis {
  let changed = false;
  const nodes = d.nodes.map((n) => {
    const reasons = withoutCordonTaint(n.reasons);
    if (reasons === n.reasons) return n;
    changed = true;
    return { ...n, reasons };
  });
  return changed ? { ...d, nodes } : d;
}
