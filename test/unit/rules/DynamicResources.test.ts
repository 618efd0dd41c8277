import { describe, expect, it } from 'vitest';
import type { Collections } from '../../../src/snapshot/types.js';
import type { Reason } from '../../../src/engine/reasons.js';
import rule, { type DynamicResourcesDetail } from '../../../src/engine/rules/DynamicResources.js';
import { contextFor, node, pod, type PodBuilder } from '../../support/builders.js';
import { resourceClaim, resourceClaimStatus } from '../../support/volume-builders.js';
import { claim, deviceClass, slice } from '../../support/dra-builders.js';
import { evaluate } from '../../support/rules.js';

const unresolvable = (detail: DynamicResourcesDetail): Reason => ({ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail });
const gpuClass = deviceClass('gpu', 'device.driver == "gpu.example.com"');
const gpus = (n: string, ...names: string[]) => slice(n, 'gpu.example.com', names.map((name) => ({ name, attrs: { model: 'a100' } })));

interface Case {
  name: string;
  pod: PodBuilder;
  objects?: Partial<Collections>;
  preFilter?: Reason[];
  /** The scheduler's PreFilter returns Skip: no claim to filter for. */
  skip?: true;
  /** Kinds of the reasons on n1 and n2. */
  n1?: string[];
  n2?: string[];
  check?: (reasons: Record<string, Reason[]>) => void;
}

const usesClaim = (name = 'c') => pod('p').with(resourceClaim('gpu', { claim: name }));

