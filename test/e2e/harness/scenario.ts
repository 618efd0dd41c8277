// Capture scenarios (test/e2e/scenarios-capture/*.yaml) on a running test cluster: create the
// nodes and objects, wait until the control plane has decided about every pod the scheduler
// should judge, and say, from the cluster's own state, which pods (or owners) are pending and
// at what stage; then take it all away again so the next scenario starts clean.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { ApiError } from './api.js';
import { podScheduledCondition, type NodeSpec, type Obj, type PodCondition, type PodLike } from './cluster.js';
import type { TestCluster } from './index.js';
import { sleep, waitFor } from './wait.js';

const CAPTURE_DIR = join(import.meta.dirname, '..', 'scenarios-capture');
/** Scenarios in the same format for the live tests only (e.g. ones capture.ts's pin cannot judge). */
export const LIVE_ONLY_DIR = join(import.meta.dirname, '..', 'scenarios-live');

export interface CaptureScenario {
  name: string;
  file: string;
  /** The file's leading comment. */
  comment: string;
  nodes: (NodeSpec & { name: string })[];
  objects: Obj[];
  /**
   * Objects created once the scheduler has decided about every pod of `objects` (a pod that
   * preempted is nominated by then): what a later pod meets depends on that order.
   */
  later?: Obj[];
}

const objectsIn = (list: unknown): Obj[] => (Array.isArray(list) ? list : []).filter((o): o is Obj => !!o && typeof o === 'object');

export function readCaptureScenario(file: string): CaptureScenario {
  const text = readFileSync(file, 'utf8');
  const raw = parse(text) as { nodes?: (NodeSpec & { name: string })[]; objects?: Obj[]; later?: Obj[] } | null;
  const comment = text.split('\n').filter((l) => l.startsWith('#')).map((l) => l.replace(/^#\s?/, '')).join(' ');
  const nodes = raw?.nodes ?? [];
  for (const n of nodes) if (!n.name) throw new Error(`${file}: every node needs a name`);
  return { name: basename(file, '.yaml'), file, comment, nodes, objects: objectsIn(raw?.objects), later: objectsIn(raw?.later) };
}

/** Pods of `objects` the scheduler is to place (no spec.nodeName). */
export function unboundPods(objects: readonly Obj[]): Obj[] {
  return objects.filter((o) => o.kind === 'Pod' && !(o.spec as { nodeName?: string } | undefined)?.nodeName);
}

export function captureScenarios(dir = CAPTURE_DIR): CaptureScenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => readCaptureScenario(join(dir, f)));
}

/** What the cluster says about one thing the scenario leaves pending. */
export interface Target {
  namespace: string;
  /** As typed after `kubectl why-pending`: a pod name or `deploy/<name>`. */
  query: string;
  /** The stage the control plane's own state shows (never the engine's opinion). */
  stage: 'Unschedulable' | 'SchedulingGated' | 'NoScheduler' | 'AdmissionRejected' | 'PreemptionPending';
  pod?: PodLike;
  condition?: PodCondition;
  /** AdmissionRejected: the last FailedCreate message on the owner or its ReplicaSets. */
  failedCreate?: string;
}

const enc = encodeURIComponent;
const nsOf = (o: Obj) => o.metadata?.namespace ?? 'default';

/** How long a pod no running scheduler owns is watched for a PodScheduled condition. */
const NO_SCHEDULER_GRACE_MS = 2000;

export async function applyScenario(c: TestCluster, s: CaptureScenario): Promise<void> {
  await Promise.all(s.nodes.map(({ name, ...spec }) => c.createNode(name, spec)));
  await c.apply(s.objects);
  if (!s.later || s.later.length === 0) return;
  await Promise.all(unboundPods(s.objects).map((o) => c.waitForPodScheduled(nsOf(o), o.metadata?.name ?? '')));
  // A preemption's nomination is written with the failure; a moment more for its status write.
  await sleep(1000);
  await c.apply(s.later);
}

interface EventLike extends Obj {
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string; uid?: string };
  lastTimestamp?: string;
  eventTime?: string;
}

async function events(c: TestCluster, ns: string, selector: string): Promise<EventLike[]> {
  const list = await c.api.get<{ items: EventLike[] }>(`/api/v1/namespaces/${enc(ns)}/events?fieldSelector=${enc(selector)}`);
  return list.items;
}

