// The live read for a triage (no pod name: -n alone, -A, -l): every pending pod of the scope,
// then, once for all of them, what their diagnoses read: the nodes, every non-terminal pod
// bound to a node (requests, ports, affinity and spread counts), the events of the scope,
// the owners, policies, claims and volumes of the namespaces holding pending pods, and
// cluster-autoscaler's status ConfigMap when it wrote about any of them, Karpenter's NodePools
// and NodeClaims when Karpenter wrote about one of them. Per pod
// reads would be hundreds of requests at incident time; a few paged LISTs are not. GET only.
import type { V1ConfigMap, V1Pod } from '@kubernetes/client-node';
import type { TriageScope } from '../../engine/triage.js';
import { formatLabelSelector, isClusterAutoscalerEvent, isKarpenterEvent, selectsNamespacesByLabel } from '../../engine/readPlan.js';
import { emptyCollections, type CollectionName, type Gap, type NamespaceRecord, type NodeRecord, type Snapshot } from '../../snapshot/types.js';
import { toClusterEvent } from '../dump/objects.js';
import type { LiveConfig } from './config.js';
import { namespaceRecord, statusOnly } from './compact.js';
import { nodeListCut, type ListCut } from './cuts.js';
import { ApiStatusError, forbiddenTarget, unexpectedStatus } from './errors.js';
import { readOrGap } from './guard.js';
import { nominatedPodsSelector, nonTerminal, pathOf, rbacName, resources, scopeOf, type Resource } from './resources.js';
import { Transport } from './transport.js';
import type { ReadLiveOptions } from './transport.js';
import { readClusterVersion } from './version.js';

// Read per namespace holding pending pods (or once across all with -A).
const perNamespace: readonly CollectionName[] = ['replicaSets', 'deployments', 'statefulSets', 'daemonSets', 'jobs', 'cronJobs', 'limitRanges', 'resourceQuotas', 'persistentVolumeClaims', 'podDisruptionBudgets'];
const clusterWide: readonly CollectionName[] = ['persistentVolumes', 'storageClasses', 'csiNodes', 'priorityClasses'];

