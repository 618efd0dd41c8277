// DynamicResources (dynamicresources/dynamicresources.go at v1.37; DRA is GA and on by default).
//
// PreFilter, as upstream: each `spec.resourceClaims` entry must name its ResourceClaim
// (resourceclaim.Name): directly, or, for a template, through `status.resourceClaimStatuses`,
// which the resourceclaim controller fills once it has made the claim ("ResourceClaim not
// created yet" until then). The claim must exist, not be being deleted, be the pod's own when
// made from a template (resourceclaim.IsForPod), and, when allocated, have room in reservedFor
// ("resourceclaim in use"); an unallocated claim's device classes must exist. Each of these is
// UnschedulableAndUnresolvable before any node is looked at.
//
// Filter, per node: an allocated claim is usable only where its allocation's nodeSelector
// matches ("resourceclaim not available on the node"); the unallocated ones are allocated
// together by the structured allocator's replay (src/engine/dra/) from the node's
// ResourceSlices and the devices no other claim holds ("cannot allocate all claims"). What the
// replay does not model (a CEL expression the library cannot evaluate, partitionable devices,
// consumable capacity, device taints) leaves the node "not checked", with what it was.
//
// From v1.36, extended resources a DeviceClass serves (dra/extended.ts) join them: on a node that
// lists none of such a resource in allocatable, the devices for it are allocated with the pod's
// claims through one claim the scheduler makes, and fail as they do ("cannot allocate all
// claims"). A claim it made in an earlier cycle that still has its requests refuses every node
// until it is deleted ("cannot schedule extended resource claim").
import type { ResourceV1ResourceClaim, V1DeviceClass, V1Pod } from '@kubernetes/client-node';
import type { CollectionName } from '../../snapshot/types.js';
import { addShare, allocateOnNode, type AllocationOutcome, type DeviceShares, type RequestShortfall, type SelectorMiss } from '../dra/allocate.js';
import { poolsFor, withFeatures } from '../dra/pools.js';
import { deviceId } from '../dra/pools.js';
import { evaluateNodeSelector } from '../match/nodeSelector.js';
import { extendedResourceClaim, servedExtendedResources, staleExtendedClaim } from '../dra/extended.js';
import { isGap } from '../../snapshot/types.js';
import { draExtendedResourcesEnabled, draFeatures, releaseOf } from '../release.js';
import type { FilterRule, NodeFacts, NodeNotChecked, RuleContext, RuleReason } from '../model.js';

export interface ResolvedResourceClaim {
  /** The `spec.resourceClaims[].name` entry. */
  podClaim: string;
  /** The ResourceClaim object's name. */
  claim: string;
  /** From `resourceClaimTemplateName` (generated for this pod) rather than `resourceClaimName`. */
  template?: string;
}

export type { RequestShortfall, SelectorMiss };

export type DynamicResourcesDetail =
  | { kind: 'resourceClaimNotCreated'; pod: string; podClaim: string; template: string }
  | { kind: 'resourceClaimSourceMissing'; pod: string; podClaim: string }
  | { kind: 'resourceClaimNotFound'; claim: string }
  | { kind: 'resourceClaimBeingDeleted'; claim: string }
  | { kind: 'resourceClaimNotForPod'; claim: string; pod: string }
  | { kind: 'resourceClaimInUse'; claim: string; reservedFor: number }
  | { kind: 'deviceClassNotFound'; claim: string; request: string; deviceClass: string }
  /** An allocated claim whose devices are not reachable from this node. */
  | { kind: 'claimNotOnNode'; claim: string; allocatedTo?: string[] }
  /** No ResourceSlice offers any device to this node. */
  | { kind: 'noDevicesOnNode'; claims: string[]; drivers: string[] }
  | { kind: 'devicesShort'; claim: string; requests: RequestShortfall[] }
  | { kind: 'constraintUnsatisfied'; claim: string; attribute: string; requests: string[]; values: { request: string; device: string; value: string }[] }
  | { kind: 'selectorError'; claim: string; device: string; expression: string; error: string }
  /** The claim the scheduler made for the pod's extended resources in an earlier cycle, still with its requests. */
  | { kind: 'staleExtendedResourceClaim'; claim: string };

type Reason = RuleReason<'DynamicResources', DynamicResourcesDetail>;
type Resolution = { state: 'failed'; detail: DynamicResourcesDetail } | { state: 'resolved'; claims: ResolvedResourceClaim[] };

