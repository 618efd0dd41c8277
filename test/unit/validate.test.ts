// The dump's shape check (src/sources/dump/validate.ts): a field of the wrong type is one line
// naming the object and the field; valid objects, absent fields and nulls pass.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { Readable } from 'node:stream';
import { readDump } from '../../src/sources/dump/read.js';
import { validateObject } from '../../src/sources/dump/validate.js';

const hint = '; fix the dump or capture it again with kubectl get -o yaml';

function pod(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop' }, spec, ...extra };
}

function node(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec, ...extra };
}

function problem(object: Record<string, unknown>): string | undefined {
  try {
    validateObject(object, 'case.yaml, item 3');
    return undefined;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.message;
  }
}

describe('validateObject accepts what the API server writes', () => {
  it.each<{ name: string; object: Record<string, unknown> }>([
    { name: 'a pod with containers, requests as strings and numbers', object: pod({ containers: [{ name: 'app', resources: { requests: { cpu: '500m', memory: 1073741824 } } }] }) },
    { name: 'a pod with null fields, as kubectl writes some', object: pod({ containers: [{ name: 'app', resources: null }], affinity: null }, { status: { conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null }] } }) },
    { name: 'a pod with no spec at all', object: { kind: 'Pod', metadata: { name: 'web-0' } } },
    { name: 'a node with taints and allocatable', object: node({ taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }, { status: { allocatable: { cpu: '4', pods: '110' } } }) },
    { name: 'a kind the engine does not read, whatever its shape', object: { kind: 'Service', metadata: { name: 'x' }, spec: 'oops' } },
    { name: "cluster-autoscaler's status ConfigMap", object: { kind: 'ConfigMap', metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: { status: 'autoscalerStatus: Running\n' } } },
    { name: 'an events.k8s.io event', object: { apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'pulling', regarding: { kind: 'Pod', name: 'web-0' }, series: { count: 2 } } },
  ])('$name', ({ object }) => {
    expect(problem(object)).toBeUndefined();
  });
});

describe('validateObject names the object and the field', () => {
  it.each<{ name: string; object: Record<string, unknown>; message: string }>([
    { name: 'containers as a string', object: pod({ containers: 'oops' }), message: 'Pod shop/web-0: spec.containers must be a list, found a string ("oops")' },
    { name: 'a container that is not a map', object: pod({ containers: ['app'] }), message: 'Pod shop/web-0: spec.containers[0] must be a map, found a string ("app")' },
    { name: 'a null list item', object: pod({ containers: [null] }), message: 'Pod shop/web-0: spec.containers[0] must be a map, found null' },
    { name: 'requests as a list', object: pod({ containers: [{ name: 'app', resources: { requests: ['cpu'] } }] }), message: 'Pod shop/web-0: spec.containers[0].resources.requests must be a map, found a list' },
    { name: 'a quantity as a map', object: pod({ containers: [{ name: 'app', resources: { limits: { cpu: { value: 1 } } } }] }), message: 'Pod shop/web-0: spec.containers[0].resources.limits.cpu must be a quantity (a string such as "500m" or "4Gi", or a number), found a map' },
    { name: 'a host port as a string', object: pod({ containers: [{ name: 'app', ports: [{ hostPort: '80' }] }] }), message: 'Pod shop/web-0: spec.containers[0].ports[0].hostPort must be a number, found a string ("80")' },
    { name: 'a label value written as a number', object: { kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop', labels: { tier: 1 } } }, message: 'Pod shop/web-0: metadata.labels.tier must be a string, found a number (1)' },
    { name: 'an annotation key with a slash', object: { kind: 'Pod', metadata: { name: 'web-0', annotations: { 'kubernetes.io/limit-ranger': true } } }, message: 'Pod web-0: metadata.annotations["kubernetes.io/limit-ranger"] must be a string, found a boolean (true)' },
    { name: 'tolerations as a map', object: pod({ tolerations: { key: 'x' } }), message: 'Pod shop/web-0: spec.tolerations must be a list, found a map' },
    { name: 'a nodeSelector value as a boolean', object: pod({ nodeSelector: { ssd: true } }), message: 'Pod shop/web-0: spec.nodeSelector.ssd must be a string, found a boolean (true)' },
    { name: 'node affinity without nodeSelectorTerms', object: pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } } }), message: 'Pod shop/web-0: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms is missing; it must be a list' },
    { name: 'a spread constraint without maxSkew', object: pod({ topologySpreadConstraints: [{ topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] }), message: 'Pod shop/web-0: spec.topologySpreadConstraints[0].maxSkew is missing; it must be a number' },
    { name: 'conditions as a string', object: pod({}, { status: { conditions: 'PodScheduled' } }), message: 'Pod shop/web-0: status.conditions must be a list, found a string ("PodScheduled")' },
    { name: 'a long string is cut in the message', object: pod({ schedulerName: ['x'], containers: 'x'.repeat(100) }), message: `Pod shop/web-0: spec.schedulerName must be a string, found a list` },
    { name: 'a taint without a key', object: node({ taints: [{ value: 'gpu', effect: 'NoSchedule' }] }), message: 'Node n1: spec.taints[0].key is missing; it must be a string' },
    { name: 'unschedulable as a string', object: node({ unschedulable: 'false' }), message: 'Node n1: spec.unschedulable must be true or false, found a string ("false")' },
    { name: 'allocatable as a string', object: node({}, { status: { allocatable: '4 cpus' } }), message: 'Node n1: status.allocatable must be a map, found a string ("4 cpus")' },
    { name: 'a PV csi source without a handle', object: { kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { csi: { driver: 'ebs.csi.aws.com' } } }, message: 'PersistentVolume pv1: spec.csi.volumeHandle is missing; it must be a string' },
    { name: 'a StorageClass topology without values', object: { kind: 'StorageClass', metadata: { name: 'fast' }, allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone' }] }] }, message: 'StorageClass fast: allowedTopologies[0].matchLabelExpressions[0].values is missing; it must be a list' },
    { name: 'an event message as a number', object: { kind: 'Event', metadata: { name: 'e1', namespace: 'shop' }, involvedObject: { kind: 'Pod', name: 'web-0' }, message: 42 }, message: 'Event shop/e1: message must be a string, found a number (42)' },
    { name: 'an owner reference without a map', object: { kind: 'ReplicaSet', metadata: { name: 'web-7d9', namespace: 'shop', ownerReferences: 'web' } }, message: 'ReplicaSet shop/web-7d9: metadata.ownerReferences must be a list, found a string ("web")' },
    { name: 'metadata as a list names the kind only', object: { kind: 'Pod', metadata: ['web-0'] }, message: 'Pod: metadata must be a map, found a list' },
  ])('$name', ({ object, message }) => {
    expect(problem(object)).toBe(`case.yaml, item 3: ${message}${hint}`);
  });

  it('cuts a long string value to 40 characters', () => {
    expect(problem(pod({ containers: 'x'.repeat(100) }))).toBe(`case.yaml, item 3: Pod shop/web-0: spec.containers must be a list, found a string ("${'x'.repeat(39)}…")${hint}`);
  });

  it('is applied to every object the dump reader reads', async () => {
    const dump = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [node({}), pod({ containers: 'oops' })] });
    await expect(readDump('-', Readable.from([dump]))).rejects.toThrow(
      new InputError(`<stdin>, item 2: Pod shop/web-0: spec.containers must be a list, found a string ("oops")${hint}`),
    );
  });
});
