// The structured allocator's search for one node (k8s.io/dynamic-resource-allocation/structured,
// allocator at v1.37): claims one after the other, each request in order; a request with
// `firstAvailable` tries its subrequests in order; ExactCount picks `count` devices, All takes
// every matching device; a device matches when every selector of its class and then of the
// request is true; a device another claim holds (or this search already picked) is taken,
// except for an admin-access request; `matchAttribute` constraints must hold across the devices
// of the requests they name. The first full solution wins; none means "cannot allocate all
// claims". Devices of a pool still being published (fewer slices at its newest generation than
// resourceSliceCount) are skipped; an All request on such a node is the scheduler's error.
// When the search fails, the request that cannot be met on its own is explained in
// numbers (devices, matching, free) and names (the claims holding them, the selector a device
// fails and the values it reads); when every request can be met alone, the constraint is named.
//
// A device with a NoSchedule or NoExecute taint (its slice's, or a DeviceTaintRule's) no
// toleration of the request matches is not allocated (DRADeviceTaints, GA in v1.37: the
// incubating allocator's taintPreventsAllocation; None never blocks); a request's tolerations
// match as a pod's do, key by key, so a near miss is named with its characters.
//
// Partitionable devices (DRAPartitionableDevices, beta and on in v1.37): a device that consumes
// its pool's shared counters fits only while, for every counter of the pool, what the allocated
// devices and this search's picks consume leaves enough (checkAvailableCounters). Consumable
// capacity (DRAConsumableCapacity, beta and on): a request consumes of each capacity of a device
// what it asks (rounded up by the capacity's requestPolicy), else the policy's default, else all
// of it; a device that allows multiple allocations is shared by claims until its capacity is used
// up (CmpRequestOverCapacity). Not modelled (such a node is "not checked"): binding conditions. The claim the scheduler makes for extended resources a
// DeviceClass serves (dra/extended.ts) is allocated here like any other.
import type { ResourceV1ResourceClaim, V1DeviceCapacity, V1DeviceClass, V1DeviceSubRequest, V1DeviceTaint, V1DeviceToleration, V1ExactDeviceRequest, V1Taint, V1Toleration } from '@kubernetes/client-node';
import { untoleratedTaints } from '../match/tolerations.js';
import { isNearToleration, nearestToleration, type NearestToleration } from '../match/nearestToleration.js';
import { celDevice, evaluateSelector, qualified, showValue } from './cel.js';
import { milliOf, type Counters, type NodePools, type PoolDevice, type SourcedTaint } from './pools.js';

interface Alternative {
  /** `request` or `request/subrequest`. */
  request: string;
  base: string;
  deviceClass: string;
  /** Class selectors first, as isSelectable checks them. */
  selectors: { expression: string; from: 'class' | 'request' }[];
  all: boolean;
  count: number;
  adminAccess: boolean;
  /** The request's (or subrequest's) device tolerations. */
  tolerations: V1DeviceToleration[];
  /** capacity.requests, in milli-units. */
  capacity: Map<string, bigint>;
  /** Set when the request uses something this replay does not model. */
  unmodelled?: string;
}

interface Request {
  claim: number;
  name: string;
  alternatives: Alternative[];
}

export interface SelectorMiss {
  device: string;
  expression: string;
  from: 'class' | 'request';
  /** What the device has for the attributes and capacities the expression reads (`memory=40Gi`). */
  has: string[];
  /** A string the expression compares with, and the device's value, when they differ only in case or spaces. */
  nearMiss?: { wanted: string; found: string };
  /** The selector could not be evaluated on this device (a runtime error, or beyond the CEL library). */
  error?: string;
}

