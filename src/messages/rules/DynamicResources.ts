// DynamicResources: what it checks, its messages and short forms, and the scheduler's wordings.
import rule, { type DynamicResourcesDetail, type RequestShortfall, type SelectorMiss } from '../../engine/rules/DynamicResources.js';
import type { DeviceTaintMiss } from '../../engine/dra/allocate.js';
import { formatTaint, formatToleration } from '../../engine/match/tolerations.js';
import { formatMilli } from '../../engine/quantity/index.js';
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { extendedClaimName } from '../../engine/dra/extended.js';
import { filterWording, preFilterWording, quotedClaim } from '../../engine/scheduler-message/catalog.js';
import { list, plural, quote } from '../format.js';
import { tolerationLines } from '../nearMissBlocks.js';
import { plugin, verb } from '../plugin.js';

/** The claim the scheduler makes for extended resources has no object yet: it is told by what it holds. */
function isExtended(claim: string): boolean {
  return claim.endsWith(`/${extendedClaimName}`);
}

function claimName(claim: string): string {
  return isExtended(claim) ? "the pod's extended resources (served by a DeviceClass: the node lists none in allocatable)" : `ResourceClaim ${claim}`;
}

function claimNames(claims: readonly string[]): string {
  const named = claims.filter((c) => !isExtended(c));
  const parts = [...(named.length > 0 ? [`claim ${list(named)}`] : []), ...(named.length < claims.length ? ["the pod's extended resources"] : [])];
  return parts.join(' and ');
}

function wanted(s: RequestShortfall): string {
  return s.wanted === 'all' ? 'all matching devices' : plural(s.wanted, 'device');
}

function miss(m: SelectorMiss): string {
  if (m.error) return `device ${m.device}: ${m.from === 'class' ? 'the class' : 'the request'} selector \`${m.expression}\` cannot be evaluated (${m.error})`;
  const has = m.has.length > 0 ? `: it has ${list(m.has)}` : '';
  const near = m.nearMiss ? ` (${quote(m.nearMiss.found)} differs from ${quote(m.nearMiss.wanted)} only in case or separators)` : '';
  return `device ${m.device} fails ${m.from === 'class' ? 'the class' : 'the request'} selector \`${m.expression}\`${has}${near}`;
}

/** "gpu-1 is tainted dedicated=GPU:NoSchedule (the request's toleration dedicated=gpu:NoSchedule differs in its value)" */
function taintMiss(t: DeviceTaintMiss): string {
  const near = t.nearest ? ` (the request's toleration ${formatToleration(t.nearest.toleration as V1Toleration)} differs in its ${list(t.nearest.mismatches.map((m) => m.field))})` : '';
  return `${t.device} is tainted ${formatTaint(t.taint as V1Taint)}${t.rule !== undefined ? ` by DeviceTaintRule ${t.rule}` : ''}${near}`;
}

type CountersShort = NonNullable<RequestShortfall['countersShort']>[number];
type CapacityShort = NonNullable<RequestShortfall['capacityShort']>[number];

/** "gpu-0-whole needs 40Gi of counter memory in set gpu-0-counters, 20Gi left" */
function counterShort(c: CountersShort): string {
  const by = c.usedBy.length > 0 ? ` (the rest consumed by ${list(c.usedBy.map((u) => `${u.device} of ${list(u.claims)}`))})` : '';
  return `${c.device} needs ${formatMilli(c.needs)} of counter ${c.counter} in set ${c.counterSet}, ${formatMilli(c.left)} left${by}`;
}

/** "gpu-0 has 10Gi of its memory left, the request takes 20Gi" */
function capacityShort(c: CapacityShort): string {
  if (!c.has) return `${c.device} has no capacity ${c.capacity}`;
  return `${c.device} has ${formatMilli(c.left)} of its ${c.capacity} left, the request takes ${formatMilli(c.wants)}`;
}

