// The devices a node can use, as the structured allocator's GatherPools finds them: a
// ResourceSlice counts for the node when it names it (nodeName), serves all nodes, or its
// nodeSelector matches (with perDeviceNodeSelection, each device says so itself). Slices of one
// pool (driver + pool name) count only at the pool's newest generation; a pool with fewer slices
// at that generation than resourceSliceCount is incomplete (still being published). Each
// DeviceTaintRule adds its taint to the devices its selector names (the scheduler's patched
// slices, resourceslice/tracker applyPatches): driver, pool and device each equal where set; a
// rule without a selector taints nothing, an empty selector every device. A pool's shared
// counters (partitionable devices) come from its slices that hold `sharedCounters` instead of
// devices, wherever those slices are; what each device consumes is kept with it, in milli-units.
import type { V1beta2DeviceTaintRule, V1Device, V1DeviceTaint, V1NodeSelector, V1ResourceSlice } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';
import { evaluateNodeSelector } from '../match/nodeSelector.js';
import { milliValue, parseQuantity } from '../quantity/index.js';

export interface PoolDevice {
  driver: string;
  pool: string;
  device: V1Device;
  /** `driver/pool/device`, the allocator's DeviceID. */
  id: string;
  /** Its taints: the slice's own, then those DeviceTaintRules add (the scheduler's patched slices). */
  taints: SourcedTaint[];
  /** What it consumes of its pool's shared counters: counter set -> counter -> milli-units. */
  consumes: Counters;
}

/** Counter set -> counter -> amount in milli-units. */
export type Counters = Map<string, Map<string, bigint>>;

/** A pool's shared counters, and every device of the pool (on any node) that consumes them. */
export interface PoolCounters {
  sets: Counters;
  consumers: { id: string; consumes: Counters }[];
}

/** A device's taint, with the DeviceTaintRule that adds it (none: the slice's own). */
export type SourcedTaint = V1DeviceTaint & { rule?: string };

export interface NodePools {
  devices: PoolDevice[];
  /** Pools with devices for this node, as `driver/pool`. */
  pools: string[];
  /** Pools whose newest generation is not fully published. */
  incomplete: string[];
  /** Drivers that publish some slice in the cluster. */
  drivers: string[];
  /** By pool (`driver/pool`), its shared counters, for the pools of this node that have some. */
  counters: Map<string, PoolCounters>;
  /** Pools whose devices consume a counter set or counter the pool does not define (the allocator's invalid pool). */
  invalid: string[];
}

/** A device quantity (a counter, a capacity) in milli-units; 0 for one that does not parse. */
export function milliOf(value: unknown): bigint {
  try {
    return milliValue(parseQuantity(String(value)));
  } catch {
    return 0n;
  }
}

function countersOf(consumes: V1Device['consumesCounters']): Counters {
  const out: Counters = new Map();
  for (const c of consumes ?? []) out.set(c.counterSet, new Map(Object.entries(c.counters ?? {}).map(([name, v]) => [name, milliOf(v.value)])));
  return out;
}

export function deviceId(driver: string, pool: string, device: string): string {
  return `${driver}/${pool}/${device}`;
}

function nodeMatches(node: NodeRecord, nodeName: string | undefined, allNodes: boolean | undefined, selector: V1NodeSelector | undefined): boolean {
  if (nodeName) return nodeName === node.metadata?.name;
  if (allNodes) return true;
  if (selector) return evaluateNodeSelector(selector, node).matched;
  return false;
}

/** The taints DeviceTaintRules add to a device, in the rules' order. */
function ruleTaints(rules: readonly V1beta2DeviceTaintRule[], driver: string, pool: string, device: string): SourcedTaint[] {
  const out: SourcedTaint[] = [];
  for (const rule of rules) {
    const s = rule.spec?.deviceSelector;
    if (!s) continue;
    if ((s.driver && s.driver !== driver) || (s.pool && s.pool !== pool) || (s.device && s.device !== device)) continue;
    out.push({ ...(rule.spec.taint as V1DeviceTaint), rule: rule.metadata?.name ?? '' });
  }
  return out;
}

