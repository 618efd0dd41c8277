// The live read for a triage (no pod name: -n alone, -A, -l): every pending pod of the scope,
// then, once for all of them, what their diagnoses read: the nodes, every non-terminal pod
// bound to a node (requests, ports, affinity and spread counts), the events of the scope,
// the owners, policies, claims and volumes of the namespaces holding pending pods, and
// cluster-autoscaler's status ConfigMap when it wrote about any of them, Karpenter's NodePools
// and NodeClaims when Karpenter wrote about one of them. Per pod reads would be hundreds of
// requests at incident time; a few paged LISTs are not. GET only, through the one reader
// (reader.ts) with the same gap policy as a single pod's read.
import type { V1Pod } from '@kubernetes/client-node';
import type { TriageScope } from '../../engine/triage.js';
import { formatLabelSelector, isClusterAutoscalerEvent, isKarpenterEvent, selectsNamespacesByLabel } from '../../engine/readPlan.js';
import type { CollectionName, NamespaceRecord, NodeRecord, Snapshot } from '../../snapshot/types.js';
import type { LiveConfig } from './config.js';
import { namespaceRecord } from './compact.js';
import { nodeListCut } from './cuts.js';
import { LiveReader } from './reader.js';
import { autoscalerStatus, karpenterObjects } from './reads/autoscalers.js';
import { NodePods } from './reads/nodePods.js';
import { nominatedPodsSelector, rbacName, resources } from './resources.js';
import { Transport, type ReadLiveOptions } from './transport.js';

type Listed = Exclude<CollectionName, 'events' | 'pods'>;
// Read per namespace holding pending pods (or once across all with -A).
const perNamespace: readonly Listed[] = ['replicaSets', 'deployments', 'statefulSets', 'daemonSets', 'jobs', 'cronJobs', 'limitRanges', 'resourceQuotas', 'persistentVolumeClaims', 'podDisruptionBudgets'];
const clusterWide: readonly Listed[] = ['persistentVolumes', 'storageClasses', 'csiNodes', 'priorityClasses'];

export async function readTriageLive(config: LiveConfig, scope: TriageScope, progress: (line: string) => void, options: ReadLiveOptions = {}): Promise<Snapshot> {
  const transport = new Transport(config, options);
  options.onTransport?.(transport);
  const reader = new LiveReader(transport, config.describe, progress, 0);
  const where = scope.namespace === undefined ? 'all namespaces' : `namespace ${scope.namespace}`;
  const fill = async (collection: Listed, namespace: string | undefined): Promise<void> => {
    const r = resources[collection];
    await reader.list(r, r.namespaced ? namespace : undefined, `listing ${rbacName(r)} in ${r.namespaced && namespace !== undefined ? `namespace ${namespace}` : 'the cluster'}`);
  };
  try {
    // 1. The pending pods: the targets. Refused, there is nothing to triage: say which permission.
    const what = `listing pending pods in ${where}`;
    progress(what);
    const query: Record<string, string> = { fieldSelector: 'status.phase=Pending' };
    const labelSelector = formatLabelSelector(scope.selector);
    if (labelSelector) query['labelSelector'] = labelSelector;
    const { items: pending } = await reader.listTarget<V1Pod>(resources.pods, scope.namespace, what, query);
    reader.add('pods', pending);
    if (pending.length === 0) return reader.done();

    // 2. Once for all of them.
    const namespaces = scope.namespace === undefined ? [undefined] : [...new Set(pending.map((p) => p.metadata?.namespace ?? 'default'))];
    progress(`${pending.length} pending pod${pending.length === 1 ? '' : 's'}: reading nodes, bound pods, events, owners and policies once for all`);
    await Promise.all([
      // Nodes and bound pods as a single pod's read keeps them (NodeRecord, compactNeighbour): in
      // protobuf, or cut from JSON; the bound pods a few namespaces at once, as a single pod's
      // read of every pod. The pending ones, bound included, are whole: read first.
      reader.list<NodeRecord>(resources.nodes, undefined, 'listing nodes', { cut: nodeListCut() }),
      new NodePods(reader).everyBoundPod(),
      ...namespaces.map((ns) => reader.events(ns, undefined, `listing events in ${ns === undefined ? 'all namespaces' : `namespace ${ns}`}`)),
      ...namespaces.flatMap((ns) => perNamespace.map((c) => fill(c, ns))),
      ...clusterWide.map((c) => fill(c, undefined)),
      reader.clusterVersion(),
      // Pods nominated to a node hold room there for every pod of lower priority, wherever they
      // are: read across namespaces when the scope is one (with -A they are among the pending).
      scope.namespace === undefined ? undefined : reader.list<V1Pod>(resources.pods, undefined, 'listing pods nominated to a node', { query: { fieldSelector: nominatedPodsSelector } }),
    ]);
    // Namespace labels, where a pod affinity term selects namespaces by them (engine/namespaces.ts).
    if (reader.objects.pods.some(selectsNamespacesByLabel)) {
      await reader.list<NamespaceRecord>(resources.namespaces, undefined, 'listing namespaces', { cut: { reduce: namespaceRecord } });
    }
    // 3. What the autoscalers that spoke about a pending pod keep, once and together.
    const events = reader.objects.events;
    await Promise.all([events.some(isClusterAutoscalerEvent) ? autoscalerStatus(reader) : undefined, events.some(isKarpenterEvent) ? karpenterObjects(reader) : undefined]);
    return reader.done();
  } finally {
    transport.close();
  }
}
