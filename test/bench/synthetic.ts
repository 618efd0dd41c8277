// A synthetic cluster at the scale our users run: nodes in zones, a third of them tainted,
// ten bound pods on each, and one pending pod that asks for spread and anti-affinity.
import type { V1Node, V1Pod } from '@kubernetes/client-node';

export interface SyntheticCluster {
  nodes: V1Node[];
  pods: V1Pod[];
  target: V1Pod;
}

export function syntheticCluster(nodeCount: number, podsPerNode: number): SyntheticCluster {
  const zones = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
  const nodes: V1Node[] = [];
  const pods: V1Pod[] = [];
  for (let i = 0; i < nodeCount; i++) {
    const name = `node-${String(i).padStart(5, '0')}`;
    nodes.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zones[i % 3] ?? 'z' } },
      spec: i % 3 === 0 ? { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] } : {},
      status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] },
    });
    for (let j = 0; j < podsPerNode; j++) {
      pods.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `app-${i}-${j}`, namespace: `team-${j % 20}`, labels: { app: `app-${j % 50}` } },
        spec: { nodeName: name, containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '700m', memory: '2Gi' } } }] },
        status: { phase: 'Running' },
      });
    }
  }
  const target: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'shop', labels: { app: 'web' } },
    spec: {
      containers: [{ name: 'web', image: 'web', resources: { requests: { cpu: '2', memory: '4Gi' } } }],
      tolerations: [{ key: 'dedicated', value: 'Batch', effect: 'NoSchedule' }],
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }],
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } }] } },
    },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: `0/${nodeCount} nodes are available: ${nodeCount - Math.ceil(nodeCount / 3)} Insufficient cpu, ${Math.ceil(nodeCount / 3)} node(s) had untolerated taint(s).` }] },
  };
  return { nodes, pods: [...pods, target], target };
}