export interface RequestShortfall {
  claim: string;
  request: string;
  deviceClass: string;
  /** Devices wanted; `all` for allocationMode All. */
  wanted: number | 'all';
  /** Devices on the node, in every pool. */
  devices: number;
  matching: number;
  free: number;
  /** Claims that hold matching devices (namespace/name), with how many each. */
  heldBy: { claim: string; devices: string[] }[];
  /** Up to three devices that fail a selector, and how. */
  misses: SelectorMiss[];
  /** Matching devices no claim holds that a taint keeps from the request: up to three, each with its first untolerated taint. */
  tainted?: DeviceTaintMiss[];
  /** Matching devices whose pool's shared counters have too little left for them: up to three. */
  countersShort?: { device: string; counterSet: string; counter: string; needs: bigint; left: bigint; usedBy: { device: string; claims: string[] }[] }[];
  /** Matching devices with too little of a capacity left (or none of it, `has` false): up to three; amounts in milli-units. */
  capacityShort?: { device: string; capacity: string; wants: bigint; left: bigint; has: boolean }[];
}

/** The shares a device that allows multiple allocations is allocated in: what they consume, and their claims. */
export interface DeviceShares {
  capacity: Map<string, bigint>;
  claims: string[];
}

/** Adds an allocation result with a shareID to `shared`. */
export function addShare(shared: Map<string, DeviceShares>, id: string, claim: string, consumed: Record<string, unknown> | undefined): void {
  const s = shared.get(id) ?? shared.set(id, { capacity: new Map(), claims: [] }).get(id) as DeviceShares;
  s.claims.push(claim);
  for (const [name, v] of Object.entries(consumed ?? {})) s.capacity.set(name, (s.capacity.get(name) ?? 0n) + milliOf(v));
}

/** A device's taint no toleration of the request matches, with the toleration nearest to it. */
export interface DeviceTaintMiss {
  device: string;
  taint: V1DeviceTaint;
  /** The DeviceTaintRule that adds the taint (none: the ResourceSlice's own). */
  rule?: string;
  /** The request's toleration nearest the taint, when it is a near miss (a slip in key, value or effect). */
  nearest?: NearestToleration;
}

export type AllocationOutcome =
  | { kind: 'allocated' }
  | { kind: 'noDevices'; drivers: string[] }
  | { kind: 'shortfall'; claim: string; requests: RequestShortfall[] }
  | { kind: 'constraint'; claim: string; attribute: string; requests: string[]; values: { request: string; device: string; value: string }[] }
  | { kind: 'selectorError'; claim: string; device: string; expression: string; error: string }
  | { kind: 'notEvaluable'; expression: string; error: string }
  | { kind: 'notModelled'; feature: string };

export interface AllocationInput {
  claims: readonly ResourceV1ResourceClaim[];
  classes: ReadonlyMap<string, V1DeviceClass>;
  /** Device IDs allocated to claims (outside those being allocated), with the claims holding them. */
  allocated: ReadonlyMap<string, string[]>;
  /** Devices allocated in shares (allowMultipleAllocations). */
  shared?: ReadonlyMap<string, DeviceShares>;
  /** DRAConsumableCapacity (on from 1.36): capacity is checked and devices shared; off, every device is whole. */
  consumableCapacity?: boolean;
  pools: NodePools;
}

const claimName = (c: ResourceV1ResourceClaim) => `${c.metadata?.namespace ?? 'default'}/${c.metadata?.name ?? ''}`;
const SEARCH_LIMIT = 200_000;

function alternative(request: string, base: string, spec: V1ExactDeviceRequest | V1DeviceSubRequest, classes: ReadonlyMap<string, V1DeviceClass>): Alternative {
  const cls = classes.get(spec.deviceClassName);
  const selectors = [
    ...(cls?.spec?.selectors ?? []).flatMap((s) => (s.cel ? [{ expression: s.cel.expression, from: 'class' as const }] : [])),
    ...(spec.selectors ?? []).flatMap((s) => (s.cel ? [{ expression: s.cel.expression, from: 'request' as const }] : [])),
  ];
  const unmodelled = undefined as string | undefined;
  return {
    request,
    base,
    deviceClass: spec.deviceClassName,
    selectors,
    all: spec.allocationMode === 'All',
    count: spec.count ?? 1,
    adminAccess: 'adminAccess' in spec && spec.adminAccess === true,
    tolerations: spec.tolerations ?? [],
    capacity: new Map(Object.entries(spec.capacity?.requests ?? {}).map(([name, v]) => [name, milliOf(v)])),
    ...(unmodelled ? { unmodelled } : {}),
  };
}