/** "request gpu (class gpu.example.com) wants 1 device: 4 devices on the node, 2 match, 0 free; held by ml/a (gpu-0)" */
function shortfall(s: RequestShortfall): string {
  const parts = [`${s.devices} ${s.devices === 1 ? 'device' : 'devices'} on the node`, `${s.matching} ${verb(s.matching, 'matches', 'match')}`, `${s.free} free`];
  const held = s.heldBy.length > 0 ? `; taken by ${list(s.heldBy.map((h) => `${h.claim} (${list(h.devices)})`))}` : '';
  const misses = s.misses.length > 0 ? `; ${s.misses.map(miss).join('; ')}` : '';
  const tainted = s.tainted && s.tainted.length > 0 ? `; ${s.tainted.map(taintMiss).join('; ')}, which the request does not tolerate` : '';
  const counters = s.countersShort && s.countersShort.length > 0 ? `; ${s.countersShort.map(counterShort).join('; ')}` : '';
  const capacity = s.capacityShort && s.capacityShort.length > 0 ? `; ${s.capacityShort.map(capacityShort).join('; ')}` : '';
  return `${s.claim && isExtended(s.claim) ? s.request : `request ${s.request}`} (class ${s.deviceClass}) wants ${wanted(s)}: ${parts.join(', ')}${held}${tainted}${counters}${capacity}${misses}`;
}

function shortfalls(requests: readonly RequestShortfall[]): string {
  if (requests.length <= 1) return requests.map(shortfall).join('');
  return `no alternative fits: ${requests.map(shortfall).join(' | ')}`;
}

function shortOf(requests: readonly RequestShortfall[]): string {
  const s = requests[requests.length - 1];
  if (!s) return 'cannot allocate';
  if (s.matching === 0) return `no device matches ${s.request}`;
  if (s.free === 0 && s.tainted && s.tainted.length > 0) return `${s.tainted.length === 1 ? 'device' : 'devices'} tainted for ${s.request}`;
  if (s.free === 0 && s.countersShort && s.countersShort.length > 0) return `counters used up for ${s.request}`;
  if (s.free === 0 && s.capacityShort && s.capacityShort.length > 0) return `capacity used up for ${s.request}`;
  return `${s.free}/${s.wanted === 'all' ? s.matching : s.wanted} free for ${s.request}`;
}

