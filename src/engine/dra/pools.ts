// The devices a node can use, as the structured allocator's GatherPools finds them: a
// ResourceSlice counts for the node when it names it (nodeName), serves all nodes, or its
// nodeSelector matches (with perDeviceNodeSelection, each device says so itself). Slices of one
// pool (driver + pool name) count only at the pool's newest generation; a pool with fewer slices
// at that generation than resourceSliceCount is incomplete (still being published).
import type { V1Device, V1NodeSelector, V1ResourceSlice } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';
import { evaluateNodeSelector } from '../match/nodeSelector.js';

export interface PoolDevice {
  driver: string;
  pool: string;
  device: V1Device;
  /** `driver/pool/device`, the allocator's DeviceID. */
  id: string;
}

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

export function poolsFor(node: NodeRecord, slices: readonly V1ResourceSlice[]): NodePools {
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
      devices.push({ driver: s.spec.driver, pool: s.spec.pool.name, device, id: deviceId(s.spec.driver, s.spec.pool.name, device.name) });
    }
  }
  const incomplete = [...counted].filter(([key, c]) => pools.has(key) && c.seen < c.expected).map(([key]) => key);
  return { devices, pools: [...pools].sort(), incomplete, drivers: [...new Set(slices.map((s) => s.spec.driver))].sort() };
}
