// NodeResourcesFit: what it checks, its messages (the request arithmetic) and short forms, and
// the scheduler's wordings.
import rule, { type ResourceHolder } from '../../engine/rules/NodeResourcesFit.js';
import { filterWording, preFilterWording } from '../../engine/scheduler-message/catalog.js';
import type { InsufficientResourceDetail } from '../../engine/rules/NodeResourcesFit.js';
import { list, plural, quantitiesAlike, quantity } from '../format.js';
import { plugin, verb, type Clause } from '../plugin.js';

const max = (values: readonly bigint[]): bigint => values.reduce((a, b) => (b > a ? b : a), 0n);

/**
 * Nodes short of one resource, in one clause. When they have enough free between them but no
 * single node has it, say both numbers: that is fragmentation, and the fix differs.
 */
function shortOf(n: number, details: readonly InsufficientResourceDetail[]): Clause {
  const first = details[0];
  if (!first) return { text: '' };
  const r = first.resource;
  if (r === 'pods') return { text: `already ${verb(n, 'runs its', 'run their')} maximum number of pods` };
  const frees = details.map((d) => (d.free > 0n ? d.free : 0n));
  const most = max(frees);
  const total = frees.reduce((a, b) => a + b, 0n);
  if (details.every((d) => d.allocatable === 0n)) return { text: `${verb(n, 'has', 'have')} no ${r} at all` };
  if (details.every((d) => d.exceedsAllocatable)) {
    const [alloc = '', asked = ''] = quantitiesAlike(r, [max(details.map((d) => d.allocatable)), first.requested]);
    return { text: `${verb(n, 'has', 'have')} ${n > 1 ? 'at most ' : ''}${alloc} ${r} allocatable in all, less than the ${asked}${overheadText(first)} the pod asks` };
  }
  const [mostText = '', totalText = '', askedAmount = ''] = quantitiesAlike(r, [most, total, first.requested]);
  const asked = `${askedAmount}${overheadText(first)}`;
  const uniform = frees.every((f) => f === most);
  const least = details.reduce((a, d) => (d.short < a ? d.short : a), first.short);
  const [leastText = ''] = quantitiesAlike(r, [least]);
  const free = `${verb(n, 'has', 'have')} ${n > 1 && !uniform ? 'at most ' : ''}${mostText} ${r} free (pod asks ${asked})`;
  const short = `${verb(n, 'is', 'are')} ${n > 1 && details.some((d) => d.short !== least) ? 'at least ' : ''}${leastText} ${r} short`;
  if (n > 1 && total >= first.requested) {
    return { text: `${verb(n, 'has', 'have')} ${totalText} ${r} free in total but at most ${mostText} on one (pod asks ${asked})`, brief: free, briefest: short };
  }
  return { text: free, brief: short };
}

/** ": 3500m + 500m overhead of RuntimeClass kata" after the amount asked, when the request includes overhead. */
function overheadText(d: InsufficientResourceDetail): string {
  if (!d.overhead) return '';
  const [own = '', extra = ''] = quantitiesAlike(d.resource, [d.requested - d.overhead.amount, d.overhead.amount]);
  return `: ${own} + ${extra} overhead${d.overhead.runtimeClass ? ` of RuntimeClass ${d.overhead.runtimeClass}` : ''}`;
}

/** "inference/llama-8b-0 (1), inference/ocr-0 (1) and 2 more pods": who to move to free the resource. */
export function holdersText(resource: string, holders: readonly ResourceHolder[], count: number): string {
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
    // noderesources/fit.go PreFilter, with the SidecarContainers gate off (its default in v1.28).
    preFilterWording(/^Pod has a restartable init container and the SidecarContainers feature is disabled$/, 'v1.28+ (SidecarContainers off; on by default from v1.29)'),
  ],
  messages: {
    insufficientResource: (d) => {
      if (d.resource === 'pods') return `too many pods: ${d.used} of ${d.allocatable} allowed already run`;
      const q = (n: bigint) => quantity(d.resource, n);
      const head = `insufficient ${d.resource}: pod asks ${q(d.requested)}${d.overhead ? ` (${overheadText(d).slice(2)})` : ''}, node has ${q(d.free)} free of ${q(d.allocatable)} (short by ${q(d.short)})`;
      const full = d.exceedsAllocatable ? `${head}; more than the node's whole allocatable, no eviction can help` : head;
      return d.holders && d.holders.length > 0 ? `${full}; held by ${holdersText(d.resource, d.holders, d.holderCount ?? d.holders.length)}` : full;
    },
    sidecarsDisabled: (d) =>
      `the pod has restartable init containers (sidecars: ${list(d.containers)}), which this release's scheduler refuses while the SidecarContainers feature gate is off, its default before v1.29`,
  },
  short: {
    // cpu always in millicores, so that a table column reads in one unit (never `2` beside `1500m`).
    sidecarsDisabled: () => 'sidecars off',
    insufficientResource: (d) => (d.resource === 'pods' ? `pods ${d.used}/${d.allocatable}` : `${d.resource} short ${d.resource === 'cpu' ? `${d.short}m` : quantitiesAlike(d.resource, [d.short]).join('')}`),
  },
  headline: {
    insufficientResource: { key: (d) => `${d.resource}|${d.exceedsAllocatable ? 'over' : ''}`, says: shortOf },
  },
  presentation: {
    // The request arithmetic's table tells every short node in numbers; the holders, who to move.
    insufficientResource: {
      rows: {
        shortfall: (d) => d,
        holders: (d) => (d.holders && d.holders.length > 0 ? { resource: d.resource, holders: d.holders, holderCount: d.holderCount ?? d.holders.length } : undefined),
      },
      toldInSection: true,
    },
  },
});