function requestsOf(claims: readonly ResourceV1ResourceClaim[], classes: ReadonlyMap<string, V1DeviceClass>): Request[] {
  return claims.flatMap((claim, index) =>
    (claim.spec?.devices?.requests ?? []).map((r): Request => ({
      claim: index,
      name: r.name,
      alternatives: r.exactly
        ? [alternative(r.name, r.name, r.exactly, classes)]
        : (r.firstAvailable ?? []).map((s) => alternative(`${r.name}/${s.name}`, r.name, s, classes)),
    })),
  );
}

type Match = { kind: 'matches' } | { kind: 'miss'; miss: SelectorMiss } | { kind: 'error' | 'unsupported'; expression: string; from: 'class' | 'request'; error: string };

const REFERENCE = /device\.(attributes|capacity)\[\s*"([^"]+)"\s*\]\.([A-Za-z_][\w]*)/g;
const COMPARED = /device\.attributes\[\s*"([^"]+)"\s*\]\.([A-Za-z_][\w]*)\s*==\s*"([^"]*)"|device\.driver\s*==\s*"([^"]*)"/g;
const squash = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');

function missOf(d: PoolDevice, cel: Record<string, unknown>, expression: string, from: 'class' | 'request'): SelectorMiss {
  const lookup = (map: 'attributes' | 'capacity', domain: string, id: string): unknown => ((cel[map] as Record<string, Record<string, unknown>>)[domain] ?? {})[id];
  const has = [...new Set([...expression.matchAll(REFERENCE)].map((m) => {
    const v = lookup(m[1] as 'attributes' | 'capacity', m[2] ?? '', m[3] ?? '');
    return `${m[3] ?? ''}=${v === undefined ? '(none)' : showValue(v)}`;
  }))];
  let nearMiss: SelectorMiss['nearMiss'];
  for (const m of expression.matchAll(COMPARED)) {
    const wanted = m[4] ?? m[3] ?? '';
    const found = m[4] !== undefined ? d.driver : lookup('attributes', m[1] ?? '', m[2] ?? '');
    if (typeof found === 'string' && found !== wanted && squash(found) === squash(wanted)) nearMiss = { wanted, found };
  }
  return { device: d.device.name, expression, from, has, ...(nearMiss ? { nearMiss } : {}) };
}

function matchOf(alt: Alternative, d: PoolDevice): Match {
  const cel = celDevice(d.driver, d.device);
  for (const s of alt.selectors) {
    const outcome = evaluateSelector(s.expression, cel);
    if (outcome.kind === 'matches') continue;
    if (outcome.kind === 'fails') return { kind: 'miss', miss: missOf(d, cel, s.expression, s.from) };
    return { kind: outcome.kind === 'runtimeError' ? 'error' : 'unsupported', expression: s.expression, from: s.from, error: outcome.error };
  }
  return { kind: 'matches' };
}

function attributeOf(d: PoolDevice, fullName: string): unknown {
  const { domain, id } = qualified(fullName, d.driver);
  for (const [name, value] of Object.entries(d.device.attributes ?? {})) {
    const q = qualified(name, d.driver);
    if (q.domain === domain && q.id === id) return JSON.stringify(value);
  }
  return undefined;
}

/** The device's taints that keep it from this request: NoSchedule and NoExecute ones no toleration matches. */
function blockingTaints(alt: Alternative, d: PoolDevice): SourcedTaint[] {
  const taints = d.taints;
  if (taints.length === 0) return [];
  // A device toleration matches a taint as a pod's toleration does (resourceclaim.ToleratesTaint).
  return untoleratedTaints(taints as V1Taint[], alt.tolerations as V1Toleration[]) as SourcedTaint[];
}

