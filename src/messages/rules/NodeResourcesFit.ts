// NodeResourcesFit: what it checks, its messages (the request arithmetic) and short forms, and
// the scheduler's wordings.
import rule, { type ResourceHolder } from '../../engine/rules/NodeResourcesFit.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { list, plural, quantity } from '../format.js';
import { plugin } from '../plugin.js';

/** "inference/llama-8b-0 (1), inference/ocr-0 (1) and 2 more pods": who to move to free the resource. */
export function holdersText(resource: string, holders: ResourceHolder[], count: number): string {
  const named = holders.map((h) => `${h.namespace}/${h.name} (${quantity(resource, h.amount)})`);
  const more = count - holders.length;
  return more > 0 ? `${named.join(', ')} and ${plural(more, 'more pod')}` : list(named);
}

export default plugin(rule, {
  purpose: "the node's free allocatable is less than the pod's request",
  wordings: [
    // noderesources/fit.go fitsRequest: "Insufficient %v" per resource (every failing one is
    // kept, so one node can count several times), "Too many pods" since v1.18 (the legacy
    // predicate said "Insufficient pods"). Unschedulable; since PR #131345 (v1.34)
    // UnschedulableAndUnresolvable when the request exceeds the node's whole allocatable,
    // which the wording does not show, hence no code here.
    filterWording(/^Insufficient (?<resource>\S+)$/, undefined, 'all'),
    { ...filterWording(/^Too many pods$/, undefined, 'v1.18+'), impliedDetail: { resource: 'pods' } },
  ],
  messages: {
    insufficientResource: (d) => {
      if (d.resource === 'pods') return `too many pods: ${d.used} of ${d.allocatable} allowed already run`;
      const q = (n: bigint) => quantity(d.resource, n);
      const head = `insufficient ${d.resource}: pod asks ${q(d.requested)}, node has ${q(d.free)} free of ${q(d.allocatable)} (short by ${q(d.short)})`;
      const full = d.exceedsAllocatable ? `${head}; more than the node's whole allocatable, no eviction can help` : head;
      return d.holders && d.holders.length > 0 ? `${full}; held by ${holdersText(d.resource, d.holders, d.holderCount ?? d.holders.length)}` : full;
    },
  },
  short: {
    insufficientResource: (d) => (d.resource === 'pods' ? `pods ${d.used}/${d.allocatable}` : `${d.resource} short ${quantity(d.resource, d.short)}`),
  },
});
