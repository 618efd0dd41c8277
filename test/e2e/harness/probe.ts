// The scheduler's own verdict for one node: a copy of the pod that only that node can take,
// created by the admin; its PodScheduled condition is the scheduler's verdict for that node.
// The copy is pinned by a required node affinity matchFields metadata.name In [node], ANDed
// into every term (probeNodes, as capture.ts does), or by cordoning every other node
// (probeNodesByCordon).
//
// The affinity pin changes what PodTopologySpread sees under nodeAffinityPolicy Honor (the
// default): it counts only nodes that match the pod's node affinity, so a pinned copy sees its
// own domain alone and is always within skew (see pinningHidesSpread). Cordons leave the copy's
// affinity as it is; PodTopologySpread does not look at spec.unschedulable.
import { pluginOfReason, splitSchedulerMessage } from '../../support/scheduler-reasons.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from './api.js';
import type { Obj, PodCondition, PodLike } from './cluster.js';
import type { TestCluster } from './index.js';
import type { Verdict } from '../../support/probe-verdict.js';
import { sleep } from './wait.js';

/**
 * A pod that stands in for the system pods every real cluster runs. A dump that holds no pod
 * but the target is read as a capture without pods (a gap, see src/engine/gaps.ts); with this
 * one there, a dump of the test cluster is as complete as it really is. It asks no scheduler
 * that runs and requests nothing, so no verdict changes; resetCluster leaves it in place.
 */
export const BYSTANDER = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'why-pending-bystander', namespace: 'kube-system', labels: { 'app.kubernetes.io/name': 'why-pending-bystander' } },
  spec: { schedulerName: 'why-pending-no-such-scheduler', containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }] },
};

/** What capture.ts and the end-to-end round trip dump (`kubectl get <kinds> -A -o yaml`). */
const DUMP_KINDS =
  'nodes,pods,events,pvc,pv,storageclasses,csinodes,replicasets,deployments,statefulsets,daemonsets,jobs,cronjobs,limitranges,resourcequotas,priorityclasses,poddisruptionbudgets,resourceclaims,deviceclasses,resourceslices,devicetaintrules,namespaces';

/**
 * The README's capture into a folder: one `kubectl get <kind> -A -o yaml` per kind, in a file
 * named after the kind, so that a kind the cluster has none of is known to be captured and
 * empty (a single List cannot say that: an empty kind leaves no trace in it).
 */
export async function writeDumpDir(c: TestCluster, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await Promise.all(DUMP_KINDS.split(',').map(async (kind) => {
    // Nodes with their managedFields, as the README captures them: who cordoned a node.
    const { stdout } = await c.kubectl(['get', kind, '-A', '-o', 'yaml', ...(kind === 'nodes' ? ['--show-managed-fields'] : [])]);
    writeFileSync(join(dir, `${kind}.yaml`), stdout);
  }));
  // The README's capture of cluster-autoscaler's status: that ConfigMap only (an empty list when none).
  const { stdout } = await c.kubectl(['get', 'configmaps', '-n', 'kube-system', '--field-selector', 'metadata.name=cluster-autoscaler-status', '-o', 'yaml']);
  writeFileSync(join(dir, 'configmaps.yaml'), stdout);
  // The README's capture of the cluster's version (the release whose rules are replayed).
  const version = await c.kubectl(['version', '-o', 'json']);
  writeFileSync(join(dir, 'version.json'), version.stdout);
  return dir;
}

export type { Verdict } from '../../support/probe-verdict.js';