/** What each pool's shared counters have left once the allocated devices (whole or shared) consume theirs. */
function countersLeft(pools: NodePools, allocated: ReadonlyMap<string, string[]>, shared: ReadonlyMap<string, DeviceShares>): Map<string, Counters> {
  const out = new Map<string, Counters>();
  for (const [key, pc] of pools.counters) {
    const left: Counters = new Map([...pc.sets].map(([set, counters]) => [set, new Map(counters)]));
    for (const d of pc.consumers) {
      if (!allocated.has(d.id) && !shared.has(d.id)) continue;
      for (const [set, used] of d.consumes) {
        const counters = left.get(set);
        // Negative is fine: nothing is left (checkAvailableCounters).
        for (const [name, amount] of used) if (counters?.has(name)) counters.set(name, (counters.get(name) ?? 0n) - amount);
      }
    }
    out.set(key, left);
  }
  return out;
}

/** Whether every counter of the pool still covers this search's use with the device's added. */
function countersHold(left: Counters | undefined, used: Counters | undefined, consumes: Counters): boolean {
  for (const [set, counters] of left ?? new Map<string, Map<string, bigint>>()) {
    for (const [name, amount] of counters) {
      const want = (used?.get(set)?.get(name) ?? 0n) + (consumes.get(set)?.get(name) ?? 0n);
      if (amount < want) return false;
    }
  }
  return true;
}

function addCounters(into: Map<string, Counters>, pool: string, consumes: Counters, sign: bigint): void {
  const use = into.get(pool) ?? into.set(pool, new Map()).get(pool) as Counters;
  for (const [set, counters] of consumes) {
    const s = use.get(set) ?? use.set(set, new Map()).get(set) as Map<string, bigint>;
    for (const [name, amount] of counters) s.set(name, (s.get(name) ?? 0n) + sign * amount);
  }
}

function addAmounts(into: Map<string, Map<string, bigint>>, id: string, amounts: Map<string, bigint>, sign: bigint): void {
  const m = into.get(id) ?? into.set(id, new Map()).get(id) as Map<string, bigint>;
  for (const [name, amount] of amounts) m.set(name, (m.get(name) ?? 0n) + sign * amount);
}

/**
 * CmpRequestOverCapacity: what the request would consume of each capacity of the device, or
 * undefined when it cannot (a capacity the device lacks, a policy it breaks, too little left
 * after the shares allocated and those this search picked).
 */
function capacityFits(alt: Alternative, d: PoolDevice, sharedUse: ReadonlyMap<string, bigint> | undefined, searchUse: ReadonlyMap<string, bigint> | undefined): Map<string, bigint> | undefined {
  const caps = d.device.capacity ?? {};
  for (const name of alt.capacity.keys()) if (!(name in caps)) return undefined;
  const consumed = new Map<string, bigint>();
  for (const [name, cap] of Object.entries(caps)) {
    const amount = consumedOf(alt.capacity.get(name), cap);
    if (violatesPolicy(amount, cap)) return undefined;
    if ((sharedUse?.get(name) ?? 0n) + (searchUse?.get(name) ?? 0n) + amount > milliOf(cap.value)) return undefined;
    consumed.set(name, amount);
  }
  return consumed;
}

/** calculateConsumedCapacity: what a request consumes of one capacity of a device, in milli-units. */
/** requestPolicy.default as the API writes it (client-node's type calls it `_default`). */
const defaultOf = (cap: V1DeviceCapacity): unknown => (cap.requestPolicy as { default?: unknown } | undefined)?.default;

function consumedOf(requested: bigint | undefined, cap: V1DeviceCapacity): bigint {
  const policy = cap.requestPolicy;
  if (requested === undefined) return defaultOf(cap) !== undefined ? milliOf(defaultOf(cap)) : milliOf(cap.value);
  if (!policy) return requested;
  const range = policy.validRange;
  if (range?.min !== undefined) {
    const min = milliOf(range.min);
    if (requested < min) return min;
    if (range.step === undefined) return requested;
    const step = milliOf(range.step);
    const n = step > 0n ? (requested - min + step - 1n) / step : 0n;
    return min + n * step;
  }
  // The smallest valid value at least the request; none: the request as it is (and a violation).
  const values = (policy.validValues ?? []).map(milliOf);
  return values.find((v) => requested <= v) ?? requested;
}

