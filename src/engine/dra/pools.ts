// The devices a node can use, as the structured allocator's GatherPools finds them: a
// ResourceSlice counts for the node when it names it (nodeName), serves all nodes, or its
// nodeSelector matches (with perDeviceNodeSelection, each device says so itself). Slices of one
// pool (driver + pool name) count only at the pool's newest generation; a pool with fewer slices
// at that generation than resourceSliceCount is incomplete (still being published). Each
// DeviceTaintRule adds its taint to the devices its selector names (the scheduler's patched
// slices, resourceslice/tracker applyPatches): driver, pool and device each equal where set; a
// rule without a selector taints nothing, an empty selector every device.
import type { V1beta2DeviceTaintRule, V1Device, V1DeviceTaint, V1NodeSelector, V1ResourceSlice } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';
import { evaluateNodeSelector } from '../match/nodeSelector.js';

export interface PoolDevice {
  driver: string;
  pool: string;
  device: V1Device;
  /** `driver/pool/device`, the allocator's DeviceID. */
  id: string;
  /** Its taints: the slice's own, then those DeviceTaintRules add (the scheduler's patched slices). */
  taints: SourcedTaint[];
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
  for (const s of slices) {
    const key = `${s.spec.driver}/${s.spec.pool.name}`;
    if (Number(s.spec.pool.generation) !== newest.get(key)) continue;
    const c = counted.get(key) ?? { seen: 0, expected: Number(s.spec.pool.resourceSliceCount) };
    c.seen++;
    counted.set(key, c);
    const perDevice = s.spec.perDeviceNodeSelection === true;
    if (!perDevice && !nodeMatches(node, s.spec.nodeName, s.spec.allNodes, s.spec.nodeSelector)) continue;
    for (const device of s.spec.devices ?? []) {
      if (perDevice && !nodeMatches(node, device.nodeName, device.allNodes, device.nodeSelector)) continue;
      pools.add(key);
      const taints = [...(device.taints ?? []), ...ruleTaints(rules, s.spec.driver, s.spec.pool.name, device.name)];
      devices.push({ driver: s.spec.driver, pool: s.spec.pool.name, device, id: deviceId(s.spec.driver, s.spec.pool.name, device.name), taints });
    }
  }
  const incomplete = [...counted].filter(([key, c]) => pools.has(key) && c.seen < c.expected).map(([key]) => key);
  return { devices, pools: [...pools].sort(), incomplete, drivers: [...new Set(slices.map((s) => s.spec.driver))].sort() };
}
