// The allocator replay on one node, for what v1.37 made default: device taints and tolerations,
// shared counters (partitionable devices) and consumable capacity. Facts from
// k8s.io/dynamic-resource-allocation v0.37.2, structured/internal/incubating (allocateDevice,
// taintPreventsAllocation, checkAvailableCounters, CmpRequestOverCapacity); the captured
// scenario folders (captured-1.37-dra-*) hold the same against a real scheduler.
import type { ResourceV1ResourceClaim, V1Device, V1DeviceToleration, V1ResourceSlice } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { addShare, allocateOnNode, type DeviceShares } from '../../../src/engine/dra/allocate.js';
import { poolsFor } from '../../../src/engine/dra/pools.js';
import { claim, deviceClass } from '../../support/dra-builders.js';

const gpu = deviceClass('gpu', 'device.driver == "gpu.example.com"');
const classes = new Map([['gpu', gpu]]);
const node = { metadata: { name: 'n1' } };

function slice(devices: V1Device[], extra: Partial<V1ResourceSlice['spec']> = {}, name = 'n1-gpus'): V1ResourceSlice {
  return { metadata: { name }, spec: { driver: 'gpu.example.com', nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices, ...extra } } as V1ResourceSlice;
}

function asking(spec: Record<string, unknown>, name = 'c'): ResourceV1ResourceClaim {
  const c = claim(name, [{ name: 'gpu' }]);
  const request = c.spec?.devices?.requests?.[0];
  if (request?.exactly) Object.assign(request.exactly, spec);
  return c;
}

function allocate(slices: V1ResourceSlice[], claims: ResourceV1ResourceClaim[], options: { allocated?: Map<string, string[]>; shared?: Map<string, DeviceShares> } = {}) {
  return allocateOnNode({ claims, classes, allocated: options.allocated ?? new Map(), ...(options.shared ? { shared: options.shared } : {}), pools: poolsFor(node, slices) });
}