/** violatesPolicy: a consumed amount the capacity's requestPolicy does not allow. */
function violatesPolicy(consumed: bigint, cap: V1DeviceCapacity): boolean {
  const policy = cap.requestPolicy;
  if (!policy) return false;
  if (defaultOf(cap) !== undefined && milliOf(defaultOf(cap)) === consumed) return false;
  const range = policy.validRange;
  if (range) {
    if (range.max !== undefined && consumed > milliOf(range.max)) return true;
    if (range.step !== undefined && range.min !== undefined) {
      const step = milliOf(range.step);
      return step > 0n && (consumed - milliOf(range.min)) % step !== 0n;
    }
    return false;
  }
  const values = (policy.validValues ?? []).map(milliOf);
  return values.length > 0 && !values.includes(consumed);
}

class Stop extends Error {}

/** Thrown where the scheduler's own evaluation stops the allocation (or ours cannot go on). */
class Halt extends Error {
  constructor(readonly outcome: AllocationOutcome) {
    super(outcome.kind);
  }
}

/** Replays the allocator for `input.claims` on one node. */
export function allocateOnNode(input: AllocationInput): AllocationOutcome {
  const { claims, classes, allocated, pools } = input;
  const shared = input.shared ?? new Map<string, DeviceShares>();
  const consumable = input.consumableCapacity ?? true;
  const requests = requestsOf(claims, classes);
  const unmodelledDevice = pools.devices.find((d) => (d.device.bindingConditions?.length ?? 0) > 0);
  if (unmodelledDevice) return { kind: 'notModelled', feature: `device ${unmodelledDevice.id} has binding conditions` };
  // An invalid pool fails the scheduler's whole attempt with an error, not this node alone.
  if (pools.invalid.length > 0) return { kind: 'notModelled', feature: `pool ${pools.invalid.join(', ')}, whose devices consume counters it does not define (the scheduler reports an error)` };
  const unmodelled = requests.flatMap((r) => r.alternatives).find((a) => a.unmodelled);
  if (unmodelled?.unmodelled) return { kind: 'notModelled', feature: unmodelled.unmodelled };
  if (requests.length > 0 && pools.devices.length === 0) return { kind: 'noDevices', drivers: pools.drivers };
  // validateDeviceRequest: an All request on a node with a pool still being published is an
  // error of the scheduler's, not a verdict.
  if (pools.incomplete.length > 0 && requests.some((r) => r.alternatives.some((a) => a.all))) {
    return { kind: 'notModelled', feature: `a request for all devices while pool ${pools.incomplete.join(', ')} is being updated (the scheduler reports an error)` };
  }

  // isSelectable, cached per alternative and device as the allocator caches it. The search asks
  // lazily, in its own order (a device in use is never evaluated), so a selector error or an
  // expression the library cannot evaluate stops it only where the scheduler would meet it.
  const cache = new Map<Alternative, Map<string, Match>>();
  const claimOf = (alt: Alternative) => claimName(claims[requests.find((r) => r.alternatives.includes(alt))?.claim ?? 0] as ResourceV1ResourceClaim);
  const matchFor = (alt: Alternative, d: PoolDevice): Match => {
    const m = cache.get(alt) ?? cache.set(alt, new Map()).get(alt) ?? new Map<string, Match>();
    const known = m.get(d.id) ?? matchOf(alt, d);
    m.set(d.id, known);
    return known;
  };
  const selectable = (alt: Alternative, d: PoolDevice): boolean => {
    const m = matchFor(alt, d);
    if (m.kind === 'unsupported') throw new Halt({ kind: 'notEvaluable', expression: m.expression, error: m.error });
    if (m.kind === 'error') throw new Halt({ kind: 'selectorError', claim: claimOf(alt), device: d.id, expression: m.expression, error: m.error });
    return m.kind === 'matches';
  };
  const usable = pools.devices.filter((d) => !pools.incomplete.includes(`${d.driver}/${d.pool}`));

  const picking = new Map<string, Set<number>>(); // device -> claims picking it
  const picked: { claim: number; base: string; request: string; device: PoolDevice; counters: boolean; capacity?: Map<string, bigint> }[] = [];
  let steps = 0;
  const left = countersLeft(pools, allocated, shared);
  const counterUse = new Map<string, Counters>();
  const capacityUse = new Map<string, Map<string, bigint>>();

  const constraintsHold = (claim: number): boolean => {
    for (const c of claims[claim]?.spec?.devices?.constraints ?? []) {
      if (!c.matchAttribute) continue;
      const names = new Set(c.requests ?? []);
      const values = picked.filter((p) => p.claim === claim && (names.size === 0 || names.has(p.base) || names.has(p.request))).map((p) => attributeOf(p.device, c.matchAttribute ?? ''));
      if (values.some((v) => v === undefined || v !== values[0])) return false;
    }
    return true;
  };

  const free = (alt: Alternative, claim: number, d: PoolDevice): boolean => {
    if (alt.adminAccess) return !(picking.get(d.id)?.has(claim) ?? false);
    // A device that allows multiple allocations is shared: its capacity decides (capacityFits).
    if (consumable && d.device.allowMultipleAllocations) return true;
    return !allocated.has(d.id) && (picking.get(d.id)?.size ?? 0) === 0;
  };
  // A further share of a device already shared does not charge its counters again.
  const chargesCounters = (d: PoolDevice) => d.consumes.size > 0 && !(d.device.allowMultipleAllocations && shared.has(d.id));
  const countersFit = (d: PoolDevice): boolean => !chargesCounters(d) || countersHold(left.get(`${d.driver}/${d.pool}`), counterUse.get(`${d.driver}/${d.pool}`), d.consumes);
  const none = new Map<string, bigint>();
  const capacityOn = (alt: Alternative, d: PoolDevice) => (consumable ? capacityFits(alt, d, shared.get(d.id)?.capacity, capacityUse.get(d.id)) : none);
  const usableFor = (alt: Alternative, claim: number, d: PoolDevice): boolean =>
    free(alt, claim, d) && selectable(alt, d) && blockingTaints(alt, d).length === 0 && countersFit(d) && capacityOn(alt, d) !== undefined;

  const take = (claim: number, alt: Alternative, d: PoolDevice) => {
    const counters = chargesCounters(d);
    const capacity = capacityOn(alt, d);
    picked.push({ claim, base: alt.base, request: alt.request, device: d, counters, ...(capacity ? { capacity } : {}) });
    (picking.get(d.id) ?? picking.set(d.id, new Set()).get(d.id))?.add(claim);
    if (counters) addCounters(counterUse, `${d.driver}/${d.pool}`, d.consumes, 1n);
    if (capacity) addAmounts(capacityUse, d.id, capacity, 1n);
  };
  const untake = (claim: number, d: PoolDevice) => {
    const last = picked.pop();
    picking.get(d.id)?.delete(claim);
    if (last?.counters) addCounters(counterUse, `${d.driver}/${d.pool}`, d.consumes, -1n);
    if (last?.capacity) addAmounts(capacityUse, d.id, last.capacity, -1n);
  };

  // All requests know their devices before the search starts (validateDeviceRequest).
  const allDevices = new Map<Alternative, PoolDevice[]>();

  const solve = (ri: number): boolean => {
    if (++steps > SEARCH_LIMIT) throw new Stop();
    const request = requests[ri];
    if (!request) return true;
    for (const alt of request.alternatives) {
      if (alt.all) {
        const every = allDevices.get(alt) ?? [];
        if (every.length === 0) continue;
        // Each device checked as it is taken: those taken before it count (allocateDevice in turn).
        let taken = 0;
        for (const d of every) {
          if (!usableFor(alt, request.claim, d)) break;
          take(request.claim, alt, d);
          taken++;
        }
        if (taken === every.length && constraintsHold(request.claim) && solve(ri + 1)) return true;
        for (const d of every.slice(0, taken).reverse()) untake(request.claim, d);
        continue;
      }
      const pick = (from: number, left: number): boolean => {
        if (left === 0) return solve(ri + 1);
        for (let i = from; i < usable.length; i++) {
          const d = usable[i] as PoolDevice;
          if (!usableFor(alt, request.claim, d)) continue;
          take(request.claim, alt, d);
          if (constraintsHold(request.claim) && pick(i + 1, left - 1)) return true;
          untake(request.claim, d);
        }
        return false;
      };
      if (pick(0, alt.count)) return true;
    }
    return false;
  };

  try {
    for (const alt of requests.flatMap((r) => r.alternatives).filter((a) => a.all)) allDevices.set(alt, pools.devices.filter((d) => selectable(alt, d)));
    if (solve(0)) return { kind: 'allocated' };
  } catch (e) {
    if (e instanceof Halt) return e.outcome;
    if (e instanceof Stop) return { kind: 'notModelled', feature: `a search of more than ${SEARCH_LIMIT} steps` };
    throw e;
  }
  // Explaining looks at every device, including those the search never evaluated: a selector
  // that cannot be evaluated there is told as the device's miss, not as the node's verdict.
  const matches = new Map(requests.flatMap((r) => r.alternatives).map((alt) => [alt, new Map(pools.devices.map((d) => [d.id, matchFor(alt, d)]))]));
  return explain(requests, claims, pools, allocated, shared, matches);
}