export default plugin(rule, {
  purpose: 'the node cannot satisfy the pod\'s resource claims (DRA)',
  wordings: [
    // dynamicresources/dynamicresources.go, statusUnschedulable (always UnschedulableAndUnresolvable).
    filterWording(/^cannot allocate all claims$/, 'UnschedulableAndUnresolvable', 'v1.30+ (structured parameters)'),
    filterWording(/^resourceclaim not available on the node$/, 'UnschedulableAndUnresolvable', 'v1.26+'),
    filterWording(/^resourceclaim cannot be allocated for the node \((?:unsuitable|not suitable)\)$/, 'UnschedulableAndUnresolvable', 'v1.26-v1.31 (control-plane controller)'),
    // DRAExtendedResource (alpha v1.34, beta v1.36, GA v1.37): a claim the scheduler made for an
    // extended resource in an earlier cycle; PostFilter deletes it and the pod is retried.
    filterWording(/^cannot schedule extended resource claim$/, 'UnschedulableAndUnresolvable', 'v1.34+ (DRAExtendedResource)'),
    // An extended resource neither the node's allocatable nor a DeviceClass provides; NodeResourcesFit
    // normally refuses such a node first (its "Insufficient <resource>").
    filterWording(/^cannot fit resource$/, 'UnschedulableAndUnresolvable', 'v1.34+ (DRAExtendedResource)'),
    // DRASchedulerFilterTimeout: the allocator ran out of its per-node time (10 s by default).
    filterWording(/^timed out trying to allocate devices$/, 'UnschedulableAndUnresolvable', 'v1.34+ (DRASchedulerFilterTimeout)'),
    // An allocation error the allocator marks as this node's (ErrFailedAllocationOnNode), such as
    // a selector's CEL runtime error; other allocation errors abort the attempt (an Error status).
    filterWording(/^(?:claim|class) \S+: selector #\d+(?: on device \S+)?: CEL runtime error: .+$/, 'UnschedulableAndUnresolvable', 'releases that report allocation errors per node'),
    preFilterWording(/^resourceclaim in use$/, 'v1.26+'),
    preFilterWording(/^resource claim (?<claim>\S+) is in the process of being allocated$/, 'v1.31+'),
    preFilterWording(/^request (?<request>\S+): device class (?<deviceClass>\S+) does not exist$/, 'v1.31+'),
    preFilterWording(new RegExp(`^resourceclaim(?:\\.resource\\.k8s\\.io)? ${quotedClaim} (?:not found|is being deleted)$`), 'v1.26+'),
    // resourceclaim.IsForPod: a claim made from a template for another pod.
    preFilterWording(/^ResourceClaim (?<claim>\S+) was not created for [Pp]od (?<pod>\S+) \([Pp]od is not owner\)$/, 'v1.28+'),
  ],
  messages: {
    resourceClaimNotCreated: (d) =>
      `ResourceClaim for ${quote(d.podClaim)} (template ${quote(d.template)}) not created yet: the pod's status names no claim for it, so the scheduler holds ${d.pod} back`,
    resourceClaimSourceMissing: (d) => `resource claim ${quote(d.podClaim)} of ${d.pod} names neither a ResourceClaim nor a ResourceClaimTemplate`,
    resourceClaimNotFound: (d) => `ResourceClaim ${quote(d.claim)} does not exist`,
    resourceClaimBeingDeleted: (d) => `ResourceClaim ${quote(d.claim)} is being deleted`,
    resourceClaimNotForPod: (d) => `ResourceClaim ${d.claim} was made from a template for another pod, not for ${d.pod}`,
    resourceClaimInUse: (d) => `ResourceClaim ${d.claim} is reserved by ${d.reservedFor} consumers already, the most it can have`,
    deviceClassNotFound: (d) => `request ${d.request} of ResourceClaim ${d.claim} names DeviceClass ${quote(d.deviceClass)}, which does not exist`,
    claimNotOnNode: (d) => `ResourceClaim ${d.claim} is already allocated${d.allocatedTo ? ` to ${list(d.allocatedTo)}` : ''}, and its devices cannot be reached from this node`,
    noDevicesOnNode: (d) =>
      `no ResourceSlice offers devices to this node${d.drivers.length > 0 ? ` (slices come from ${plural(d.drivers.length, 'driver')} ${list(d.drivers)}, none for this node)` : ' (the cluster has no ResourceSlice)'}: ${claimNames(d.claims)} cannot be allocated`,
    devicesShort: (d) => `cannot allocate ${claimName(d.claim)}: ${shortfalls(d.requests)}`,
    constraintUnsatisfied: (d) =>
      `cannot allocate ResourceClaim ${d.claim}: requests ${list(d.requests.length > 0 ? d.requests : ['(all)'])} must share attribute ${d.attribute}, and no free devices agree: ${d.values.map((v) => `${v.request}: ${v.device}=${v.value}`).join(', ')}`,
    selectorError: (d) => `selector \`${d.expression}\` fails to evaluate on device ${d.device} (${d.error}); the scheduler reports an error for ResourceClaim ${d.claim}`,
    staleExtendedResourceClaim: (d) =>
      `ResourceClaim ${d.claim}, which the scheduler made for the pod's extended resources in an earlier attempt, still holds its requests: every node is refused until the scheduler deletes it and tries again`,
  },
  short: {
    resourceClaimNotCreated: () => 'claim not created yet',
    resourceClaimSourceMissing: () => 'claim source missing',
    resourceClaimNotFound: () => 'claim not found',
    resourceClaimBeingDeleted: () => 'claim being deleted',
    resourceClaimNotForPod: () => 'claim of another pod',
    resourceClaimInUse: () => 'claim in use',
    deviceClassNotFound: (d) => `no class ${d.deviceClass}`,
    claimNotOnNode: () => 'claim allocated elsewhere',
    noDevicesOnNode: () => 'no devices',
    devicesShort: (d) => shortOf(d.requests),
    constraintUnsatisfied: (d) => `${d.attribute.split('/').pop() ?? d.attribute} differs`,
    selectorError: () => 'selector error',
    staleExtendedResourceClaim: () => 'stale extended-resource claim',
  },
  headline: {
    noDevicesOnNode: {
      key: (d) => d.claims.join(','),
      says: (n, [d]) => ({ text: `${verb(n, 'has', 'have')} no ResourceSlice device for ${claimNames(d?.claims ?? [])}`, brief: `${verb(n, 'has', 'have')} no devices` }),
    },
    devicesShort: {
      key: (d) => `${d.claim}:${d.requests.map((r) => `${r.request}:${r.matching === 0 ? 'none' : r.tainted?.length ? 'tainted' : r.countersShort?.length ? 'counters' : r.capacityShort?.length ? 'capacity' : 'taken'}`).join(',')}`,
      says: (n, [d]) => {
        const r = d?.requests[d.requests.length - 1];
        const of = d && isExtended(d.claim) ? ` (extended resource served by DeviceClass ${r?.deviceClass ?? ''})` : ` of claim ${d?.claim ?? ''}`;
        if (r?.matching && r.tainted?.length) {
          const brief = `${verb(n, 'offers', 'offer')} only devices tainted against request ${r.request}`;
          return { text: `${verb(n, 'offers', 'offer')} only devices whose taints request ${r.request}${of} does not tolerate`, brief };
        }
        const why =
          r && r.matching === 0
            ? `no device matching request ${r.request}`
            : r?.countersShort?.length && r.free === 0
              ? `too little of the shared counters left for request ${r.request}`
              : r?.capacityShort?.length && r.free === 0
                ? `too little device capacity left for request ${r.request}`
                : `too few free devices for request ${r?.request ?? ''}`;
        return { text: `${verb(n, 'has', 'have')} ${why}${of}`, brief: `${verb(n, 'has', 'have')} ${why}` };
      },
    },
    constraintUnsatisfied: {
      key: (d) => `${d.claim}:${d.attribute}`,
      says: (n, [d]) => ({ text: `${verb(n, 'has', 'have')} no free devices for claim ${d?.claim ?? ''} that share ${d?.attribute ?? ''}`, brief: `${verb(n, 'has', 'have')} no devices sharing ${d?.attribute ?? ''}` }),
    },
    claimNotOnNode: {
      key: (d) => d.claim,
      says: (n, [d]) => ({ text: `${verb(n, 'cannot', 'cannot')} reach claim ${d?.claim ?? ''}, allocated${d?.allocatedTo ? ` to ${list(d.allocatedTo)}` : ' elsewhere'}` }),
    },
  },
  nearMisses: {
    // A device's taint against the nearest toleration of the claim's request.
    devicesShort: {
      blocks: (d) =>
        d.requests.flatMap((r) =>
          (r.tainted ?? []).flatMap((t) => {
            const near = t.nearest;
            if (!near) return [];
            const taint = formatTaint(t.taint as V1Taint);
            return [{ key: `deviceTaint|${d.claim}|${r.request}|${taint}|${near.index}`, title: `device taint ${taint} vs request ${r.request}'s toleration #${near.index + 1} ${formatToleration(near.toleration)}`, lines: tolerationLines(near, 'device') }];
          }),
        ),
    },
  },
  oneWording: { says: 'cannot allocate all claims', cause: (d) => draCause(d) },
});

/**
 * What hides behind "cannot allocate all claims" on a node, in a few words: the scheduler says
 * the same of every DRA failure, so the agreement line counts them by cause.
 */
function draCause(detail: DynamicResourcesDetail): string {
  switch (detail.kind) {
    case 'noDevicesOnNode':
      return 'no devices';
    case 'devicesShort': {
      const r = detail.requests[detail.requests.length - 1];
      if (!r || r.matching === 0) return 'no matching device';
      if (r.free > 0) return 'devices taken';
      if (r.tainted?.length) return 'device taints';
      if (r.countersShort?.length) return 'shared counters used up';
      if (r.capacityShort?.length) return 'capacity used up';
      return 'devices taken';
    }
    case 'constraintUnsatisfied':
      return 'matchAttribute';
    case 'claimNotOnNode':
      return 'claim allocated elsewhere';
    default:
      return detail.kind;
  }
}