export function verdictOf(c: PodCondition | undefined, pod?: PodLike): Verdict {
  return {
    status: c?.status,
    reason: c?.reason,
    message: c?.message,
    ...(pod?.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    ...(pod?.status?.nominatedNodeName ? { nominatedNodeName: pod.status.nominatedNodeName } : {}),
  };
}

export interface ProbeOptions {
  /** Leave out spec.schedulingGates, to learn what the scheduler would do once they are removed. */
  dropSchedulingGates?: boolean;
  /** Set spec.schedulerName, e.g. to learn what the running default-scheduler would do with a pod of another. */
  schedulerName?: string;
}

/** A copy of `pod` that only `node` can take. */
function probeFor(pod: PodLike, probeName: string, node: string, owner?: { name: string; uid: string }, opts: ProbeOptions = {}): PodLike {
  const md = (pod.metadata ?? {}) as Record<string, unknown>;
  const spec = structuredClone(pod.spec ?? {}) as Record<string, unknown> & { affinity?: Record<string, unknown> };
  delete spec.nodeName;
  if (opts.dropSchedulingGates) delete spec.schedulingGates;
  if (opts.schedulerName) spec.schedulerName = opts.schedulerName;
  const pin = { key: 'metadata.name', operator: 'In', values: [node] };
  const affinity = (spec.affinity ??= {}) as { nodeAffinity?: Record<string, unknown> };
  const na = (affinity.nodeAffinity ??= {}) as { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: Record<string, unknown>[] } };
  const req = (na.requiredDuringSchedulingIgnoredDuringExecution ??= {});
  const terms = req.nodeSelectorTerms?.length ? req.nodeSelectorTerms : [{}];
  // Terms are ORed; the pin is ANDed into each of them.
  req.nodeSelectorTerms = terms.map((t) => ({ ...t, matchFields: [...((t.matchFields as unknown[]) ?? []), pin] }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: probeName,
      namespace: pod.metadata?.namespace,
      ...(md.labels ? { labels: md.labels } : {}),
      ...(md.annotations ? { annotations: md.annotations } : {}),
      // Not the original's owners. A controller owner of our own keeps a ReplicaSet or
      // StatefulSet whose selector matches the copied labels from adopting the copy.
      ...(owner
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.name, uid: owner.uid, controller: true }] }
        : {}),
    },
    spec,
  };
}