function shortfall(alt: Alternative, claim: string, pools: NodePools, allocated: ReadonlyMap<string, string[]>, shared: ReadonlyMap<string, DeviceShares>, matches: Map<string, Match>): RequestShortfall {
  const matching = pools.devices.filter((d) => matches.get(d.id)?.kind === 'matches');
  const held = new Map<string, string[]>();
  for (const d of matching) for (const c of [...(allocated.get(d.id) ?? []), ...(shared.get(d.id)?.claims ?? [])]) held.set(c, [...(held.get(c) ?? []), d.device.name]);
  const publishing = (d: PoolDevice) => pools.incomplete.includes(`${d.driver}/${d.pool}`);
  const unheld = matching.filter((d) => !publishing(d) && (alt.adminAccess || !allocated.has(d.id)));
  const tainted = unheld.flatMap((d): DeviceTaintMiss[] => {
    const [sourced] = blockingTaints(alt, d);
    if (!sourced) return [];
    const { rule, ...taint } = sourced;
    const nearest = nearestToleration(alt.tolerations as V1Toleration[], taint as V1Taint);
    return [{ device: d.device.name, taint, ...(rule !== undefined ? { rule } : {}), ...(nearest && isNearToleration(nearest) ? { nearest } : {}) }];
  });
  const untainted = unheld.filter((d) => blockingTaints(alt, d).length === 0);
  // What the allocated devices leave of the pool's counters and of each device's capacity.
  const left = countersLeft(pools, allocated, shared);
  const countersShort = untainted.flatMap((d): NonNullable<RequestShortfall['countersShort']> => {
    if (d.consumes.size === 0 || (d.device.allowMultipleAllocations && shared.has(d.id))) return [];
    // Every counter of the pool counts, those the device does not consume too (one overdrawn blocks all).
    for (const [set, counters] of left.get(`${d.driver}/${d.pool}`) ?? new Map<string, Map<string, bigint>>()) {
      for (const [counter, l] of counters) {
        const needs = d.consumes.get(set)?.get(counter) ?? 0n;
        if (l >= needs) continue;
        // The allocated devices of the pool that consume this counter, with their claims.
        const usedBy = (pools.counters.get(`${d.driver}/${d.pool}`)?.consumers ?? [])
          .filter((c) => (c.consumes.get(set)?.get(counter) ?? 0n) > 0n && (allocated.has(c.id) || shared.has(c.id)))
          .map((c) => ({ device: c.id.split('/').pop() ?? c.id, claims: [...(allocated.get(c.id) ?? []), ...(shared.get(c.id)?.claims ?? [])] }));
        return [{ device: d.device.name, counterSet: set, counter, needs, left: l < 0n ? 0n : l, usedBy }];
      }
    }
    return [];
  });
  const capacityShort = untainted.flatMap((d): NonNullable<RequestShortfall['capacityShort']> => {
    if (countersShort.some((c) => c.device === d.device.name) || capacityFits(alt, d, shared.get(d.id)?.capacity, undefined)) return [];
    const caps = d.device.capacity ?? {};
    const lacking = [...alt.capacity.keys()].find((name) => !(name in caps));
    if (lacking) return [{ device: d.device.name, capacity: lacking, wants: alt.capacity.get(lacking) ?? 0n, left: 0n, has: false }];
    for (const [name, cap] of Object.entries(caps)) {
      const wants = consumedOf(alt.capacity.get(name), cap);
      const l = milliOf(cap.value) - (shared.get(d.id)?.capacity.get(name) ?? 0n);
      if (violatesPolicy(wants, cap) || wants > l) return [{ device: d.device.name, capacity: name, wants, left: l < 0n ? 0n : l, has: true }];
    }
    return [];
  });
  const freeCount = untainted.length - countersShort.length - capacityShort.length;
  const misses = pools.devices.flatMap((d): SelectorMiss[] => {
    const m = matches.get(d.id);
    if (m?.kind === 'miss') return [m.miss];
    if (m?.kind === 'error' || m?.kind === 'unsupported') return [{ device: d.device.name, expression: m.expression, from: m.from, has: [], error: m.error }];
    return [];
  });
  return {
    claim,
    request: alt.request,
    deviceClass: alt.deviceClass,
    wanted: alt.all ? 'all' : alt.count,
    devices: pools.devices.length,
    matching: matching.length,
    free: freeCount,
    heldBy: [...held].map(([c, devices]) => ({ claim: c, devices })),
    misses: misses.slice(0, 3),
    ...(tainted.length > 0 ? { tainted: tainted.slice(0, 3) } : {}),
    ...(countersShort.length > 0 ? { countersShort: countersShort.slice(0, 3) } : {}),
    ...(capacityShort.length > 0 ? { capacityShort: capacityShort.slice(0, 3) } : {}),
  };
}