describe('device taints', () => {
  const tainted = (effect: string, value = 'GPU'): V1Device => ({ name: 'gpu-0', taints: [{ key: 'dedicated', value, effect }] }) as V1Device;
  const tolerating = (t: Partial<V1DeviceToleration>) => asking({ tolerations: [t] });

  it.each([
    ['NoSchedule, not tolerated', 'NoSchedule', {}, 'shortfall'],
    ['NoExecute, not tolerated', 'NoExecute', {}, 'shortfall'],
    ['None never blocks', 'None', {}, 'allocated'],
    ['tolerated by Equal with the same value', 'NoSchedule', { key: 'dedicated', operator: 'Equal', value: 'GPU' }, 'allocated'],
    ['Equal compares values exactly: gpu is not GPU', 'NoSchedule', { key: 'dedicated', operator: 'Equal', value: 'gpu' }, 'shortfall'],
    ['Exists with the key tolerates any value', 'NoSchedule', { key: 'dedicated', operator: 'Exists' }, 'allocated'],
    ['an empty key with Exists tolerates every taint', 'NoSchedule', { operator: 'Exists' }, 'allocated'],
    ['a toleration for another effect does not tolerate', 'NoSchedule', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, 'shortfall'],
  ] as const)('%s', (_name, effect, toleration, outcome) => {
    const result = allocate([slice([tainted(effect)])], [Object.keys(toleration).length > 0 ? tolerating(toleration) : asking({})]);
    expect(result.kind).toBe(outcome);
  });

  it('names the device, the taint and the near-miss toleration, and counts the device as not free', () => {
    const result = allocate([slice([tainted('NoSchedule')])], [tolerating({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' })]);
    if (result.kind !== 'shortfall') throw new Error(result.kind);
    const [r] = result.requests;
    expect(r).toMatchObject({ matching: 1, free: 0, tainted: [{ device: 'gpu-0', taint: { key: 'dedicated', value: 'GPU' } }] });
    expect(r?.tainted?.[0]?.nearest?.mismatches.map((m) => m.field)).toEqual(['value']);
  });

  it('takes the untainted device when one of two is tainted, and fails an All request on the tainted one', () => {
    const devices = [tainted('NoSchedule'), { name: 'gpu-1' } as V1Device];
    expect(allocate([slice(devices)], [asking({})]).kind).toBe('allocated');
    expect(allocate([slice(devices)], [asking({ allocationMode: 'All', count: undefined })]).kind).toBe('shortfall');
  });

  it("adds a DeviceTaintRule's taint to the devices its selector names, and names the rule", () => {
    const rule = { metadata: { name: 'drain-n1' }, spec: { deviceSelector: { driver: 'gpu.example.com', pool: 'n1' }, taint: { key: 'maintenance', effect: 'NoExecute' } } };
    const other = { metadata: { name: 'other-pool' }, spec: { deviceSelector: { pool: 'n2' }, taint: { key: 'x', effect: 'NoSchedule' } } };
    const noSelector = { metadata: { name: 'no-selector' }, spec: { taint: { key: 'y', effect: 'NoSchedule' } } };
    const pools = poolsFor(node, [slice([{ name: 'gpu-0' } as V1Device])], [rule, other, noSelector] as never);
    expect(pools.devices[0]?.taints).toEqual([{ key: 'maintenance', effect: 'NoExecute', rule: 'drain-n1' }]);
    const result = allocateOnNode({ claims: [asking({})], classes, allocated: new Map(), pools });
    if (result.kind !== 'shortfall') throw new Error(result.kind);
    expect(result.requests[0]?.tainted?.[0]).toMatchObject({ device: 'gpu-0', rule: 'drain-n1' });
  });
});

describe('shared counters', () => {
  const counters = slice([], { sharedCounters: [{ name: 'gpu-0-counters', counters: { memory: { value: '40Gi' } } }], devices: undefined } as never, 'n1-counters');
  const withCount = (s: V1ResourceSlice): V1ResourceSlice => ({ ...s, spec: { ...s.spec, pool: { ...s.spec.pool, resourceSliceCount: 2 } } });
  const part = (name: string, memory: string): V1Device => ({ name, consumesCounters: [{ counterSet: 'gpu-0-counters', counters: { memory: { value: memory } } }] }) as V1Device;
  const slices = (devices: V1Device[]) => [withCount(counters), withCount(slice(devices))];

  it('fits a partition while the counters last, and not once allocated partitions use them', () => {
    const devices = [part('half-a', '20Gi'), part('whole', '40Gi')];
    expect(allocate(slices(devices), [asking({ selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] })]).kind).toBe('allocated');
    const held = new Map([['gpu.example.com/n1/half-a', ['default/holder']]]);
    // half-a is held: the whole device needs 40Gi, 20Gi are left.
    const result = allocate(slices(devices), [asking({})], { allocated: held });
    if (result.kind !== 'shortfall') throw new Error(result.kind);
    expect(result.requests[0]?.countersShort).toEqual([{ device: 'whole', counterSet: 'gpu-0-counters', counter: 'memory', needs: 40n * 1024n ** 3n * 1000n, left: 20n * 1024n ** 3n * 1000n, usedBy: [{ device: 'half-a', claims: ['default/holder'] }] }]);
  });

  it('counts the partitions this search picks: two halves fit, a third does not', () => {
    const devices = [part('a', '20Gi'), part('b', '20Gi'), part('c', '20Gi')];
    expect(allocate(slices(devices), [asking({ count: 2 })]).kind).toBe('allocated');
    expect(allocate(slices(devices), [asking({ count: 3 })]).kind).toBe('shortfall');
  });

  it('leaves a pool whose device names a counter set it lacks to the scheduler (an error, not a verdict)', () => {
    const result = allocate([withCount(counters), withCount(slice([{ name: 'x', consumesCounters: [{ counterSet: 'nope', counters: { memory: { value: '1Gi' } } }] } as V1Device]))], [asking({})]);
    expect(result.kind).toBe('notModelled');
  });
});

describe('consumable capacity', () => {
  const shareable = (extra: Record<string, unknown> = {}): V1Device => ({ name: 'gpu-0', allowMultipleAllocations: true, capacity: { memory: { value: '40Gi', ...extra } } }) as V1Device;
  const shares = (memory: string) => {
    const shared = new Map<string, DeviceShares>();
    addShare(shared, 'gpu.example.com/n1/gpu-0', 'default/holder', { memory });
    return shared;
  };
  const wanting = (memory?: string) => asking(memory ? { capacity: { requests: { memory } } } : {});

  it('shares a device until its capacity is used up', () => {
    expect(allocate([slice([shareable()])], [wanting('20Gi')], { shared: shares('30Gi') }).kind).toBe('shortfall');
    expect(allocate([slice([shareable()])], [wanting('10Gi')], { shared: shares('30Gi') }).kind).toBe('allocated');
  });

  it('takes the whole capacity for a request that names none, and the default when the policy has one', () => {
    expect(allocate([slice([shareable()])], [wanting()], { shared: shares('1Gi') }).kind).toBe('shortfall');
    expect(allocate([slice([shareable({ requestPolicy: { default: '4Gi', validRange: { min: '4Gi' } } })])], [wanting()], { shared: shares('30Gi') }).kind).toBe('allocated');
  });

  it('rounds a request up by the valid range and refuses above its max', () => {
    const ranged = shareable({ requestPolicy: { validRange: { min: '8Gi', max: '32Gi', step: '8Gi' } } });
    // 9Gi rounds up to 16Gi: with 30Gi shared, 16Gi does not fit in the 10Gi left.
    expect(allocate([slice([ranged])], [wanting('9Gi')], { shared: shares('30Gi') }).kind).toBe('shortfall');
    expect(allocate([slice([ranged])], [wanting('9Gi')], { shared: shares('16Gi') }).kind).toBe('allocated');
    expect(allocate([slice([ranged])], [wanting('33Gi')]).kind).toBe('shortfall');
  });

  it('refuses a device without the capacity the request names, and says how much is left', () => {
    expect(allocate([slice([shareable()])], [asking({ capacity: { requests: { cores: '2' } } })]).kind).toBe('shortfall');
    const result = allocate([slice([shareable()])], [wanting('20Gi')], { shared: shares('30Gi') });
    if (result.kind !== 'shortfall') throw new Error(result.kind);
    expect(result.requests[0]?.capacityShort).toEqual([{ device: 'gpu-0', capacity: 'memory', wants: 20n * 1024n ** 3n * 1000n, left: 10n * 1024n ** 3n * 1000n, has: true }]);
    expect(result.requests[0]?.heldBy).toEqual([{ claim: 'default/holder', devices: ['gpu-0'] }]);
  });
});

describe("the release's DRA features (kube_features.go defaults)", () => {
  const gpuSlice = (device: V1Device) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 'n1-gpus' }, spec: { driver: 'gpu.example.com', nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices: [device] } }) as V1ResourceSlice;
  const verdictOn = async (version: string, device: V1Device, rules: unknown[] = []) => {
    const { default: rule } = await import('../../../src/engine/rules/DynamicResources.js');
    const { buildContext } = await import('../../../src/engine/context.js');
    const { node: nodeBuilder, pod } = await import('../../support/builders.js');
    const { resourceClaim } = await import('../../support/volume-builders.js');
    const target = pod('p').with(resourceClaim('gpu', { claim: 'c' })).obj();
    const snapshot = {
      source: { kind: 'dump' as const, description: 'test' },
      objects: { ...(await import('../../../src/snapshot/types.js')).emptyCollections(), nodes: [nodeBuilder('n1').obj()], pods: [target], resourceClaims: [asking({})], deviceClasses: [gpu], resourceSlices: [gpuSlice(device)], deviceTaintRules: rules as never[] },
      gaps: [],
      cluster: { version },
    };
    const ctx = buildContext(snapshot, target);
    const n1 = ctx.nodes[0];
    if (!n1) throw new Error('no node');
    return rule.filter(ctx, n1).map((r) => r.detail.kind);
  };
  const tainted = { name: 'gpu-0', taints: [{ key: 'unhealthy', effect: 'NoSchedule' }] } as V1Device;
  const rule = { metadata: { name: 'r' }, spec: { deviceSelector: { driver: 'gpu.example.com' }, taint: { key: 'unhealthy', effect: 'NoSchedule' } } };
  const partition = { name: 'gpu-0', consumesCounters: [{ counterSet: 'set', counters: { memory: { value: '1Gi' } } }] } as V1Device;

  it('device taints count from 1.36, not in 1.35 (DRADeviceTaints alpha, off)', async () => {
    expect(await verdictOn('v1.35.2', tainted)).toEqual([]);
    expect(await verdictOn('v1.36.0', tainted)).toEqual(['devicesShort']);
  });

  it('DeviceTaintRules count from 1.37 (beta but off in 1.36)', async () => {
    expect(await verdictOn('v1.36.0', { name: 'gpu-0' } as V1Device, [rule])).toEqual([]);
    expect(await verdictOn('v1.37.2', { name: 'gpu-0' } as V1Device, [rule])).toEqual(['devicesShort']);
  });

  it('a device that consumes counters is never allocated before 1.36 (DRAPartitionableDevices off)', async () => {
    expect(await verdictOn('v1.35.2', partition)).toEqual(['noDevicesOnNode']);
  });
});