const cases: Case[] = [
  { name: 'a pod without resource claims passes', pod: pod('p'), skip: true },
  {
    name: 'a template claim not created yet fails the pod before any node',
    pod: pod('p', 'ml').with(resourceClaim('gpu', { template: 'one-gpu' })),
    preFilter: [unresolvable({ kind: 'resourceClaimNotCreated', pod: 'ml/p', podClaim: 'gpu', template: 'one-gpu' })],
  },
  {
    name: 'the first claim that cannot be named decides, in spec order',
    pod: pod('p').with(resourceClaim('nic', { claim: 'nic-1' })).with(resourceClaim('gpu', { template: 'one-gpu' })),
    preFilter: [unresolvable({ kind: 'resourceClaimNotCreated', pod: 'default/p', podClaim: 'gpu', template: 'one-gpu' })],
  },
  {
    name: 'a status entry without a claim name means no claim is needed',
    pod: pod('p').with(resourceClaim('gpu', { template: 'maybe-gpu' })).with(resourceClaimStatus('gpu')),
    skip: true,
  },
  {
    name: 'an entry naming neither a claim nor a template fails the pod',
    pod: pod('p').with(resourceClaim('gpu', {})),
    preFilter: [unresolvable({ kind: 'resourceClaimSourceMissing', pod: 'default/p', podClaim: 'gpu' })],
  },
  {
    name: 'a claim that does not exist fails the pod before any node',
    pod: usesClaim('missing'),
    objects: { resourceClaims: [], deviceClasses: [gpuClass], resourceSlices: [] },
    preFilter: [unresolvable({ kind: 'resourceClaimNotFound', claim: 'missing' })],
  },
  {
    name: 'a template claim made for another pod fails the pod',
    pod: pod('p').with(resourceClaim('gpu', { template: 't' })).with(resourceClaimStatus('gpu', 'other-gpu')),
    objects: { resourceClaims: [claim('other-gpu', [{ name: 'gpu' }])], deviceClasses: [gpuClass], resourceSlices: [] },
    preFilter: [unresolvable({ kind: 'resourceClaimNotForPod', claim: 'default/other-gpu', pod: 'default/p' })],
  },
  {
    name: 'an unknown device class fails the pod before any node',
    pod: usesClaim(),
    objects: { resourceClaims: [claim('c', [{ name: 'gpu', deviceClassName: 'tpu' }])], deviceClasses: [gpuClass], resourceSlices: [] },
    preFilter: [unresolvable({ kind: 'deviceClassNotFound', claim: 'default/c', request: 'gpu', deviceClass: 'tpu' })],
  },
  {
    name: 'an allocated claim whose reservedFor is full is in use',
    pod: usesClaim(),
    objects: { resourceClaims: [claim('c', [{ name: 'gpu' }], { allocated: { node: 'n1', devices: [] }, reservedFor: 256 })], deviceClasses: [gpuClass], resourceSlices: [] },
    preFilter: [unresolvable({ kind: 'resourceClaimInUse', claim: 'default/c', reservedFor: 256 })],
  },
  {
    name: 'a node without a slice has no devices; a node with a free matching one passes',
    pod: usesClaim(),
    objects: { resourceClaims: [claim('c', [{ name: 'gpu' }])], deviceClasses: [gpuClass], resourceSlices: [gpus('n2', 'gpu-0')] },
    n1: ['noDevicesOnNode'],
    n2: [],
  },
  {
    name: 'devices held by other claims are taken, and the holders are named',
    pod: usesClaim(),
    objects: {
      resourceClaims: [
        claim('c', [{ name: 'gpu' }]),
        claim('a', [{ name: 'gpu', count: 2 }], { namespace: 'ml', allocated: { node: 'n1', devices: ['gpu-0', 'gpu-1'].map((device) => ({ request: 'gpu', driver: 'gpu.example.com', pool: 'n1', device })) } }),
      ],
      deviceClasses: [gpuClass],
      resourceSlices: [gpus('n1', 'gpu-0', 'gpu-1'), gpus('n2', 'gpu-0')],
    },
    n1: ['devicesShort'],
    n2: [],
    check: (r) => expect(r.n1?.[0]?.detail).toMatchObject({ requests: [{ devices: 2, matching: 2, free: 0, heldBy: [{ claim: 'ml/a', devices: ['gpu-0', 'gpu-1'] }] }] }),
  },
  {
    name: 'an admin-access request may use devices other claims hold',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu', adminAccess: true }]), claim('a', [{ name: 'gpu' }], { allocated: { node: 'n1', devices: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'n1', device: 'gpu-0' }] } })],
      deviceClasses: [gpuClass],
      resourceSlices: [gpus('n1', 'gpu-0'), gpus('n2', 'gpu-0')],
    },
    n1: [],
    n2: [],
  },
  {
    name: 'a selector that compares a string reports the near miss and the values the device has',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu', selectors: ['device.attributes["gpu.example.com"].model == "A100"', 'device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0'] }])],
      deviceClasses: [gpuClass],
      resourceSlices: [
        slice('n1', 'gpu.example.com', [{ name: 'gpu-0', attrs: { model: 'a100' }, capacity: { memory: '80Gi' } }]),
        slice('n2', 'gpu.example.com', [{ name: 'gpu-0', attrs: { model: 'A100' }, capacity: { memory: '40Gi' } }]),
      ],
    },
    n1: ['devicesShort'],
    n2: ['devicesShort'],
    check: (r) => {
      expect(r.n1?.[0]?.detail).toMatchObject({ requests: [{ matching: 0, misses: [{ device: 'gpu-0', from: 'request', has: ['model="a100"'], nearMiss: { wanted: 'A100', found: 'a100' } }] }] });
      expect(r.n2?.[0]?.detail).toMatchObject({ requests: [{ matching: 0, misses: [{ device: 'gpu-0', has: ['memory=40Gi'] }] }] });
    },
  },
  {
    name: 'allocationMode All needs every matching device free',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu', all: true }]), claim('a', [{ name: 'gpu' }], { allocated: { node: 'n1', devices: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'n1', device: 'gpu-1' }] } })],
      deviceClasses: [gpuClass],
      resourceSlices: [gpus('n1', 'gpu-0', 'gpu-1'), gpus('n2', 'gpu-0', 'gpu-1')],
    },
    n1: ['devicesShort'],
    n2: [],
  },
  {
    name: 'firstAvailable falls back to the next subrequest; when none fits, each is told',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu', firstAvailable: [{ name: 'big', selectors: ['device.attributes["gpu.example.com"].model == "h100"'] }, { name: 'two', count: 2 }] }])],
      deviceClasses: [gpuClass],
      resourceSlices: [gpus('n1', 'gpu-0'), gpus('n2', 'gpu-0', 'gpu-1')],
    },
    n1: ['devicesShort'],
    n2: [],
    check: (r) => expect((r.n1?.[0]?.detail as { requests: { request: string }[] }).requests.map((s) => s.request)).toEqual(['gpu/big', 'gpu/two']),
  },
  {
    name: 'matchAttribute: devices that can each be had but do not share the attribute',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'a' }, { name: 'b' }], { matchAttribute: { attribute: 'gpu.example.com/numa' } })],
      deviceClasses: [gpuClass],
      resourceSlices: [
        slice('n1', 'gpu.example.com', [{ name: 'gpu-0', attrs: { numa: 0 } }, { name: 'gpu-1', attrs: { numa: 1 } }]),
        slice('n2', 'gpu.example.com', [{ name: 'gpu-0', attrs: { numa: 0 } }, { name: 'gpu-1', attrs: { numa: 1 } }, { name: 'gpu-2', attrs: { numa: 1 } }]),
      ],
    },
    n1: ['constraintUnsatisfied'],
    n2: [],
  },
  {
    name: 'devices of a pool still being published (fewer slices than resourceSliceCount) are skipped',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu' }])],
      deviceClasses: [gpuClass],
      resourceSlices: [{ ...gpus('n1', 'gpu-0'), spec: { ...gpus('n1', 'gpu-0').spec, pool: { name: 'n1', generation: 1, resourceSliceCount: 2 } } }, gpus('n2', 'gpu-0')],
    },
    n1: ['devicesShort'],
    n2: [],
    check: (r) => expect(r.n1?.[0]?.detail).toMatchObject({ requests: [{ devices: 1, matching: 1, free: 0 }] }),
  },
  {
    name: 'only the newest generation of a pool counts',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu', selectors: ['device.attributes["gpu.example.com"].model == "h100"'] }])],
      deviceClasses: [gpuClass],
      resourceSlices: [
        { ...slice('n1', 'gpu.example.com', [{ name: 'gpu-0', attrs: { model: 'h100' } }]), metadata: { name: 'old' } },
        { ...slice('n1', 'gpu.example.com', [{ name: 'gpu-0', attrs: { model: 'a100' } }]), metadata: { name: 'new' }, spec: { ...slice('n1', 'gpu.example.com', [{ name: 'gpu-0', attrs: { model: 'a100' } }]).spec, pool: { name: 'n1', generation: 2, resourceSliceCount: 1 } } },
      ],
    },
    n1: ['devicesShort'],
    n2: ['noDevicesOnNode'],
  },
  {
    name: 'a selector error on a device the search reaches is the scheduler\'s error for that claim',
    pod: usesClaim(),
    objects: {
      resourceClaims: [claim('c', [{ name: 'gpu', selectors: ['device.attributes["gpu.example.com"].memory > 8'] }])],
      deviceClasses: [gpuClass],
      resourceSlices: [gpus('n1', 'gpu-0'), slice('n2', 'gpu.example.com', [{ name: 'gpu-0', attrs: { memory: 16 } }])],
    },
    n1: ['selectorError'],
    n2: [],
  },
  {
    name: 'a device in use is never evaluated: its selector error does not stop the search',
    pod: usesClaim(),
    objects: {
      resourceClaims: [
        claim('c', [{ name: 'gpu', selectors: ['device.attributes["gpu.example.com"].memory > 8'] }]),
        claim('a', [{ name: 'gpu' }], { allocated: { node: 'n1', devices: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'n1', device: 'gpu-0' }] } }),
      ],
      deviceClasses: [gpuClass],
      resourceSlices: [slice('n1', 'gpu.example.com', [{ name: 'gpu-0' }, { name: 'gpu-1', attrs: { memory: 16 } }])],
    },
    n1: [],
    n2: ['noDevicesOnNode'],
  },
  {
    name: 'an allocated claim is usable only on the nodes its allocation selects',
    pod: usesClaim(),
    objects: { resourceClaims: [claim('c', [{ name: 'gpu' }], { allocated: { node: 'n1', devices: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'n1', device: 'gpu-0' }] } })], deviceClasses: [gpuClass], resourceSlices: [gpus('n1', 'gpu-0')] },
    n1: [],
    n2: ['claimNotOnNode'],
  },
  {
    name: 'a slice for all nodes serves every node',
    pod: usesClaim(),
    objects: { resourceClaims: [claim('c', [{ name: 'gpu' }])], deviceClasses: [gpuClass], resourceSlices: [slice({ allNodes: true }, 'gpu.example.com', [{ name: 'net-gpu-0' }])] },
    n1: [],
    n2: [],
  },
];

