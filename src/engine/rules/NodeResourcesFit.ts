// NodeResourcesFit: the pod's effective request against each node's allocatable minus what
// its non-terminal pods request, resource by resource (noderesources/fit.go fitsRequest).
// A request larger than the whole allocatable cannot be helped by preemption.
// Two answers follow the cluster's release (release.ts): before v1.29 (SidecarContainers off by
// default) the PreFilter refuses a pod with a restartable init container; before v1.34 every
// shortfall is Unschedulable, even one above the node's whole allocatable. From v1.36 an
// extended resource a DeviceClass serves is left to DynamicResources on a node that lists none of
// it (dra/extended.ts): a device plugin's node is checked here, any other by the allocator.
import { passed, type FilterRule, type NodeFacts, type PodFacts, type PreFilterOutcome, type RuleReason } from '../model.js';
import { draExtendedResourcesEnabled, releaseOf, requestRulesFor, sidecarsEnabled, unresolvableWhenAboveAllocatable } from '../release.js';
import { classesByResource, isDraExtendedName } from '../dra/extended.js';
import { podRequestTotal, type RequestRules } from '../resources/requests.js';
import { byText } from '../order.js';
import type { Snapshot } from '../../snapshot/types.js';

export interface InsufficientResourceDetail {
  kind: 'insufficientResource';
  resource: string;
  /** Amounts in the scheduler's units: millicores for cpu, whole units otherwise. */
  requested: bigint;
  used: bigint;
  allocatable: bigint;
  free: bigint;
  short: bigint;
  /** True when the request exceeds the node's whole allocatable. */
  exceedsAllocatable: boolean;
  /**
   * For a scalar resource (nvidia.com/gpu, hugepages-2Mi: not pods, cpu, memory or
   * ephemeral-storage), the pods on the node that request it, most first, at most
   * `holdersShown`; `holderCount` counts them all.
   */
  holders?: ResourceHolder[];
  holderCount?: number;
  /** The part of `requested` that is spec.overhead (its RuntimeClass's, set at admission), when there is some. */
  overhead?: { amount: bigint; runtimeClass?: string };
}

/** PreFilter, before v1.29: the pod's restartable init containers (sidecars) with SidecarContainers off. */
export interface SidecarsDisabledDetail {
  kind: 'sidecarsDisabled';
  /** The init containers with restartPolicy Always, in spec order. */
  containers: string[];
}

export type NodeResourcesFitDetail = InsufficientResourceDetail | SidecarsDisabledDetail;

export interface ResourceHolder {
  namespace: string;
  name: string;
  amount: bigint;
}

const holdersShown = 5;

type NodeResourcesFitReason = RuleReason<'NodeResourcesFit', NodeResourcesFitDetail>;

// Resources the scheduler's framework.Resource tracks; anything else (say `storage`) it ignores.
function isTracked(resource: string): boolean {
  return ['cpu', 'memory', 'ephemeral-storage'].includes(resource) || resource.startsWith('hugepages-') || resource.includes('/');
}

// The scheduler reports pods first, then cpu, memory, ephemeral-storage, then scalar resources.
function resourceOrder(resource: string): number {
  const fixed = ['pods', 'cpu', 'memory', 'ephemeral-storage'].indexOf(resource);
  return fixed === -1 ? 4 : fixed;
}

// What the pod asks, in the scheduler's order: the same for every node, so worked out once per
// request (a fix's replay that changes the request has another).
interface Asked {
  resource: string;
  amount: bigint;
}

const tracked = new WeakMap<PodFacts['requests'], readonly Asked[]>();
// The judge asks for every node in turn with the same pod: the last answer is checked first.
let last: { of: PodFacts['requests']; asked: readonly Asked[] } | undefined;

function trackedRequests(pod: PodFacts): readonly Asked[] {
  if (last?.of === pod.requests) return last.asked;
  let requests = tracked.get(pod.requests);
  if (!requests) {
    requests = Object.entries(pod.requests.total)
      .filter(([resource, amount]) => amount > 0n && isTracked(resource))
      .sort(([a], [b]) => resourceOrder(a) - resourceOrder(b) || byText(a, b))
      .map(([resource, amount]) => ({ resource, amount }));
    tracked.set(pod.requests, requests);
  }
  last = { of: pod.requests, asked: requests };
  return requests;
}

