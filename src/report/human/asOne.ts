// Reasons the scheduler counts twice that a person reads as one (-o json keeps both): each
// plugin's descriptor says which of its kinds another reason of the node already tells (its
// `presentation.toldBy`: a cordon's taint beside the cordon, the existing pod's side of a
// symmetric anti-affinity beside the pod's own term).
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { NodeVerdict } from '../../engine/judge.js';
import { toldByAnother } from './presentation.js';

// Nodes of one class share their list of reasons: the shortened list is shared the same way.
const shortened = new WeakMap<NodeVerdict['reasons'], NodeVerdict['reasons']>();

function withoutTwins(reasons: NodeVerdict['reasons']): NodeVerdict['reasons'] {
  let out = shortened.get(reasons);
  if (!out) {
    const details = reasons.map((r) => r.detail);
    const kept = reasons.filter((r) => !toldByAnother(r, details));
    out = kept.length === reasons.length ? reasons : kept;
    shortened.set(reasons, out);
  }
  return out;
}

/** The diagnosis as the human report tells it: a cordon and its taint, a symmetric anti-affinity, are one reason each. */
export function twinsAsOne(d: Diagnosis): Diagnosis {
  let changed = false;
  const nodes = d.nodes.map((n) => {
    const reasons = withoutTwins(n.reasons);
    if (reasons === n.reasons) return n;
    changed = true;
    return { ...n, reasons };
  });
  return changed ? { ...d, nodes } : d;
}