async function probeOwner(c: TestCluster, ns: string): Promise<{ name: string; uid: string }> {
  const name = 'why-pending-probe-owner';
  const path = `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`;
  try {
    const cm = await c.api.get<Obj>(`${path}/${name}`);
    return { name, uid: String(cm.metadata?.uid) };
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
    const cm = await c.api.post<Obj>(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    return { name, uid: String(cm.metadata?.uid) };
  }
}

/**
 * The scheduler's verdict for `pod` on each of `nodes`, one pinned copy at a time (each
 * deleted before the next, so copies never see one another).
 */
export async function probeNodes(c: TestCluster, pod: PodLike, nodes: string[], opts: ProbeOptions = {}): Promise<Record<string, Verdict>> {
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const refs = (pod.metadata?.ownerReferences ?? []) as { controller?: boolean }[];
  const owner = refs.some((r) => r.controller) ? await probeOwner(c, ns) : undefined;
  const result: Record<string, Verdict> = {};
  for (const [i, node] of nodes.entries()) {
    const probeName = `wp-probe-${i}-${name}`.slice(0, 253).replace(/[-.]+$/, '');
    try {
      await c.api.post(`/api/v1/namespaces/${encodeURIComponent(ns)}/pods`, probeFor(pod, probeName, node, owner, opts));
      const { pod: p, condition } = await c.waitForPodScheduled(ns, probeName);
      result[node] = verdictOf(condition, p);
    } catch (e) {
      result[node] = { error: e instanceof Error ? e.message : String(e) };
    } finally {
      await c.deletePodNow(ns, probeName).catch(() => undefined);
    }
  }
  return result;
}

const nodePath = (n: string) => `/api/v1/nodes/${encodeURIComponent(n)}`;

async function setUnschedulable(c: TestCluster, node: string, value: boolean): Promise<void> {
  await c.api.patch(nodePath(node), { spec: { unschedulable: value ? true : null } });
}

/**
 * Like probeNodes, but pins without touching the copy's node affinity: every other node is
 * cordoned (spec.unschedulable, which NodeUnschedulable checks first and PodTopologySpread
 * ignores) while the copy is judged, then each node gets its own value back. For pods whose
 * spread counts depend on their node affinity (see pinningHidesSpread). The copy must not
 * tolerate node.kubernetes.io/unschedulable. The scheduler may judge a copy before it has seen
 * the cordons: a verdict that does not show every other node as unschedulable (or a copy bound
 * elsewhere) is taken again.
 */
export async function probeNodesByCordon(c: TestCluster, pod: PodLike, nodes: string[], opts: ProbeOptions = {}): Promise<Record<string, Verdict>> {
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  const refs = (pod.metadata?.ownerReferences ?? []) as { controller?: boolean }[];
  const owner = refs.some((r) => r.controller) ? await probeOwner(c, ns) : undefined;
  const original = new Map(await Promise.all(nodes.map(async (n) => {
    const obj = await c.api.get<{ spec?: { unschedulable?: boolean } }>(nodePath(n));
    return [n, obj.spec?.unschedulable === true] as const;
  })));
  const result: Record<string, Verdict> = {};
  try {
    for (const [i, node] of nodes.entries()) {
      await Promise.all(nodes.map((n) => setUnschedulable(c, n, n === node ? (original.get(n) ?? false) : true)));
      const copy = probeFor(pod, `wp-cordon-probe-${i}-${name}`.slice(0, 253).replace(/[-.]+$/, ''), node, owner, opts);
      const spec = copy.spec as { affinity?: { nodeAffinity?: unknown } };
      spec.affinity = structuredClone((pod.spec as { affinity?: Record<string, unknown> } | undefined)?.affinity ?? {});
      if (Object.keys(spec.affinity).length === 0) delete spec.affinity;
      for (let attempt = 1; ; attempt++) {
        const probeName = `${String(copy.metadata?.name)}-${attempt}`;
        try {
          await c.api.post(`/api/v1/namespaces/${encodeURIComponent(ns)}/pods`, { ...copy, metadata: { ...copy.metadata, name: probeName } });
          const { pod: p, condition } = await c.waitForPodScheduled(ns, probeName);
          const v = verdictOf(condition, p);
          const cordoned = v.message ? cordonedCount(v.message) : 0;
          const settled = v.status === 'True' ? v.nodeName === node : cordoned >= nodes.length - 1;
          if (settled || attempt >= 5) {
            result[node] = settled ? v : { error: `after ${attempt} tries the scheduler still had not seen the cordons: ${JSON.stringify(v)}` };
            break;
          }
        } catch (e) {
          result[node] = { error: e instanceof Error ? e.message : String(e) };
          break;
        } finally {
          await c.deletePodNow(ns, probeName).catch(() => undefined);
        }
        await sleep(200);
      }
    }
  } finally {
    await Promise.all(nodes.map((n) => setUnschedulable(c, n, original.get(n) ?? false)));
  }
  return result;
}

/** How many nodes a message counts as unschedulable (NodeUnschedulable). */
function cordonedCount(message: string): number {
  const split = splitSchedulerMessage(message);
  if (split.kind !== 'nodeCounts') return 0;
  return split.reasons.filter((r) => pluginOfReason(r.reason) === 'NodeUnschedulable').reduce((n, r) => n + r.count, 0);
}

export { nodeVerdict, type NodeVerdict } from '../../support/probe-verdict.js';

interface SpreadConstraint {
  whenUnsatisfiable?: string;
  nodeAffinityPolicy?: string;
}

/**
 * True when a pinned copy cannot show the scheduler's PodTopologySpread verdict: a
 * DoNotSchedule constraint whose nodeAffinityPolicy is Honor (the default) counts only the
 * nodes the copy's node affinity allows, i.e. its own node's domain.
 */
export function pinningHidesSpread(pod: PodLike): boolean {
  const constraints = ((pod.spec as { topologySpreadConstraints?: SpreadConstraint[] } | undefined)?.topologySpreadConstraints ?? []);
  return constraints.some((t) => t.whenUnsatisfiable === 'DoNotSchedule' && (t.nodeAffinityPolicy ?? 'Honor') === 'Honor');
}