// Runs on every node, mostly before V8 compiles it: indexed loops (an unoptimised for...of with
// destructuring walks an iterator per pair) and no bigint built on the way to the common answer.
function insufficientResources(pod: PodFacts, node: NodeFacts, snapshot: Snapshot): InsufficientResourceDetail[] {
  // What most of 5,000 nodes have: enough of everything, the shared empty list (never added to).
  let out: InsufficientResourceDetail[] = passed;
  const podCapacity = node.allocatable['pods'] ?? 0n;
  // One more pod than the node holds (podCount + 1 > capacity), compared without a bigint sum.
  if (node.pods.length >= podCapacity) {
    out = [detail('pods', 1n, BigInt(node.pods.length), podCapacity, false)];
  }
  const requests = trackedRequests(pod);
  for (let i = 0; i < requests.length; i++) {
    const { resource, amount } = requests[i] as Asked;
    const allocatable = node.allocatable[resource] ?? 0n;
    const used = node.requested[resource] ?? 0n;
    if (amount + used <= allocatable) continue;
    if (allocatable === 0n && delegatedToDra(resource, snapshot)) continue;
    const d = withOverhead(detail(resource, amount, used, allocatable, amount > allocatable), pod);
    if (out === passed) out = [];
    // A node without the resource at all has nobody to name.
    out.push(isScalar(resource) && allocatable > 0n ? { ...d, ...holdersOf(node, resource, requestRulesFor(snapshot)) } : d);
  }
  return out;
}

/** fit.go shouldDelegateResourceToDRA, for a node without the resource: a DeviceClass serves it. */
function delegatedToDra(resource: string, snapshot: Snapshot): boolean {
  return isDraExtendedName(resource) && draExtendedResourcesEnabled(releaseOf(snapshot).minor) && classesByResource(snapshot.objects.deviceClasses).has(resource);
}

function isScalar(resource: string): boolean {
  return resourceOrder(resource) === 4;
}

/** Who holds a scalar resource on the node: what the reader must move to free a GPU. */
function holdersOf(node: NodeFacts, resource: string, rules: RequestRules): { holders: ResourceHolder[]; holderCount: number } {
  const all = node.pods
    .map((pod): ResourceHolder => ({ namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '', amount: podRequestTotal(pod, rules)[resource] ?? 0n }))
    .filter((h) => h.amount > 0n)
    .sort((a, b) => (a.amount === b.amount ? byText(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`) : a.amount > b.amount ? -1 : 1));
  return { holders: all.slice(0, holdersShown), holderCount: all.length };
}

/** The detail with the overhead the request includes: a headline says "3500m + 500m overhead of RuntimeClass kata". */
function withOverhead(d: InsufficientResourceDetail, pod: PodFacts): InsufficientResourceDetail {
  const amount = pod.requests.parts.overhead[d.resource];
  if (amount === undefined || amount <= 0n) return d;
  const runtimeClass = pod.pod.spec?.runtimeClassName;
  return { ...d, overhead: { amount, ...(runtimeClass ? { runtimeClass } : {}) } };
}

function detail(resource: string, requested: bigint, used: bigint, allocatable: bigint, exceedsAllocatable: boolean): InsufficientResourceDetail {
  const free = allocatable - used;
  return { kind: 'insufficientResource', resource, requested, used, allocatable, free, short: requested - free, exceedsAllocatable };
}

const nothingBefore: PreFilterOutcome<'NodeResourcesFit', NodeResourcesFitDetail> = Object.freeze({});

const rule: FilterRule<'NodeResourcesFit', NodeResourcesFitDetail> = {
  meta: { name: 'NodeResourcesFit', kinds: ['insufficientResource', 'sidecarsDisabled'] },
  // DeviceClasses are read where the input has them: without them no class is known to serve a
  // name (the device plugins' world), and a scheduler that says otherwise disputes the nodes.
  needs: () => ['pods'],
  // Pods missing from the input can only use more of the node: a shortfall found stays (and
  // the sidecars' refusal reads the pod alone).
  provenDespiteGaps: () => true,
  preFilter({ snapshot, pod }) {
    if (sidecarsEnabled(releaseOf(snapshot).minor)) return nothingBefore;
    const containers = (pod.pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name);
    if (containers.length === 0) return nothingBefore;
    return { reasons: [{ plugin: 'NodeResourcesFit', code: 'UnschedulableAndUnresolvable', detail: { kind: 'sidecarsDisabled', containers } }] };
  },
  filter({ snapshot, pod }, node) {
    const missing = insufficientResources(pod, node, snapshot);
    if (missing.length === 0) return passed;
    // One status for the node: from v1.34, unresolvable as soon as one resource cannot fit even on an empty node.
    const code = missing.some((m) => m.exceedsAllocatable) && unresolvableWhenAboveAllocatable(releaseOf(snapshot).minor) ? 'UnschedulableAndUnresolvable' : 'Unschedulable';
    return missing.map((detail): NodeResourcesFitReason => ({ plugin: 'NodeResourcesFit', code, detail }));
  },
};

export default rule;