describe('DynamicResources', () => {
  it.each(cases)('$name', (c) => {
    const target = c.pod.obj();
    const outcome = evaluate(rule, target, [node('n1').obj(), node('n2').obj()], c.objects ?? {});
    expect(outcome.preFilter).toEqual(c.preFilter ? { reasons: c.preFilter } : c.skip ? { skip: true } : {});
    if (c.preFilter) return;
    expect(outcome.nodes['n1']?.map((r) => r.detail.kind)).toEqual(c.n1 ?? []);
    expect(outcome.nodes['n2']?.map((r) => r.detail.kind)).toEqual(c.n2 ?? []);
    c.check?.(outcome.nodes as Record<string, Reason[]>);
  });

  it('a selector the CEL library cannot evaluate leaves the node not checked, with the expression', () => {
    const target = usesClaim().obj();
    const expression = 'device.attributes["gpu.example.com"].model.someFutureFunction()';
    const ctx = contextFor(target, [node('n1').obj()], { resourceClaims: [claim('c', [{ name: 'gpu', selectors: [expression] }])], deviceClasses: [gpuClass], resourceSlices: [gpus('n1', 'gpu-0')] });
    const n1 = ctx.nodes[0];
    if (!n1) throw new Error('no node');
    expect(rule.filter(ctx, n1)).toEqual([]);
    expect(rule.notCheckedOn?.(ctx, n1)).toMatchObject({ kind: 'selectorNotEvaluable', expression });
  });
});
