// Ask less of a shared device: where the capacity a device has left is what stands between the
// request and it (consumable capacity), the request's capacity lowered to what is left. A
// capacity decision, as a smaller container request is; the replay patches the claim in a copy
// of the snapshot (patch.ts), so the allocator's own rounding by the requestPolicy decides.
import { shortRequests } from './shortRequests.js';
import type { Candidate, Change, FixInput } from './types.js';

export function proposeDeviceCapacities(input: FixInput): Candidate[] {
  const byChange = new Map<string, { change: Change; nodes: string[] }>();
  for (const { node, claim, request: r } of shortRequests(input)) {
    if (!r.capacityShort?.length || r.tainted?.length || r.countersShort?.length) continue;
    // The device with the most left: the smallest cut that can fit.
    const best = [...r.capacityShort].filter((c) => c.has && c.left > 0n).sort((a, b) => (a.left === b.left ? 0 : a.left > b.left ? -1 : 1))[0];
    if (!best) continue;
    const key = `${claim}|${r.request}|${best.capacity}|${best.left}`;
    let entry = byChange.get(key);
    if (!entry) {
      const change: Change = { kind: 'setDeviceCapacity', cause: 'DynamicResources', claim, request: r.request, capacity: best.capacity, from: best.wants, to: best.left };
      byChange.set(key, (entry = { change, nodes: [] }));
    }
    if (!entry.nodes.includes(node)) entry.nodes.push(node);
  }
  return [...byChange.values()].map(({ change, nodes }) => ({ changes: [change], nodes }));
}