const deviceCollections: CollectionName[] = ['resourceClaims', 'deviceClasses', 'resourceSlices'];
/** What says which devices are free for an extended resource a class serves. */
const extendedCollections: CollectionName[] = ['resourceSlices', 'resourceClaims'];
// resourceapi.ResourceClaimReservedForMaxSize
const RESERVED_FOR_MAX = 256;

const podNameOf = (pod: V1Pod) => `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
const claimKey = (c: ResourceV1ResourceClaim) => `${c.metadata?.namespace ?? 'default'}/${c.metadata?.name ?? ''}`;

// foreachPodResourceClaim up to the claim lookup: the first entry that cannot be named fails.
function resolveResourceClaims(pod: V1Pod): Resolution {
  const podName = podNameOf(pod);
  const statuses = pod.status?.resourceClaimStatuses ?? [];
  const claims: ResolvedResourceClaim[] = [];
  for (const entry of pod.spec?.resourceClaims ?? []) {
    if (entry.resourceClaimName) {
      claims.push({ podClaim: entry.name, claim: entry.resourceClaimName });
      continue;
    }
    const template = entry.resourceClaimTemplateName;
    if (!template) return { state: 'failed', detail: { kind: 'resourceClaimSourceMissing', pod: podName, podClaim: entry.name } };
    const status = statuses.find((s) => s.name === entry.name);
    if (!status) return { state: 'failed', detail: { kind: 'resourceClaimNotCreated', pod: podName, podClaim: entry.name, template } };
    if (status.resourceClaimName) claims.push({ podClaim: entry.name, claim: status.resourceClaimName, template });
  }
  return { state: 'resolved', claims };
}

interface PodClaims {
  /** The pod's claims, found, in spec order; undefined when one fails PreFilter. */
  claims: ResourceV1ResourceClaim[];
  failure?: DynamicResourcesDetail;
  classes: Map<string, V1DeviceClass>;
  /** Devices held by claims (the pod's own unallocated ones hold none), with their holders. */
  allocated: Map<string, string[]>;
  /** Shares of devices that allow multiple allocations: the capacity they consume, and their claims. */
  shared: Map<string, DeviceShares>;
  /** The pod's extended resources a DeviceClass serves (v1.36+), with the class. */
  extended: Map<string, V1DeviceClass>;
  /** A claim made for them in an earlier cycle that refuses every node. */
  stale?: string;
}

const cache = new WeakMap<RuleContext, PodClaims>();

function isReservedFor(pod: V1Pod, claim: ResourceV1ResourceClaim): boolean {
  return (claim.status?.reservedFor ?? []).some((r) => r.resource === 'pods' && r.uid === pod.metadata?.uid);
}

function podClaims(ctx: RuleContext): PodClaims {
  const known = cache.get(ctx);
  if (known) return known;
  const pod = ctx.pod.pod;
  const objects = ctx.snapshot.objects;
  const classes = new Map(objects.deviceClasses.map((c) => [c.metadata?.name ?? '', c]));
  const allocated = new Map<string, string[]>();
  const shared = new Map<string, DeviceShares>();
  for (const c of objects.resourceClaims) {
    for (const r of c.status?.allocation?.devices?.results ?? []) {
      // ListAllAllocatedDevices leaves out admin-access allocations: they hold nothing.
      if (r.adminAccess) continue;
      const id = deviceId(r.driver, r.pool, r.device);
      // A share (allocateddevices.go: a result with a shareID) holds capacity, not the device.
      if (r.shareID) addShare(shared, id, claimKey(c), r.consumedCapacity);
      else allocated.set(id, [...(allocated.get(id) ?? []), claimKey(c)]);
    }
  }
  const extended = draExtendedResourcesEnabled(releaseOf(ctx.snapshot).minor) ? servedExtendedResources(pod, objects.deviceClasses) : new Map<string, V1DeviceClass>();
  const stale = extended.size > 0 ? staleExtendedClaim(pod, objects.resourceClaims) : undefined;
  const out: PodClaims = { claims: [], classes, allocated, shared, extended, ...(stale ? { stale: claimKey(stale) } : {}) };
  const resolution = resolveResourceClaims(pod);
  if (resolution.state === 'failed') out.failure = resolution.detail;
  else out.failure = findClaims(pod, resolution.claims, objects.resourceClaims, classes, out.claims);
  cache.set(ctx, out);
  return out;
}

function findClaims(
  pod: V1Pod,
  resolved: ResolvedResourceClaim[],
  all: readonly ResourceV1ResourceClaim[],
  classes: ReadonlyMap<string, V1DeviceClass>,
  into: ResourceV1ResourceClaim[],
): DynamicResourcesDetail | undefined {
  const ns = ctxNamespace(pod);
  for (const r of resolved) {
    const claim = all.find((c) => (c.metadata?.namespace ?? 'default') === ns && c.metadata?.name === r.claim);
    if (!claim) return { kind: 'resourceClaimNotFound', claim: r.claim };
    if (claim.metadata?.deletionTimestamp) return { kind: 'resourceClaimBeingDeleted', claim: r.claim };
    if (r.template && !(claim.metadata?.ownerReferences ?? []).some((o) => o.controller && o.uid === pod.metadata?.uid)) {
      return { kind: 'resourceClaimNotForPod', claim: `${ns}/${r.claim}`, pod: podNameOf(pod) };
    }
    into.push(claim);
  }
  for (const claim of into) {
    const reserved = claim.status?.reservedFor?.length ?? 0;
    if (claim.status?.allocation && reserved >= RESERVED_FOR_MAX && !isReservedFor(pod, claim)) {
      return { kind: 'resourceClaimInUse', claim: claimKey(claim), reservedFor: reserved };
    }
    if (claim.status?.allocation) continue;
    for (const request of claim.spec?.devices?.requests ?? []) {
      const wanted = request.exactly ? [{ name: request.name, cls: request.exactly.deviceClassName }] : (request.firstAvailable ?? []).map((s) => ({ name: `${request.name}/${s.name}`, cls: s.deviceClassName }));
      const missing = wanted.find((w) => !classes.has(w.cls));
      if (missing) return { kind: 'deviceClassNotFound', claim: claimKey(claim), request: missing.name, deviceClass: missing.cls };
    }
  }
  return undefined;
}

function ctxNamespace(pod: V1Pod): string {
  return pod.metadata?.namespace ?? 'default';
}

/** What the pod needs of one node's devices, made once per node and context (filter and notCheckedOn both ask). */
interface OnNode {
  ctx: RuleContext;
  /** The extended resources this node leaves to DRA: those it lists none of in allocatable (fit.go). */
  extended: Map<string, V1DeviceClass>;
  /** The claims to allocate on the node: the pod's unallocated ones, then the scheduler's for its extended resources. */
  pending: ResourceV1ResourceClaim[];
  outcome?: AllocationOutcome;
}

const onNodes = new WeakMap<NodeFacts, OnNode>();

function onNode(ctx: RuleContext, node: NodeFacts): OnNode {
  const known = onNodes.get(node);
  if (known?.ctx === ctx) return known;
  const { claims, extended: served } = podClaims(ctx);
  const extended = new Map([...served].filter(([resource]) => (node.allocatable[resource] ?? 0n) === 0n));
  const unallocated = claims.filter((c) => !c.status?.allocation);
  const out: OnNode = { ctx, extended, pending: extended.size > 0 ? [...unallocated, extendedResourceClaim(ctx.pod.pod, extended)] : unallocated };
  onNodes.set(node, out);
  return out;
}

/** What a node's extended resources need read that is not, when a class serves some there. */
function extendedUnread(ctx: RuleContext, node: NodeFacts): CollectionName[] {
  return onNode(ctx, node).extended.size > 0 ? extendedCollections.filter((c) => isGap(ctx.snapshot, c) !== undefined) : [];
}

function allocationOn(ctx: RuleContext, node: NodeFacts): AllocationOutcome {
  const on = onNode(ctx, node);
  if (on.outcome) return on.outcome;
  const { classes, allocated, shared } = podClaims(ctx);
  // The release's allocator: which of taints, taint rules, counters and capacity it honours.
  const features = draFeatures(releaseOf(ctx.snapshot).minor);
  const pools = () => withFeatures(poolsFor(node.node, ctx.snapshot.objects.resourceSlices, features.deviceTaintRules ? ctx.snapshot.objects.deviceTaintRules : []), features);
  on.outcome = on.pending.length === 0 ? { kind: 'allocated' } : allocateOnNode({ claims: on.pending, classes, allocated, shared, pools: pools(), consumableCapacity: features.consumableCapacity });
  return on.outcome;
}

function reasonOf(outcome: AllocationOutcome, pending: string[]): DynamicResourcesDetail | undefined {
  switch (outcome.kind) {
    case 'noDevices':
      return { kind: 'noDevicesOnNode', claims: pending, drivers: outcome.drivers };
    case 'shortfall':
      return { kind: 'devicesShort', claim: outcome.claim, requests: outcome.requests };
    case 'constraint':
      return { kind: 'constraintUnsatisfied', claim: outcome.claim, attribute: outcome.attribute, requests: outcome.requests, values: outcome.values };
    case 'selectorError':
      return { kind: 'selectorError', claim: outcome.claim, device: outcome.device, expression: outcome.expression, error: outcome.error };
    default:
      return undefined;
  }
}

/** Where an allocation's node selector pins it, when it names nodes by metadata.name. */
function pinnedNodes(claim: ResourceV1ResourceClaim): string[] | undefined {
  const names = (claim.status?.allocation?.nodeSelector?.nodeSelectorTerms ?? []).flatMap((t) => (t.matchFields ?? []).filter((f) => f.key === 'metadata.name' && f.operator === 'In').flatMap((f) => f.values ?? []));
  return names.length > 0 ? names : undefined;
}

const rule: FilterRule<'DynamicResources', DynamicResourcesDetail> = {
  meta: {
    name: 'DynamicResources',
    kinds: [
      'resourceClaimNotCreated',
      'resourceClaimSourceMissing',
      'resourceClaimNotFound',
      'resourceClaimBeingDeleted',
      'resourceClaimNotForPod',
      'resourceClaimInUse',
      'deviceClassNotFound',
      'claimNotOnNode',
      'noDevicesOnNode',
      'devicesShort',
      'constraintUnsatisfied',
      'selectorError',
      'staleExtendedResourceClaim',
    ],
  },
  // Extended resources add no need: with no DeviceClass read none is served, and where one is,
  // a node it decides without slices or claims read is not checked (notCheckedOn).
  needs: (pod) => ((pod.pod.spec?.resourceClaims?.length ?? 0) > 0 ? deviceCollections : []),
  // The pod's own entries are proven without any object: they are read from the pod.
  provenDespiteGaps: (detail) => detail.kind === 'resourceClaimNotCreated' || detail.kind === 'resourceClaimSourceMissing',
  preFilter(ctx) {
    const { claims, failure, extended } = podClaims(ctx);
    // No claim and no extended resource a class serves: nothing to filter (upstream's Skip).
    if (!failure) return claims.length === 0 && extended.size === 0 ? { skip: true } : {};
    return { reasons: [{ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail: failure }] };
  },
  filter(ctx, node) {
    const { claims, failure, stale } = podClaims(ctx);
    if (failure) return [];
    if (stale) return [{ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail: { kind: 'staleExtendedResourceClaim', claim: stale } }];
    const { pending } = onNode(ctx, node);
    if (claims.length === 0 && pending.length === 0) return [];
    // Devices that cannot be told free or taken decide nothing here: the node is not checked.
    if (extendedUnread(ctx, node).length > 0) return [];
    const reasons: Reason[] = [];
    const detail = reasonOf(allocationOn(ctx, node), pending.map(claimKey));
    if (detail) reasons.push({ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail });
    for (const claim of claims) {
      const selector = claim.status?.allocation?.nodeSelector;
      if (!selector || evaluateNodeSelector(selector, node.node).matched) continue;
      const allocatedTo = pinnedNodes(claim);
      reasons.push({ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail: { kind: 'claimNotOnNode', claim: claimKey(claim), ...(allocatedTo ? { allocatedTo } : {}) } });
    }
    return reasons;
  },
  notCheckedOn(ctx, node): NodeNotChecked | undefined {
    const { failure, stale } = podClaims(ctx);
    if (failure || stale || onNode(ctx, node).pending.length === 0) return undefined;
    const unread = extendedUnread(ctx, node);
    if (unread.length > 0) return { kind: 'extendedResourceDevicesUnread', resources: [...onNode(ctx, node).extended.keys()], collections: unread };
    const outcome = allocationOn(ctx, node);
    if (outcome.kind === 'notEvaluable') return { kind: 'selectorNotEvaluable', expression: outcome.expression, error: outcome.error };
    if (outcome.kind === 'notModelled') return { kind: 'allocatorFeature', feature: outcome.feature };
    return undefined;
  },
};

export default rule;
