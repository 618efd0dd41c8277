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
import { parseSchedulerMessage } from '../../../src/engine/scheduler-message/index.js';
import { ApiError } from './api.js';
import type { Obj, PodCondition, PodLike } from './cluster.js';
import type { TestCluster } from './index.js';
import { sleep } from './wait.js';

/** What capture.ts and the end-to-end round trip dump (`kubectl get <kinds> -A -o yaml`). */
export const DUMP_KINDS =
  'nodes,pods,events,pvc,pv,storageclasses,csinodes,replicasets,deployments,statefulsets,jobs,limitranges,resourcequotas,priorityclasses';

/** The message of the nodes a pinned copy leaves out (NodeAffinity's PreFilter result). */
export const PIN_REASON = "node(s) didn't satisfy plugin(s) [NodeAffinity]";

export interface Verdict {
  status?: string;
  reason?: string;
  message?: string;
  nodeName?: string;
  nominatedNodeName?: string;
  error?: string;
}

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
export function probeFor(pod: PodLike, probeName: string, node: string, owner?: { name: string; uid: string }, opts: ProbeOptions = {}): PodLike {
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

export async function probeOwner(c: TestCluster, ns: string): Promise<{ name: string; uid: string }> {
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
  const parsed = parseSchedulerMessage(message);
  return parsed.reasons.filter((r) => r.plugin === 'NodeUnschedulable').reduce((n, r) => n + r.count, 0);
}

export type NodeVerdict = { plugin: string } | { preFilter: string };

/**
 * The plugin a pinned copy's message names for its node ('fits' when the copy was scheduled),
 * or the PreFilter plugin when the scheduler failed the pod before any node. Throws on
 * anything else (unknown wordings, more than one plugin for one node).
 */
export function nodeVerdict(node: string, v: Verdict, totalNodes: number, pin: 'affinity' | 'cordon' = 'affinity'): NodeVerdict {
  const fail = (msg: string): never => {
    throw new Error(`${node}: ${msg}`);
  };
  if (v.error) fail(`the probe failed: ${v.error}`);
  if (v.status === 'True') return { plugin: 'fits' };
  if (v.status !== 'False' || v.reason !== 'Unschedulable' || !v.message) fail(`unexpected probe verdict ${JSON.stringify(v)}`);
  const message = v.message ?? '';
  const parsed = parseSchedulerMessage(message);
  if (parsed.kind === 'preFilter') {
    const plugin = parsed.preFilterReason?.plugin ?? fail(`no plugin for pre-filter reason "${parsed.preFilterReason?.text ?? ''}"`);
    return { preFilter: plugin };
  }
  if (parsed.kind !== 'nodeCounts') fail(`not a per-node message: ${message}`);
  if (parsed.unknownReasons.length > 0) fail(`reasons the catalog does not know: ${parsed.unknownReasons.join(' | ')}`);
  // The other nodes, left out by the pin: NodeAffinity's PreFilter result, or the cordons.
  const isPin = (r: { text: string; plugin?: string }) => (pin === 'affinity' ? r.text === PIN_REASON : r.plugin === 'NodeUnschedulable');
  const pinnedCount = parsed.reasons.filter(isPin).reduce((n, r) => n + r.count, 0);
  // Cordon pins: the node itself may be cordoned too, its first failing plugin NodeUnschedulable.
  if (pin === 'cordon' && pinnedCount === totalNodes) return { plugin: 'NodeUnschedulable' };
  if (totalNodes > 1 && pinnedCount !== totalNodes - 1) {
    fail(`expected ${totalNodes - 1} nodes left out by the pin, message says ${pinnedCount}: ${message}`);
  }
  const own = parsed.reasons.filter((r) => !isPin(r));
  if (own.length === 0) fail(`nothing left after removing the pin's count: ${message}`);
  const plugins = [...new Set(own.map((r) => r.plugin ?? fail(`no plugin for "${r.text}"`)))];
  // The scheduler stops at a node's first failing plugin; only NodeResourcesFit speaks
  // more than once (one reason per missing resource), so one plugin is left.
  if (plugins.length !== 1) fail(`more than one plugin for one node (${plugins.join(', ')}): ${message}`);
  for (const r of own) if (r.count !== 1) fail(`reason "${r.text}" counted ${r.count} times for one node`);
  return { plugin: plugins[0] as string };
}

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
