// Tolerate a taint: the toleration copied from the taint (key, `Equal` and the value, or
// `Exists` for a taint without one, and the effect). Where the pod has a near-miss toleration
// for it (a typo in the value, say), the fix puts the copy in its place rather than beside it.
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import type { NodeVerdict } from '../diagnosis.js';
import { formatTaint } from '../match/tolerations.js';
import { failing, failures } from './nodes.js';
import type { Candidate, Change, FixInput } from './types.js';

const cordonTaintKey = 'node.kubernetes.io/unschedulable';

export function tolerationFor(taint: V1Taint): V1Toleration {
  return taint.value ? { key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect } : { key: taint.key, operator: 'Exists', effect: taint.effect };
}

export function proposeTolerations({ judgement }: FixInput): Candidate[] {
  if (!failures(judgement).plugins.has('TaintToleration')) return [];
  const byTaint = new Map<string, { change: Change; nodes: string[] }>();
  // Indexed: 5,000 verdicts walked once, before V8 has compiled the loop.
  const nodes = failing(judgement);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as NodeVerdict;
    for (let j = 0; j < node.reasons.length; j++) {
      const reason = node.reasons[j] as NodeVerdict['reasons'][number];
      const detail = reason.detail;
      // A cordon's taint is lifted by uncordoning (uncordon.ts), not tolerated around.
      if (detail.kind !== 'untoleratedTaint' || detail.taint.key === cordonTaintKey) continue;
      const key = formatTaint(detail.taint);
      const known = byTaint.get(key);
      if (known) {
        known.nodes.push(node.name);
        continue;
      }
      const near = detail.nearest;
      const change: Change = {
        kind: 'tolerateTaint',
        cause: 'TaintToleration',
        taint: detail.taint,
        toleration: tolerationFor(detail.taint),
        ...(near ? { replaces: { index: near.index, toleration: near.toleration } } : {}),
      };
      byTaint.set(key, { change, nodes: [node.name] });
    }
  }
  return [...byTaint.values()].map(({ change, nodes }) => ({ changes: [change], nodes }));
}