export async function readTriageLive(config: LiveConfig, scope: TriageScope, progress: (line: string) => void, options: ReadLiveOptions = {}): Promise<Snapshot> {
  const transport = new Transport(config, options);
  options.onTransport?.(transport);
  const objects = emptyCollections();
  const gaps: Gap[] = [];
  let cluster: Snapshot['cluster'];
  const where = scope.namespace === undefined ? 'all namespaces' : `namespace ${scope.namespace}`;

  // A refused or failed read is a gap, as in a single pod's read (guard.ts).
  const addGap = (gap: Gap) => void gaps.push(gap);
  const list = <T>(r: Resource, namespace: string | undefined, what: string, query: Record<string, string> = {}, cut: ListCut<T> = {}, notFoundIsAbsent = false): Promise<T[] | undefined> =>
    readOrGap(addGap, r, 'list', namespace, what, () =>
      transport.list<T>(
        { path: pathOf(r, namespace), query, what, ...(cut.decodeProtobuf ? { decodeProtobuf: cut.decodeProtobuf } : {}) },
        { ...(cut.reduce ? { reduce: cut.reduce } : {}), ...(cut.dropArrays ? { dropArrays: cut.dropArrays } : {}), onPage: (count) => count >= 500 && progress(`${what} (${count} so far)`) },
      ),
    notFoundIsAbsent);
  // cluster-autoscaler's status ConfigMap, one GET (404: none, no gap).
  const autoscalerStatus = async (): Promise<void> => {
    const r = resources.clusterAutoscalerStatus;
    if (!r.only) return;
    const { namespace, name } = r.only;
    const what = `reading cluster-autoscaler's status ${namespace}/${name}`;
    progress(what);
    const found = await readOrGap(addGap, r, 'get', namespace, what, () => transport.get({ path: pathOf(r, namespace, name), what }));
    if (found) objects.clusterAutoscalerStatus.push(statusOnly(found as V1ConfigMap));
  };
  // Karpenter's NodePools and NodeClaims. A 404 on the group means it is not installed (its
  // events outlived it): nothing to read, nothing to say.
  const karpenterObjects = (): Promise<unknown> =>
    Promise.all(
      (['nodePools', 'nodeClaims'] as const).map(async (collection) => {
        const r = resources[collection];
        objects[collection].push(...((await list<never>(r, undefined, `listing ${rbacName(r)}`, {}, {}, true)) ?? []));
      }),
    );
  const fill = async (collection: Exclude<CollectionName, 'events' | 'pods'>, namespace: string | undefined): Promise<void> => {
    const r = resources[collection];
    const items = await list<never>(r, r.namespaced ? namespace : undefined, `listing ${rbacName(r)} in ${r.namespaced && namespace !== undefined ? `namespace ${namespace}` : 'the cluster'}`);
    if (items) (objects[collection] as unknown[]).push(...items);
  };

  try {
    // 1. The pending pods: the targets. Refused, there is nothing to triage: say which permission.
    const what = `listing pending pods in ${where}`;
    progress(what);
    const query: Record<string, string> = { fieldSelector: 'status.phase=Pending' };
    const labelSelector = formatLabelSelector(scope.selector);
    if (labelSelector) query['labelSelector'] = labelSelector;
    let pending: V1Pod[];
    try {
      pending = await transport.list<V1Pod>({ path: pathOf(resources.pods, scope.namespace), query, what });
    } catch (error) {
      if (error instanceof ApiStatusError && error.status === 403) throw forbiddenTarget(error, { verb: 'list', resource: 'pods', scope: scopeOf(resources.pods, scope.namespace) });
      if (error instanceof ApiStatusError) throw unexpectedStatus(error);
      throw error;
    }
    objects.pods.push(...pending);
    if (pending.length === 0) return done();

    // 2. Once for all of them.
    const namespaces = scope.namespace === undefined ? [undefined] : [...new Set(pending.map((p) => p.metadata?.namespace ?? 'default'))];
    progress(`${pending.length} pending pod${pending.length === 1 ? '' : 's'}: reading nodes, bound pods, events, owners and policies once for all`);
    const seen = new Set(pending.map((p) => p.metadata?.uid ?? `${p.metadata?.namespace}/${p.metadata?.name}`));
    await Promise.all([
      // Nodes as a single pod's read keeps them (NodeRecord): in protobuf, or cut from JSON.
      list<NodeRecord>(resources.nodes, undefined, 'listing nodes', {}, nodeListCut()).then((items) => void objects.nodes.push(...(items ?? []))),
      list<V1Pod>(resources.pods, undefined, 'listing pods bound to nodes', { fieldSelector: `spec.nodeName!=,${nonTerminal}` }).then((items) => {
        for (const pod of items ?? []) if (!seen.has(pod.metadata?.uid ?? `${pod.metadata?.namespace}/${pod.metadata?.name}`)) objects.pods.push(pod);
      }),
      ...namespaces.map((ns) =>
        list<Record<string, unknown>>(resources.events, ns, `listing events in ${ns === undefined ? 'all namespaces' : `namespace ${ns}`}`).then((items) => {
          for (const item of items ?? []) {
            try {
              objects.events.push(toClusterEvent(item, 'events'));
            } catch {
              // An event without involvedObject says nothing about anything.
            }
          }
        }),
      ),
      ...namespaces.flatMap((ns) => perNamespace.map((c) => fill(c as Exclude<CollectionName, 'events' | 'pods'>, ns))),
      ...clusterWide.map((c) => fill(c as Exclude<CollectionName, 'events' | 'pods'>, undefined)),
      readClusterVersion(transport).then((read) => void (cluster = read)),
      // Pods nominated to a node hold room there for every pod of lower priority, wherever they
      // are: read across namespaces when the scope is one (with -A they are among the pending).
      scope.namespace === undefined
        ? undefined
        : list<V1Pod>(resources.pods, undefined, 'listing pods nominated to a node', { fieldSelector: nominatedPodsSelector }).then((items) => {
            for (const pod of items ?? []) if (!seen.has(pod.metadata?.uid ?? `${pod.metadata?.namespace}/${pod.metadata?.name}`)) objects.pods.push(pod);
          }),
    ]);
    // Namespace labels, where a pod affinity term selects namespaces by them (engine/namespaces.ts).
    if (objects.pods.some(selectsNamespacesByLabel)) {
      const items = await list<NamespaceRecord>(resources.namespaces, undefined, 'listing namespaces', {}, { reduce: namespaceRecord });
      if (items) objects.namespaces.push(...items);
    }
    // 3. What the autoscalers that spoke about a pending pod keep, once and together.
    await Promise.all([objects.events.some(isClusterAutoscalerEvent) ? autoscalerStatus() : undefined, objects.events.some(isKarpenterEvent) ? karpenterObjects() : undefined]);
    return done();
  } finally {
    transport.close();
  }

  function done(): Snapshot {
    progress(`read ${transport.sent.length} request${transport.sent.length === 1 ? '' : 's'}`);
    return { source: { kind: 'live', description: config.describe }, objects, gaps, ...(cluster ? { cluster } : {}) };
  }
}
