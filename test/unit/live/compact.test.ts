// What the live reader keeps of neighbour pods and nodes: what the filters count, nothing else.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podRequests } from '../../../src/engine/resources/requests.js';
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
  it('drops the image list only', () => {
    const node: V1Node = { metadata: { name: 'n1' }, status: { images: [{ names: ['x'] }], allocatable: { cpu: '4' } } };
    expect(compactNode(node)).toEqual({ metadata: { name: 'n1' }, status: { allocatable: { cpu: '4' } } });
  });
});
