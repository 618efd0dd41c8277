// What the live reader keeps of neighbour pods and nodes: what the filters count, nothing else.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podRequests } from '../../../src/engine/resources/requests.js';
import { podGroupOf } from '../../../src/engine/story/gang.js';
import { compactNeighbour, compactNode } from '../../../src/sources/live/compact.js';

function neighbour(): V1Pod {
  return {
    metadata: { name: 'web-1', namespace: 'shop', labels: { app: 'web' }, annotations: { a: 'b' } },
    spec: {
      nodeName: 'n1',
      priority: 10,
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } }] } },
      initContainers: [{ name: 'proxy', image: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } }, env: [{ name: 'X', value: 'y' }] }],
      containers: [
        {
          name: 'main',
          image: 'web:1',
          command: ['run'],
          env: [{ name: 'A', value: 'b' }],
          ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }],
          resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { 'nvidia.com/gpu': '1' } },
          readinessProbe: { httpGet: { path: '/', port: 80 } },
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
        { name: 'disk', gcePersistentDisk: { pdName: 'pd-1' } },
        { name: 'config', configMap: { name: 'web' } },
      ],
      serviceAccountName: 'web',
      securityContext: { runAsUser: 1000 },
      terminationGracePeriodSeconds: 45,
      tolerations: [{ key: 'k', operator: 'Exists' }],
    },
    status: {
      phase: 'Running',
      podIPs: [{ ip: '10.0.0.1' }],
      containerStatuses: [{ name: 'main', image: 'web:1', imageID: 'sha', ready: true, restartCount: 0, allocatedResources: { cpu: '2' }, state: { running: {} } }],
    },
  };
}

describe('compactNeighbour', () => {
  it('keeps what the filters count: requests (limits, resize, sidecars), host ports, labels, affinity, volumes, priority', () => {
    const whole = neighbour();
    const compact = compactNeighbour(neighbour());
    expect(podRequests(compact)).toEqual(podRequests(whole));
    expect(compact.spec?.containers[0]?.ports).toEqual(whole.spec?.containers[0]?.ports);
    expect(compact.spec?.initContainers?.[0]?.restartPolicy).toBe('Always');
    const { annotations, ...identity } = whole.metadata ?? {};
    expect(annotations).toBeDefined();
    expect(compact.metadata).toEqual(identity);
    expect(compact.spec?.affinity).toEqual(whole.spec?.affinity);
    expect(compact.spec?.volumes).toEqual(whole.spec?.volumes?.filter((v) => v.persistentVolumeClaim || v.gcePersistentDisk));
    expect(compact.spec?.terminationGracePeriodSeconds).toBe(45); // a victim's grace, in the preemption story
    expect(compact.spec?.priority).toBe(10);
    expect(compact.status?.phase).toBe('Running');
  });

  it('keeps the gang a scheduled member belongs to: a triage counts its members among the bound pods', () => {
    const member = { ...neighbour(), spec: { ...neighbour().spec, schedulingGroup: { podGroupName: 'train' } } } as V1Pod;
    expect(podGroupOf(compactNeighbour(member))).toBe('train');
  });

  it('drops env, commands, probes, images, mounts and annotations', () => {
    const compact = compactNeighbour(neighbour());
    const main = compact.spec?.containers[0] as unknown as Record<string, unknown>;
    for (const field of ['env', 'command', 'image', 'readinessProbe', 'volumeMounts']) expect(main[field]).toBeUndefined();
    expect(compact.status?.containerStatuses).toEqual([{ name: 'main', allocatedResources: { cpu: '2' } }]);
    expect(compact.status?.podIPs).toBeUndefined();
    expect(compact.spec?.serviceAccountName).toBeUndefined();
    expect(compact.spec?.securityContext).toBeUndefined();
  });

  it('drops what only the pod being placed is read for: its tolerations, node selector, spread constraints, conditions', () => {
    const whole = neighbour();
    whole.spec = { ...whole.spec, nodeSelector: { pool: 'a' }, topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }], containers: whole.spec?.containers ?? [] };
    whole.status = { ...whole.status, conditions: [{ type: 'Ready', status: 'True' }] };
    const compact = compactNeighbour(whole);
    expect(compact.spec?.tolerations).toBeUndefined();
    expect(compact.spec?.nodeSelector).toBeUndefined();
    expect(compact.spec?.topologySpreadConstraints).toBeUndefined();
    expect(compact.status?.conditions).toBeUndefined();
  });
});

describe('compactNode', () => {
  const whole: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', uid: 'u-1', resourceVersion: '7', labels: { zone: 'a' }, annotations: { 'node.alpha.kubernetes.io/ttl': '0' } },
    spec: { podCIDR: '10.0.0.0/24', providerID: 'aws:///i-1', unschedulable: true, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: null as unknown as Date }] },
    status: {
      images: [{ names: ['x'] }],
      capacity: { cpu: '4' },
      allocatable: { cpu: '3900m' },
      // JSON's zero metav1.Time is null: read as no time, as the protobuf read has it.
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: null as unknown as Date, lastTransitionTime: new Date('2026-11-30T10:00:00Z'), reason: 'KubeletReady', message: 'ok' }],
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
      nodeInfo: { architecture: 'amd64', bootID: '', containerRuntimeVersion: '', kernelVersion: '', kubeProxyVersion: '', kubeletVersion: 'v1.37.2', machineID: '', operatingSystem: 'linux', osImage: '', systemUUID: '' },
    },
  };

  it('keeps what the engine reads (NodeRecord), in JSON order, and nothing else', () => {
    expect(JSON.stringify(compactNode(whole))).toBe(
      JSON.stringify({
        metadata: { name: 'n1', uid: 'u-1', labels: { zone: 'a' } },
        spec: { unschedulable: true, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
        status: { capacity: { cpu: '4' }, allocatable: { cpu: '3900m' }, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date('2026-11-30T10:00:00Z'), reason: 'KubeletReady', message: 'ok' }] },
      }),
    );
  });

  it('makes a new record and leaves the node as it was', () => {
    const before = JSON.stringify(whole);
    expect(compactNode(whole)).not.toBe(whole);
    expect(JSON.stringify(whole)).toBe(before);
  });

  it('an empty spec and status stay empty objects, as the apiserver always writes them', () => {
    expect(compactNode({ metadata: { name: 'n2' }, spec: {}, status: { images: [] } })).toEqual({ metadata: { name: 'n2' }, spec: {}, status: {} });
  });
});
