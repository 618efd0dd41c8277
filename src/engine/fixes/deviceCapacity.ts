// Ask less of a shared device: where the capacity a device has left is what stands between the
// request and it (consumable capacity), the request's capacity lowered to what is left. A
// capacity decision, as a smaller container request is; the replay patches the claim in a copy
// of the snapshot (patch.ts), so the allocator's own rounding by the requestPolicy decides.
import type { NodeVerdict } from '../judge.js';
import { failing, failures } from './nodes.js';
import type { Candidate, Change, FixInput } from './types.js';

export function proposeDeviceCapacities({ judgement }: FixInput): Candidate[] {
  if (!failures(judgement).plugins.has('DynamicResources')) return [];
  const byChange = new Map<string, { change: Change; nodes: string[] }>();
  for (const node of failing(judgement) as NodeVerdict[]) {
    for (const reason of node.reasons) {
      const d = reason.detail;
      if (d.kind !== 'devicesShort') continue;
      for (const r of d.requests) {
        if (r.free > 0 || !r.capacityShort?.length || r.tainted?.length || r.countersShort?.length) continue;
        // The device with the most left: the smallest cut that can fit.
        const best = [...r.capacityShort].filter((c) => c.has && c.left > 0n).sort((a, b) => (a.left === b.left ? 0 : a.left > b.left ? -1 : 1))[0];
        if (!best) continue;
        const key = `${d.claim}|${r.request}|${best.capacity}|${best.left}`;
        let entry = byChange.get(key);
        if (!entry) {
          const change: Change = { kind: 'setDeviceCapacity', cause: 'DynamicResources', claim: d.claim, request: r.request, capacity: best.capacity, from: best.wants, to: best.left };
          byChange.set(key, (entry = { change, nodes: [] }));
        }
        if (!entry.nodes.includes(node.name)) entry.nodes.push(node.name);
      }
    }
  }
  return [...byChange.values()].map(({ change, nodes }) => ({ changes: [change], nodes }));
}
