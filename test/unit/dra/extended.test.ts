// Extended resources a DeviceClass serves (DRAExtendedResource): which class serves a name, and
// the claim the scheduler makes for a pod's containers (extendeddynamicresources.go
// createRequestsAndMappings, extendedresourcecache). Facts from k8s.io/kubernetes v1.37.2.
import type { V1DeviceClass, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { classesByResource, extendedResourceClaim, isDraExtendedName, servedExtendedResources } from '../../../src/engine/dra/extended.js';

const cls = (name: string, created: string, extendedResourceName?: string): V1DeviceClass => ({
  metadata: { name, creationTimestamp: created as unknown as Date },
  spec: extendedResourceName ? { extendedResourceName } : {},
});

describe('which names are DRA extended resource names', () => {
  it.each([
    ['example.com/gpu', true],
    ['deviceclass.resource.kubernetes.io/gpu.example.com', true],
    ['nvidia.com/gpu', true],
    ['cpu', false],
    ['hugepages-2Mi', false],
    ['kubernetes.io/something', false],
    ['requests.example.com/gpu', false],
  ])('%s: %s', (name, expected) => expect(isDraExtendedName(name)).toBe(expected));
});

describe('the class serving an extended resource', () => {
  it('serves every class under its implicit name, and the explicit name too', () => {
    const map = classesByResource([cls('gpu.example.com', '2026-01-01T00:00:00Z', 'example.com/gpu')]);
    expect(map.get('example.com/gpu')?.metadata?.name).toBe('gpu.example.com');
    expect(map.get('deviceclass.resource.kubernetes.io/gpu.example.com')?.metadata?.name).toBe('gpu.example.com');
    expect(map.has('example.com/fpga')).toBe(false);
  });

  it('gives a shared explicit name to the newest class, whatever the order they come in', () => {
    const older = cls('old-gpus', '2026-01-01T00:00:00Z', 'example.com/gpu');
    const newer = cls('new-gpus', '2026-06-01T00:00:00Z', 'example.com/gpu');
    expect(classesByResource([older, newer]).get('example.com/gpu')?.metadata?.name).toBe('new-gpus');
    expect(classesByResource([newer, older]).get('example.com/gpu')?.metadata?.name).toBe('new-gpus');
  });

  it('breaks a tie of creation times by the lower name', () => {
    const b = cls('b-gpus', '2026-01-01T00:00:00Z', 'example.com/gpu');
    const a = cls('a-gpus', '2026-01-01T00:00:00Z', 'example.com/gpu');
    expect(classesByResource([b, a]).get('example.com/gpu')?.metadata?.name).toBe('a-gpus');
    expect(classesByResource([a, b]).get('example.com/gpu')?.metadata?.name).toBe('a-gpus');
  });
});

describe("the claim made for a pod's extended resources", () => {
  const gpu = cls('gpu.example.com', '2026-01-01T00:00:00Z', 'example.com/gpu');
  const container = (name: string, gpus: number, restartPolicy?: string) => ({ name, image: 'x', ...(restartPolicy ? { restartPolicy } : {}), resources: { requests: { 'example.com/gpu': String(gpus) } } });
  const counts = (pod: V1Pod) =>
    (extendedResourceClaim(pod, servedExtendedResources(pod, [gpu])).spec?.devices?.requests ?? []).map((r) => [r.name, r.exactly?.deviceClassName, r.exactly?.count]);

  it('asks, per long-lived container, its own devices of the class', () => {
    const pod: V1Pod = { metadata: { name: 'p', namespace: 'ml' }, spec: { containers: [container('a', 2), container('b', 1)] } };
    expect(counts(pod)).toEqual([
      ['example.com/gpu of container a', 'gpu.example.com', 2],
      ['example.com/gpu of container b', 'gpu.example.com', 1],
    ]);
  });

  it('lets a plain init container reuse the devices of the containers after it, asking only what is beyond them', () => {
    const pod: V1Pod = { metadata: { name: 'p' }, spec: { initContainers: [container('setup', 3)], containers: [container('main', 1)] } };
    expect(counts(pod)).toEqual([
      ['example.com/gpu of container setup', 'gpu.example.com', 2],
      ['example.com/gpu of container main', 'gpu.example.com', 1],
    ]);
  });

  it('asks nothing more for an init container the later containers cover, and the largest of several', () => {
    const covered: V1Pod = { metadata: { name: 'p' }, spec: { initContainers: [container('setup', 1)], containers: [container('main', 2)] } };
    expect(counts(covered)).toEqual([['example.com/gpu of container main', 'gpu.example.com', 2]]);
    const several: V1Pod = { metadata: { name: 'p' }, spec: { initContainers: [container('one', 2), container('two', 4)], containers: [container('main', 1)] } };
    expect(counts(several)).toEqual([
      ['example.com/gpu of container two', 'gpu.example.com', 3],
      ['example.com/gpu of container main', 'gpu.example.com', 1],
    ]);
  });

  it('counts a sidecar as long-lived: it keeps its devices while the later init containers run', () => {
    const pod: V1Pod = { metadata: { name: 'p' }, spec: { initContainers: [container('proxy', 1, 'Always'), container('setup', 1)], containers: [container('main', 1)] } };
    // setup reuses main's device (containers after it); the sidecar before it is not reusable.
    expect(counts(pod)).toEqual([
      ['example.com/gpu of container proxy', 'gpu.example.com', 1],
      ['example.com/gpu of container main', 'gpu.example.com', 1],
    ]);
  });
});
