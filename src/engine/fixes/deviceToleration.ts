// Tolerate a device's taint in the claim's request: the toleration copied from the taint (as a
// pod's is, toleration.ts). Where the request has a near-miss toleration for it, the copy goes in
// its place: a correction. A claim's spec cannot be edited once made, so the fix is worded as a
// claim (or its template) made again; the replay patches the claim in a copy of the snapshot.
import type { V1DeviceTaint, V1DeviceToleration } from '@kubernetes/client-node';
import { formatTaint } from '../match/tolerations.js';
import { shortRequests } from './shortRequests.js';
import type { Candidate, Change, FixInput } from './types.js';

function deviceTolerationFor(taint: V1DeviceTaint): V1DeviceToleration {
  return taint.value ? { key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect } : { key: taint.key, operator: 'Exists', effect: taint.effect };
}

export function proposeDeviceTolerations(input: FixInput): Candidate[] {
  const byTaint = new Map<string, { change: Change; nodes: string[] }>();
  for (const { node, claim, request: r } of shortRequests(input)) {
    // Only where the taints are what stands between the request and its devices.
    if (!r.tainted?.length || r.countersShort?.length || r.capacityShort?.length) continue;
    for (const t of r.tainted) {
      const key = `${claim}|${r.request}|${formatTaint(t.taint as never)}`;
      let entry = byTaint.get(key);
      if (!entry) {
        const change: Change = {
          kind: 'tolerateDeviceTaint',
          cause: 'DynamicResources',
          claim,
          request: r.request,
          taint: t.taint,
          toleration: deviceTolerationFor(t.taint),
          ...(t.rule !== undefined ? { rule: t.rule } : {}),
          ...(t.nearest ? { replaces: { index: t.nearest.index, toleration: t.nearest.toleration as V1DeviceToleration } } : {}),
        };
        byTaint.set(key, (entry = { change, nodes: [] }));
      }
      if (!entry.nodes.includes(node)) entry.nodes.push(node);
    }
  }
  return [...byTaint.values()].map(({ change, nodes }) => ({ changes: [change], nodes }));
}
