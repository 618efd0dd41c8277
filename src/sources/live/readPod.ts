// A single pod's live read: the stages of reading, in order, each naming what the engine's plan
// asks for (engine/readPlan.ts); the reads themselves are in reads/, through one reader
// (reader.ts). GET only.
//   1. the target: the pod, or the owner named `kind/name` with what is below it (reads/target.ts);
//   2. in parallel: the pod's events, its owner chain and their events, the nodes (or, for a pod
//      bound already, its node), the namespace's LimitRanges and ResourceQuotas, PriorityClasses,
//      the cluster's version, and what the rules read for the pod: its claims, their volumes,
//      StorageClasses and CSINodes, devices, its gang (reads/around.ts);
//   3. only when its events put the pod in a stage where nodes are judged: what that stage asks
//      for beside the nodes (cluster-autoscaler's status ConfigMap, Karpenter's NodePools and
//      NodeClaims, the scheduler's activity elsewhere: reads/autoscalers.ts), then the pods
//      that can change a verdict (reads/nodePods.ts), namespace labels where selectors read them,
//      for a pending preemption the nominated node's pods, and the PodDisruptionBudgets of the
//      namespaces of the pods read that rank below the pod, when it may preempt.
// A 403 on anything but the target becomes a gap naming the permission, and reading goes on.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { planReads, rules } from '../../engine/readPlan.js';
import type { Snapshot } from '../../snapshot/types.js';
import type { LiveConfig } from './config.js';
import { LiveReader, namespaceOf } from './reader.js';
import { gang, namespaces, ownNamespace, ownerChain, podDevices, podEvents, podVolumes, policies } from './reads/around.js';
import { autoscalerStatus, karpenterObjects, schedulerActivity } from './reads/autoscalers.js';
import { NodePods } from './reads/nodePods.js';
import { readTarget, type LiveQuery } from './reads/target.js';
import { resources } from './resources.js';
import { Transport, type ReadLiveOptions } from './transport.js';

export type { LiveQuery } from './reads/target.js';

// One read per node costs a request each, in parallel within the limiter; a paged read of every
// pod costs them all. Up to this many, the per-node reads cost about what the node list does
// (BENCHMARKS.md).
const perObjectReadsDefault = 100;

async function aroundPod(reader: LiveReader, nodePods: NodePods, pod: V1Pod): Promise<void> {
  const ns = namespaceOf(pod);
  const nodeName = pod.spec?.nodeName;
  // What the rules read for the pod, asked of the engine on the pod alone.
  const first = planReads(rules, pod, reader.snapshot());
  const { pending, volumes, devices } = first;
  reader.progress(pending ? `reading events, owners, ${nodeName ? `node ${nodeName}` : 'nodes'} and policies` : 'reading events and owners');
  await Promise.all([
    podEvents(reader, pod),
    ownerChain(reader, pod),
    pending ? (nodeName ? reader.get<V1Node>(resources.nodes, undefined, nodeName, `reading node ${nodeName}`) : nodePods.listNodes(volumes || devices ? undefined : pod)) : undefined,
    pending ? policies(reader, ns) : undefined,
    pending && volumes ? podVolumes(reader, pod, first.claims) : undefined,
    pending && devices ? podDevices(reader) : undefined,
    pending && first.gang ? gang(reader, pod) : undefined,
    // The release whose rules are replayed, known before the plan asks the rules for candidates.
    pending ? reader.clusterVersion() : undefined,
  ]);
  if (!pending) return;
  // With its events read, the stage the pod is in and what it asks for beside the nodes.
  const staged = planReads(rules, pod, reader.snapshot());
  if (!staged.judged) return;
  await Promise.all([
    staged.autoscalerStatus ? autoscalerStatus(reader) : undefined,
    nodeName ? nodePods.listNodes() : undefined,
    staged.schedulerActivity ? schedulerActivity(reader, pod) : undefined,
    staged.karpenter ? karpenterObjects(reader) : undefined,
  ]);
  // With every node read: the candidates, whose pods matter. The plan's candidates() looks at
  // the snapshot when asked, so the nodes read since it was made count.
  const [podsRead] = await Promise.all([nodePods.podsThatMatter(pod, staged), staged.namespaces ? namespaces(reader) : undefined]);
  if (staged.ownNamespace()) await ownNamespace(reader, pod);
  if (staged.nominatedNode) await nodePods.nominatedNode(staged.nominatedNode, podsRead);
  await nodePods.budgetsOfLowerPods(pod);
}

function readerFor(config: LiveConfig, progress: ((line: string) => void) | undefined, options: ReadLiveOptions): LiveReader {
  const transport = new Transport(config, options);
  options.onTransport?.(transport);
  return new LiveReader(transport, config.describe, progress ?? (() => undefined), options.perObjectReadsUpTo ?? perObjectReadsDefault);
}

/**
 * Reads a snapshot for `query` from the cluster `config` names. `progress` gets short lines
 * about what is being read. GET only; see the header for what is read when.
 */
export async function readLive(config: LiveConfig, query: LiveQuery, progress?: (line: string) => void, options: ReadLiveOptions = {}): Promise<Snapshot> {
  const reader = readerFor(config, progress, options);
  try {
    const pod = await readTarget(reader, query);
    if (pod) await aroundPod(reader, new NodePods(reader), pod);
    return reader.done();
  } finally {
    reader.transport.close();
  }
}

/** Adds to `earlier` (a live read of the same cluster) the pods of `nodes`; GET only. */
export async function readPodsOn(config: LiveConfig, earlier: Snapshot, target: V1Pod, nodes: readonly string[], progress?: (line: string) => void, options: ReadLiveOptions = {}): Promise<Snapshot> {
  const reader = readerFor(config, progress, options);
  try {
    reader.resume(earlier);
    await new NodePods(reader).podsOn(target, nodes);
    return reader.snapshot();
  } finally {
    reader.transport.close();
  }
}