async function getPod(c: TestCluster, ns: string, name: string): Promise<PodLike> {
  return c.api.get<PodLike>(`/api/v1/namespaces/${enc(ns)}/pods/${enc(name)}`);
}

function stageOf(pod: PodLike, condition: PodCondition | undefined): Target['stage'] | undefined {
  if (!condition || condition.status !== 'False') return undefined;
  if (condition.reason === 'SchedulingGated') return 'SchedulingGated';
  if (condition.reason === 'Unschedulable') return pod.status?.nominatedNodeName ? 'PreemptionPending' : 'Unschedulable';
  return undefined;
}

/**
 * Waits until the control plane has decided: every pod of the default scheduler has its
 * PodScheduled verdict (and, when unschedulable, its FailedScheduling event); a pod of a
 * scheduler that does not run has, after the others and NO_SCHEDULER_GRACE_MS more, still no
 * PodScheduled condition and no scheduling event; a Deployment either has pods or FailedCreate
 * events. Returns what stays pending.
 */
export async function settleScenario(c: TestCluster, s: CaptureScenario): Promise<Target[]> {
  const targets: Target[] = [];
  const pods = unboundPods([...s.objects, ...(s.later ?? [])]);
  const otherScheduler = (o: Obj) => ((o.spec as { schedulerName?: string } | undefined)?.schedulerName ?? 'default-scheduler') !== 'default-scheduler';

  const judged = async (ns: string, name: string) => {
    const { pod, condition } = await c.waitForPodScheduled(ns, name);
    const stage = stageOf(pod, condition);
    if (!stage) return;
    if (stage !== 'SchedulingGated') await c.waitForEvent(ns, name, 'FailedScheduling');
    targets.push({ namespace: ns, query: name, stage, pod: await getPod(c, ns, name), condition });
  };
  await Promise.all(pods.filter((o) => !otherScheduler(o)).map((o) => judged(nsOf(o), o.metadata?.name ?? '')));

  // Owners: pods made by a controller, or FailedCreate events saying why there are none.
  for (const d of s.objects.filter((o) => o.kind === 'Deployment')) {
    const ns = nsOf(d);
    const name = d.metadata?.name ?? '';
    const labels = ((d.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels) ?? {};
    const selector = Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
    const outcome = await waitFor(`deployment ${ns}/${name}'s pods or FailedCreate events`, async () => {
      const list = await c.api.get<{ items: PodLike[] }>(`/api/v1/namespaces/${enc(ns)}/pods?labelSelector=${enc(selector)}`);
      if (list.items.length > 0) return { pods: list.items, failures: [] as EventLike[] };
      // The owner's own ReplicaSets (owner reference to its uid), then their FailedCreate events.
      const deployment = await c.api.get<Obj>(`/apis/apps/v1/namespaces/${enc(ns)}/deployments/${enc(name)}`);
      const rsList = await c.api.get<{ items: Obj[] }>(`/apis/apps/v1/namespaces/${enc(ns)}/replicasets`);
      const owned = new Set(rsList.items
        .filter((rs) => ((rs.metadata as { ownerReferences?: { uid?: string }[] } | undefined)?.ownerReferences ?? []).some((r) => r.uid === deployment.metadata?.uid))
        .map((rs) => String(rs.metadata?.uid)));
      const failures = (await events(c, ns, 'reason=FailedCreate')).filter((e) =>
        (e.involvedObject?.kind === 'ReplicaSet' && owned.has(String(e.involvedObject.uid))) || (e.involvedObject?.kind === 'Deployment' && e.involvedObject.name === name));
      return failures.length > 0 ? { pods: [] as PodLike[], failures } : undefined;
    }, { timeoutMs: 30_000 });
    for (const p of outcome.pods) await judged(ns, p.metadata?.name ?? '');
    if (outcome.pods.length === 0) {
      const last = [...outcome.failures].sort((a, b) => String(a.lastTimestamp ?? a.eventTime).localeCompare(String(b.lastTimestamp ?? b.eventTime))).pop();
      targets.push({ namespace: ns, query: `deploy/${name}`, stage: 'AdmissionRejected', ...(last?.message ? { failedCreate: last.message } : {}) });
    }
  }

  // Pods no running scheduler owns: bounded wait, after the default scheduler has shown it works.
  const orphans = pods.filter(otherScheduler);
  if (orphans.length > 0) {
    await sleep(NO_SCHEDULER_GRACE_MS);
    for (const o of orphans) {
      const ns = nsOf(o);
      const name = o.metadata?.name ?? '';
      const pod = await getPod(c, ns, name);
      const condition = podScheduledCondition(pod);
      const scheduling = (await events(c, ns, `involvedObject.name=${name}`)).filter((e) => ['Scheduled', 'FailedScheduling'].includes(e.reason ?? ''));
      if (condition || pod.spec?.nodeName || scheduling.length > 0) {
        throw new Error(`${ns}/${name} (schedulerName ${String((o.spec as { schedulerName?: string }).schedulerName)}) was judged by someone: ${JSON.stringify({ condition, nodeName: pod.spec?.nodeName, events: scheduling.map((e) => e.reason) })}`);
      }
      targets.push({ namespace: ns, query: name, stage: 'NoScheduler', pod });
    }
  }
  return targets;
}

const SYSTEM_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
const WORKLOADS = [
  '/apis/apps/v1/namespaces/{ns}/deployments',
  '/apis/apps/v1/namespaces/{ns}/statefulsets',
  '/apis/apps/v1/namespaces/{ns}/daemonsets',
  '/apis/batch/v1/namespaces/{ns}/cronjobs',
  '/apis/batch/v1/namespaces/{ns}/jobs',
  '/apis/apps/v1/namespaces/{ns}/replicasets',
];
const CLUSTER_KINDS = [
  '/apis/storage.k8s.io/v1/storageclasses',
  '/apis/node.k8s.io/v1/runtimeclasses',
  '/apis/storage.k8s.io/v1/csinodes',
  '/apis/resource.k8s.io/v1/deviceclasses',
  '/apis/resource.k8s.io/v1/resourceslices',
  '/apis/resource.k8s.io/v1/devicetaintrules',
];
const GRACE_0 = { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Background' };

async function ignore404<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** Takes every finalizer off the objects of a collection (no controller here removes them). */
async function dropFinalizers(c: TestCluster, path: string): Promise<void> {
  const list = await c.api.get<{ items: Obj[] }>(path);
  await Promise.all(list.items
    .filter((o) => ((o.metadata as { finalizers?: string[] } | undefined)?.finalizers ?? []).length > 0)
    .map((o) => ignore404(c.api.patch(`${path}/${enc(o.metadata?.name ?? '')}`, { metadata: { finalizers: null } }))));
}

interface ApiResourceList {
  groupVersion: string;
  resources: { name: string; namespaced: boolean; verbs: string[] }[];
}

const namespacedCollections = new WeakMap<TestCluster, Promise<string[]>>();

/**
 * Every namespaced collection the apiserver serves that can be deleted as a whole, as a path
 * template with {ns} (discovery, as the namespace controller does it). Cached per cluster.
 */
function namespacedResources(c: TestCluster): Promise<string[]> {
  let found = namespacedCollections.get(c);
  if (!found) {
    found = (async () => {
      const groups = await c.api.get<{ groups: { preferredVersion: { groupVersion: string } }[] }>('/apis');
      const lists = await Promise.all([
        c.api.get<ApiResourceList>('/api/v1'),
        ...groups.groups.map((g) => c.api.get<ApiResourceList>(`/apis/${g.preferredVersion.groupVersion}`)),
      ]);
      return lists.flatMap((l) => {
        const root = l.groupVersion === 'v1' ? '/api/v1' : `/apis/${l.groupVersion}`;
        return l.resources
          .filter((r) => r.namespaced && !r.name.includes('/') && r.verbs.includes('deletecollection') && r.verbs.includes('list'))
          .map((r) => `${root}/namespaces/{ns}/${r.name}`);
      });
    })();
    namespacedCollections.set(c, found);
  }
  return found;
}

/**
 * Deletes a namespace the way the namespace controller would, without its delays: the
 * namespace first (Terminating: nothing new can be created in it), its workloads (so no
 * controller makes pods), then every collection in it, pods at once (grace 0: no kubelet
 * confirms) and claims without their protection finalizer; then the namespace's own finalizer.
 */
async function deleteNamespace(c: TestCluster, ns: string, collections: string[]): Promise<void> {
  const at = (t: string) => t.replace('{ns}', enc(ns));
  await ignore404(c.api.delete(`/api/v1/namespaces/${enc(ns)}`));
  for (const w of WORKLOADS) await ignore404(c.api.delete(at(w), GRACE_0));
  await Promise.all(collections.map((t) => ignore404(c.api.delete(at(t), GRACE_0))));
  await dropFinalizers(c, at('/api/v1/namespaces/{ns}/persistentvolumeclaims'));
  // Allocated ResourceClaims keep resource.kubernetes.io/delete-protection until the
  // controller deallocates them, which outlasts a reset.
  await dropFinalizers(c, at('/apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaims'));
  await ignore404(c.api.put(`/api/v1/namespaces/${enc(ns)}/finalize`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns }, spec: { finalizers: [] } }));
}