export function poolsFor(node: NodeRecord, slices: readonly V1ResourceSlice[], rules: readonly V1beta2DeviceTaintRule[] = []): NodePools {
  const newest = new Map<string, number>();
  for (const s of slices) {
    const key = `${s.spec.driver}/${s.spec.pool.name}`;
    newest.set(key, Math.max(newest.get(key) ?? -Infinity, Number(s.spec.pool.generation)));
  }
  const counted = new Map<string, { seen: number; expected: number }>();
  const devices: PoolDevice[] = [];
  const pools = new Set<string>();
  const counters = new Map<string, PoolCounters>();
  const countersFor = (key: string) => counters.get(key) ?? counters.set(key, { sets: new Map(), consumers: [] }).get(key) as PoolCounters;
  for (const s of slices) {
    const key = `${s.spec.driver}/${s.spec.pool.name}`;
    if (Number(s.spec.pool.generation) !== newest.get(key)) continue;
    const c = counted.get(key) ?? { seen: 0, expected: Number(s.spec.pool.resourceSliceCount) };
    c.seen++;
    counted.set(key, c);
    // Counters are the pool's, whichever node their slice names; so is what any device consumes.
    for (const set of s.spec.sharedCounters ?? []) countersFor(key).sets.set(set.name, new Map(Object.entries(set.counters ?? {}).map(([name, v]) => [name, milliOf(v.value)])));
    for (const device of s.spec.devices ?? []) {
      if ((device.consumesCounters?.length ?? 0) > 0) countersFor(key).consumers.push({ id: deviceId(s.spec.driver, s.spec.pool.name, device.name), consumes: countersOf(device.consumesCounters) });
    }
    const perDevice = s.spec.perDeviceNodeSelection === true;
    if (!perDevice && !nodeMatches(node, s.spec.nodeName, s.spec.allNodes, s.spec.nodeSelector)) continue;
    for (const device of s.spec.devices ?? []) {
      if (perDevice && !nodeMatches(node, device.nodeName, device.allNodes, device.nodeSelector)) continue;
      pools.add(key);
      const taints = [...(device.taints ?? []), ...ruleTaints(rules, s.spec.driver, s.spec.pool.name, device.name)];
      devices.push({ driver: s.spec.driver, pool: s.spec.pool.name, device, id: deviceId(s.spec.driver, s.spec.pool.name, device.name), taints, consumes: countersOf(device.consumesCounters) });
    }
  }
  const incomplete = [...counted].filter(([key, c]) => pools.has(key) && c.seen < c.expected).map(([key]) => key);
  // validateDeviceCounterConsumption: a device naming a set or counter its pool lacks makes the pool invalid.
  const invalid = [...counters].filter(([key, pc]) => pools.has(key) && pc.consumers.some((d) => [...d.consumes].some(([set, used]) => !pc.sets.has(set) || [...used.keys()].some((n) => !pc.sets.get(set)?.has(n))))).map(([key]) => key);
  for (const key of [...counters.keys()]) if (!pools.has(key)) counters.delete(key);
  return { devices, pools: [...pools].sort(), incomplete, drivers: [...new Set(slices.map((s) => s.spec.driver))].sort(), counters, invalid };
}

/**
 * The pools as a release's allocator sees them: without DRADeviceTaints no taint counts; without
 * DRAPartitionableDevices a device that consumes counters is never allocated (and counter-only
 * slices are skipped).
 */
export function withFeatures(pools: NodePools, features: { deviceTaints: boolean; partitionableDevices: boolean }): NodePools {
  if (features.deviceTaints && features.partitionableDevices) return pools;
  const devices = pools.devices
    .filter((d) => features.partitionableDevices || d.consumes.size === 0)
    .map((d) => (features.deviceTaints ? d : { ...d, taints: [] }));
  return { ...pools, devices, ...(features.partitionableDevices ? {} : { counters: new Map(), invalid: [] }) };
}
