// Small builders for resource.k8s.io/v1 objects: claims, classes and slices.
import type { ResourceV1ResourceClaim, V1DeviceClass, V1ResourceSlice } from '@kubernetes/client-node';

type Attr = string | number | boolean;
export interface DeviceInput {
  name: string;
  attrs?: Record<string, Attr>;
  capacity?: Record<string, string>;
}

export function deviceClass(name: string, ...expressions: string[]): V1DeviceClass {
  return { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name }, spec: { selectors: expressions.map((expression) => ({ cel: { expression } })) } };
}

export function slice(node: string | { allNodes: true }, driver: string, devices: DeviceInput[], pool = typeof node === 'string' ? node : 'shared'): V1ResourceSlice {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${pool}-${driver}` },
    spec: {
      driver,
      ...(typeof node === 'string' ? { nodeName: node } : { allNodes: true }),
      pool: { name: pool, generation: 1, resourceSliceCount: 1 },
      devices: devices.map((d) => ({
        name: d.name,
        attributes: Object.fromEntries(Object.entries(d.attrs ?? {}).map(([k, v]) => [k, typeof v === 'number' ? { _int: v } : typeof v === 'boolean' ? { bool: v } : { string: v }]).map(([k, v]) => [k, '_int' in (v as object) ? { int: (v as { _int: number })._int } : v])),
        ...(d.capacity ? { capacity: Object.fromEntries(Object.entries(d.capacity).map(([k, v]) => [k, { value: v }])) } : {}),
      })),
    },
  } as V1ResourceSlice;
}

export interface RequestInput {
  name: string;
  deviceClassName?: string;
  count?: number;
  all?: boolean;
  selectors?: string[];
  adminAccess?: boolean;
  firstAvailable?: RequestInput[];
}

function exact(r: RequestInput) {
  return {
    deviceClassName: r.deviceClassName ?? 'gpu',
    ...(r.all ? { allocationMode: 'All' } : { count: r.count ?? 1 }),
    ...(r.selectors ? { selectors: r.selectors.map((expression) => ({ cel: { expression } })) } : {}),
    ...(r.adminAccess ? { adminAccess: true } : {}),
  };
}

export function claim(name: string, requests: RequestInput[], options: { namespace?: string; matchAttribute?: { requests?: string[]; attribute: string }; allocated?: { node: string; devices: { request: string; driver: string; pool: string; device: string }[] }; reservedFor?: number } = {}): ResourceV1ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: options.namespace ?? 'default' },
    spec: {
      devices: {
        requests: requests.map((r) => (r.firstAvailable ? { name: r.name, firstAvailable: r.firstAvailable.map((s) => ({ name: s.name, ...exact(s) })) } : { name: r.name, exactly: exact(r) })),
        ...(options.matchAttribute ? { constraints: [{ ...(options.matchAttribute.requests ? { requests: options.matchAttribute.requests } : {}), matchAttribute: options.matchAttribute.attribute }] } : {}),
      },
    },
    ...(options.allocated
      ? {
          status: {
            allocation: {
              devices: { results: options.allocated.devices },
              nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [options.allocated.node] }] }] },
            },
            reservedFor: Array.from({ length: options.reservedFor ?? 1 }, (_, i) => ({ resource: 'pods', name: `user-${i}`, uid: `uid-${i}` })),
          },
        }
      : {}),
  } as ResourceV1ResourceClaim;
}