/**
 * Removes everything scenarios create: every non-system namespace with all its objects; in
 * `default`, the workloads, pods, claims and events; every node, PersistentVolume,
 * StorageClass, RuntimeClass, CSINode, DeviceClass, ResourceSlice and non-system PriorityClass. Then waits until no pod,
 * node, volume or scenario namespace is left (so the scheduler's cache has no node and no pod)
 * and checks that no object of any kind was left behind in a deleted namespace.
 */
export async function resetCluster(c: TestCluster): Promise<void> {
  const collections = await namespacedResources(c);
  const nsList = await c.api.get<{ items: Obj[] }>('/api/v1/namespaces');
  const scenarioNamespaces = nsList.items.map((n) => n.metadata?.name ?? '').filter((n) => !SYSTEM_NAMESPACES.has(n));
  await Promise.all(scenarioNamespaces.map((ns) => deleteNamespace(c, ns, collections)));
  for (const w of WORKLOADS) await c.api.delete(w.replace('{ns}', 'default'), GRACE_0);
  await c.api.delete('/api/v1/namespaces/default/pods', GRACE_0);
  await dropFinalizers(c, '/api/v1/namespaces/default/persistentvolumeclaims');
  await c.api.delete('/api/v1/namespaces/default/persistentvolumeclaims', GRACE_0);
  await c.api.delete('/api/v1/namespaces/default/events', GRACE_0);
  await c.api.delete('/api/v1/nodes', GRACE_0);
  await dropFinalizers(c, '/api/v1/persistentvolumes');
  await c.api.delete('/api/v1/persistentvolumes', GRACE_0);
  await Promise.all(CLUSTER_KINDS.map((k) => ignore404(c.api.delete(k, GRACE_0))));
  const pcs = await c.api.get<{ items: Obj[] }>('/apis/scheduling.k8s.io/v1/priorityclasses');
  await Promise.all(pcs.items
    .map((p) => p.metadata?.name ?? '')
    .filter((n) => !n.startsWith('system-'))
    .map((n) => ignore404(c.api.delete(`/apis/scheduling.k8s.io/v1/priorityclasses/${enc(n)}`))));
  await waitFor('an empty cluster (no pods, nodes, volumes or scenario namespaces)', async () => {
    const [podList, nodeList, pvList, namespaces] = await Promise.all([
      c.api.get<{ items: Obj[] }>('/api/v1/pods'),
      c.api.get<{ items: Obj[] }>('/api/v1/nodes'),
      c.api.get<{ items: Obj[] }>('/api/v1/persistentvolumes'),
      c.api.get<{ items: Obj[] }>('/api/v1/namespaces'),
    ]);
    const left = namespaces.items.filter((n) => !SYSTEM_NAMESPACES.has(n.metadata?.name ?? ''));
    const pods = podList.items.filter((p) => p.metadata?.namespace !== 'kube-system');
    return pods.length + nodeList.items.length + pvList.items.length + left.length === 0 ? true : undefined;
  }, { timeoutMs: 30_000, intervalMs: 50 });
  // Nothing may outlive its namespace (it would still show in cluster-wide lists).
  const leftovers = (await Promise.all(scenarioNamespaces.flatMap((ns) => collections.map(async (t) => {
    const list = await c.api.get<{ items: Obj[] }>(t.replace('{ns}', enc(ns)));
    return list.items.map((o) => `${t.replace('{ns}', ns)}/${o.metadata?.name ?? ''}`);
  })))).flat();
  if (leftovers.length > 0) throw new Error(`objects left in deleted namespaces: ${leftovers.join(', ')}`);
}
