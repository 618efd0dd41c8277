// The triage case of the benchmark: many pending pods at once, of a few causes, on a large
// synthetic cluster (synthetic.ts). Every pending pod is diagnosed on one shared snapshot.
import type { V1Pod } from '@kubernetes/client-node';
import { syntheticCluster } from './synthetic.js';
import type { SyntheticCluster } from './synthetic.js';

/** `pending` pods in namespace shop, from five Deployments' ReplicaSets, each pending for its own cause. */
export function triageCluster(nodeCount: number, podsPerNode: number, pending: number): SyntheticCluster {
  const base = syntheticCluster(nodeCount, podsPerNode);
  const kinds: { owner: string; spec: V1Pod['spec'] }[] = [
    { owner: 'web', spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '6' } } }] } },
    { owner: 'gpu', spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { 'nvidia.com/gpu': '1' } } }] } },
    { owner: 'batch', spec: { nodeSelector: { pool: 'batch' }, containers: [{ name: 'c', image: 'i' }] } },
    { owner: 'api', spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '100' } } }] } },
    { owner: 'gated', spec: { schedulingGates: [{ name: 'example.com/quota' }], containers: [{ name: 'c', image: 'i' }] } },
  ];
  const pods: V1Pod[] = [];
  for (let i = 0; i < pending; i++) {
    const kind = kinds[i % kinds.length]!;
    const rs = `${kind.owner}-5d8f7c9b4`;
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${rs}-${String(i).padStart(5, '0')}`, namespace: 'shop', uid: `uid-${i}`, labels: { app: kind.owner }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: `rs-${kind.owner}`, controller: true }] },
      spec: kind.spec,
      // What the scheduler writes once it has tried (the gated pod: before it tries).
      status: kind.spec?.schedulingGates
        ? { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }
        : { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: `0/${nodeCount} nodes are available.` }] },
    });
  }
  return { nodes: base.nodes, pods: [...base.pods.filter((p) => p !== base.target), ...pods], target: base.target };
}