// Why no solution: the first request none of whose alternatives can be met alone; else the
// first constraint (every request can be met, not together).
function explain(
  requests: Request[],
  claims: readonly ResourceV1ResourceClaim[],
  pools: NodePools,
  allocated: ReadonlyMap<string, string[]>,
  shared: ReadonlyMap<string, DeviceShares>,
  matches: Map<Alternative, Map<string, Match>>,
): AllocationOutcome {
  for (const request of requests) {
    const name = claimName(claims[request.claim] as ResourceV1ResourceClaim);
    const shortfalls = request.alternatives.map((alt) => shortfall(alt, name, pools, allocated, shared, matches.get(alt) ?? new Map()));
    const met = shortfalls.some((s) => (s.wanted === 'all' ? s.matching > 0 && s.free === s.matching : s.free >= s.wanted));
    if (!met) return { kind: 'shortfall', claim: name, requests: shortfalls };
  }
  for (const [index, claim] of claims.entries()) {
    for (const c of claim.spec?.devices?.constraints ?? []) {
      if (!c.matchAttribute) continue;
      const names = c.requests ?? [];
      const values = requests
        .filter((r) => r.claim === index && (names.length === 0 || names.includes(r.name)))
        .flatMap((r) => r.alternatives.flatMap((alt) => pools.devices.filter((d) => matches.get(alt)?.get(d.id)?.kind === 'matches' && !allocated.has(d.id)).map((d) => ({ request: alt.request, device: d.device.name, value: valueText(attributeOf(d, c.matchAttribute ?? '')) }))));
      return { kind: 'constraint', claim: claimName(claim), attribute: c.matchAttribute, requests: names, values: values.slice(0, 8) };
    }
  }
  return { kind: 'shortfall', claim: claimName(claims[0] as ResourceV1ResourceClaim), requests: [] };
}

function valueText(v: unknown): string {
  if (typeof v !== 'string') return '(none)';
  const parsed = JSON.parse(v) as Record<string, unknown>;
  const field = Object.values(parsed)[0];
  return typeof field === 'string' ? JSON.stringify(field) : String(field);
}
