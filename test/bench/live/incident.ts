// The incident of the live benchmark (--incident N): N pending pods at once, spread over 20
// causes an on-call engineer meets (a toleration typo, a selector on a label no node has, a
// request no node can hold, a missing claim, a scheduler name typo, a drained pool...), in
// several namespaces, each cause knowing the triage group it must land in. `kubectl why-pending
// -A` is timed on them, and every group it prints is held against this seeded truth: the same
// pods, the same cause (stage, plugin, reason, key), nothing merged, nothing split.
//
// What the incident adds to the seeded cluster: a cordoned pool (CORDONED_POOL, one node in 50),
// a node-exporter holding hostPort 9100 on every candidate node of case (b), and a ReplicaSet
// whose pods admission refuses (its PriorityClass does not exist): no pod, so no group, which a
// triage of pods cannot show (checked, and said in the report).
import { ApiError, type ApiClient } from '../../e2e/harness/api.js';
import { waitFor } from '../../e2e/harness/wait.js';
import type { TriageV1 } from '../../../src/report/triage/contract.js';
import { BENCH_NAMESPACE, type BenchCase, type ExpectedCause, type TriageIdentity } from './cases.js';
import { candidateStride, CANDIDATE_LABEL, CORDONED_POOL, createBoundPod, EVERY_NODE_LABEL, nodeName, tainted } from './seed.js';

const enc = encodeURIComponent;

export const INCIDENT_NAMESPACES = ['shop', 'payments', 'search', 'ml-training', 'data-platform', 'edge-gateway', 'batch', 'observability'];
/** Every incident pod carries it (value: its cause), to wait for their verdicts (waitForIncidentVerdicts). */
const INCIDENT_LABEL = 'bench/incident';

/** One node in 50 is in the cordoned pool: never tainted, a candidate of case (b) nor packed (layout.ts). */
export function cordonedNode(i: number, nodes: number): boolean {
  return i % 50 === 35 && !tainted(i) && i % candidateStride(nodes) !== 0;
}

/** What the causes need to know of the seeded cluster. */
export interface IncidentCluster {
  nodes: number;
  /** The freest node's free cpu (layout.ts): one millicore more fits no node. */
  maxFreeCpuMillis: number;
}

/** What the control plane writes once it has judged the pod: PodScheduled=False with this reason, or nothing (no scheduler looks at it). */
type Verdict = 'Unschedulable' | 'SchedulingGated' | undefined;

interface Cause {
  id: string;
  /** How the incident's share of pods is split between causes. */
  weight: number;
  verdict: Verdict;
  expect: ExpectedCause;
  /** The pod's spec; `k` is the pod's rank within its cause. */
  spec: (k: number, c: IncidentCluster) => Record<string, unknown>;
  /** A kubelet's status for a pod bound to a node (created bound, then given it). */
  status?: Record<string, unknown>;
}

/** The nodes of the "gpu pool" two causes pin pods to: tainted dedicated=gpu:NoSchedule. */
const gpuPool = (c: IncidentCluster) => [9, 19, 29].filter((i) => i < c.nodes && tainted(i)).map(nodeName);
/** The cordoned nodes pods of one cause were bound to before the pool was drained. */
const cordonedNodes = (c: IncidentCluster) => Array.from({ length: c.nodes }, (_, i) => i).filter((i) => cordonedNode(i, c.nodes));

const container = (requests: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  name: 'main',
  image: 'registry.example.com/incident/app:v2.3.1',
  resources: { requests: { cpu: '100m', memory: '128Mi', ...requests } },
  ...extra,
});
const onlyOn = (key: string, values: string[]) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }] } } });
const unschedulable = (plugin: string, reason: string, key: string | RegExp): ExpectedCause => ({ stage: 'Unschedulable', plugin, reason, key });

/** The 20 causes, in no particular order; the triage sorts its groups by size. */
const causes: Cause[] = [
  {
    // A toleration one letter short of the taint's key: the pods were meant for the gpu pool.
    id: 'gpu-toleration-typo',
    weight: 6,
    verdict: 'Unschedulable',
    expect: unschedulable('TaintToleration', 'untoleratedTaint', 'dedicated:NoSchedule|dedicate=gpu:NoSchedule|'),
    spec: (_k, c) => ({ containers: [container()], affinity: onlyOn('kubernetes.io/hostname', gpuPool(c)), tolerations: [{ key: 'dedicate', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }),
  },
  {
    id: 'gpu-no-toleration',
    weight: 4,
    verdict: 'Unschedulable',
    expect: unschedulable('TaintToleration', 'untoleratedTaint', 'dedicated:NoSchedule||'),
    spec: (_k, c) => ({ containers: [container()], affinity: onlyOn('kubernetes.io/hostname', gpuPool(c)) }),
  },
  {
    id: 'selector-label-absent',
    weight: 5,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeAffinity', 'nodeSelectorMismatch', 'disktype=ssd'),
    spec: () => ({ containers: [container()], nodeSelector: { disktype: 'ssd' } }),
  },
  {
    id: 'selector-value-typo',
    weight: 8,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeAffinity', 'nodeSelectorMismatch', 'pool=comput'),
    spec: () => ({ containers: [container()], nodeSelector: { pool: 'comput' } }),
  },
  {
    id: 'affinity-zone-absent',
    weight: 4,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeAffinity', 'requiredAffinityMismatch', '0|topology.kubernetes.io/zone=zone-e'),
    spec: () => ({ containers: [container()], affinity: onlyOn('topology.kubernetes.io/zone', ['zone-e']) }),
  },
  {
    id: 'affinity-arm64',
    weight: 5,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeAffinity', 'requiredAffinityMismatch', '0|kubernetes.io/arch=arm64'),
    spec: () => ({ containers: [container()], affinity: onlyOn('kubernetes.io/arch', ['arm64']) }),
  },
  {
    id: 'cpu-over-allocatable',
    weight: 6,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeResourcesFit', 'insufficientResource', 'cpu|over'),
    spec: () => ({ containers: [container({ cpu: '24' })] }),
  },
  {
    id: 'memory-over-allocatable',
    weight: 4,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeResourcesFit', 'insufficientResource', 'memory|over'),
    spec: () => ({ containers: [container({ memory: '96Gi' })] }),
  },
  {
    id: 'gpu-nowhere',
    weight: 6,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeResourcesFit', 'insufficientResource', 'nvidia.com/gpu|over'),
    spec: () => ({ containers: [{ ...container({ 'nvidia.com/gpu': '1' }), resources: { requests: { cpu: '100m', memory: '128Mi', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } } }] }),
  },
  {
    // Just above the freest node's free cpu: every node could hold it but for what runs there.
    id: 'cpu-over-free',
    weight: 10,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeResourcesFit', 'insufficientResource', 'cpu|'),
    spec: (_k, c) => ({ containers: [container({ cpu: `${c.maxFreeCpuMillis + 1}m` })] }),
  },
  {
    // A second exporter on the candidate nodes, whose node-exporter holds the port.
    id: 'hostport-taken',
    weight: 4,
    verdict: 'Unschedulable',
    expect: unschedulable('NodePorts', 'hostPortInUse', '9100/TCP'),
    spec: () => ({ containers: [container({}, { ports: [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP', name: 'metrics' }] })], nodeSelector: { [CANDIDATE_LABEL]: 'yes' } }),
  },
  {
    id: 'anti-affinity-everywhere',
    weight: 5,
    verdict: 'Unschedulable',
    expect: unschedulable('InterPodAffinity', 'podAntiAffinityConflict', '0'),
    spec: () => ({
      containers: [container()],
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { [EVERY_NODE_LABEL.key]: EVERY_NODE_LABEL.value } }, namespaceSelector: {}, topologyKey: 'kubernetes.io/hostname' }] } },
    }),
  },
  {
    // Affinity to a cache that was never deployed.
    id: 'affinity-pod-absent',
    weight: 4,
    verdict: 'Unschedulable',
    expect: unschedulable('InterPodAffinity', 'podAffinityUnmatched', '0'),
    spec: () => ({ containers: [container()], affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'redis-cache' } }, topologyKey: 'kubernetes.io/hostname' }] } } }),
  },
  {
    // Spread over a topology label no node carries (racks are not labelled here).
    id: 'spread-key-absent',
    weight: 4,
    verdict: 'Unschedulable',
    expect: unschedulable('PodTopologySpread', 'spreadLabelMissing', '0'),
    spec: () => ({ containers: [container()], topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/rack', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread-key-absent' } } }] }),
  },
  {
    // The same claim missing in every namespace: one cause (the chart that forgot it). The
    // scheduler's VolumeRestrictions pre-filter finds it missing first, before VolumeBinding.
    id: 'pvc-missing',
    weight: 5,
    verdict: 'Unschedulable',
    expect: unschedulable('VolumeRestrictions', 'restrictionsClaimNotFound', /"cache-data"/),
    spec: () => ({ containers: [container({}, { volumeMounts: [{ name: 'data', mountPath: '/data' }] })], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'cache-data' } }] }),
  },
  {
    id: 'scheduling-gated',
    weight: 6,
    verdict: 'SchedulingGated',
    expect: { stage: 'SchedulingGated', reason: 'gates', key: 'example.com/quota-approval' },
    spec: () => ({ containers: [container()], schedulingGates: [{ name: 'example.com/quota-approval' }] }),
  },
  {
    // A scheduler name with a typo: no scheduler ever looks at these pods.
    id: 'scheduler-name-typo',
    weight: 4,
    verdict: undefined,
    expect: { stage: 'NoScheduler', reason: 'schedulerName', key: 'default-schedular' },
    spec: () => ({ containers: [container()], schedulerName: 'default-schedular' }),
  },
  {
    // spec.nodeName written by hand, one zero short: the node does not exist.
    id: 'node-name-missing',
    weight: 2,
    verdict: undefined,
    expect: { stage: 'NodeNameSet', reason: 'nodeMissing', key: 'node-0042' },
    spec: () => ({ containers: [container()], nodeName: 'node-0042' }),
  },
  {
    id: 'cordoned-pool',
    weight: 8,
    verdict: 'Unschedulable',
    expect: unschedulable('NodeUnschedulable', 'nodeCordoned', ''),
    spec: () => ({ containers: [container()], nodeSelector: { pool: CORDONED_POOL } }),
  },
  {
    // A rollout to an image tag that does not exist, on nodes of the pool since cordoned.
    id: 'image-pull-backoff',
    weight: 10,
    verdict: undefined,
    expect: { stage: 'ScheduledNotRunning', reason: 'containerWaiting', key: 'ImagePullBackOff' },
    spec: (k, c) => {
      const on = cordonedNodes(c);
      return { containers: [{ ...container(), image: 'registry.example.com/incident/app:v2.3.1-rc' }], nodeName: nodeName(on[k % on.length] ?? 0) };
    },
    status: {
      phase: 'Pending',
      conditions: [
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-12-01T09:00:00Z' },
        { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-12-01T09:00:00Z' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [main]', lastProbeTime: null, lastTransitionTime: '2026-12-01T09:00:00Z' },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [main]', lastProbeTime: null, lastTransitionTime: '2026-12-01T09:00:00Z' },
      ],
      startTime: '2026-12-01T09:00:00Z',
      containerStatuses: [
        {
          name: 'main',
          image: 'registry.example.com/incident/app:v2.3.1-rc',
          imageID: '',
          ready: false,
          started: false,
          restartCount: 0,
          state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.example.com/incident/app:v2.3.1-rc"' } },
        },
      ],
      qosClass: 'Burstable',
    },
  },
];

if (causes.length !== 20) throw new Error(`the incident has ${causes.length} causes, not 20`);

/** The ReplicaSet admission refuses (no PriorityClass reports-critical): its pods never exist. */
const refused = { namespace: 'observability', name: 'nightly-reports-6d5f8b7c9d', priorityClassName: 'reports-critical' };

export interface IncidentPod {
  cause: string;
  namespace: string;
  name: string;
  manifest: Record<string, unknown> & { metadata: { name: string; namespace: string } };
  status?: Record<string, unknown>;
  verdict: Verdict;
  expect: ExpectedCause;
}

/**
 * How many pods each cause gets: one each, then the rest by weight (largest remainder, ties to
 * the earlier cause), so that the counts add up to `n` exactly and do not depend on the machine.
 */
function shares(n: number): number[] {
  const total = causes.reduce((a, c) => a + c.weight, 0);
  const rest = n - causes.length;
  const exact = causes.map((c) => (rest * c.weight) / total);
  const counts = exact.map((x) => 1 + Math.floor(x));
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left-- <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

/** The incident's `n` pending pods, deterministic: the same names, namespaces and specs on every run. */
export function incidentPods(n: number, cluster: IncidentCluster): IncidentPod[] {
  if (n < causes.length) throw new Error(`--incident needs at least ${causes.length} pods, one per cause`);
  if (cordonedNodes(cluster).length === 0) throw new Error('--incident needs a cordoned pool apart from the candidates of case (b): at least 200 nodes');
  const counts = shares(n);
  return causes.flatMap((cause, c) =>
    Array.from({ length: counts[c] ?? 0 }, (_, k) => {
      const namespace = INCIDENT_NAMESPACES[(c + k) % INCIDENT_NAMESPACES.length] ?? 'default';
      const name = `${cause.id}-${String(k).padStart(5, '0')}`;
      const manifest = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { app: cause.id, [INCIDENT_LABEL]: cause.id } }, spec: cause.spec(k, cluster) };
      return { cause: cause.id, namespace, name, manifest, verdict: cause.verdict, expect: cause.expect, ...(cause.status ? { status: cause.status } : {}) };
    }),
  );
}

/**
 * The exporter holding hostPort 9100 on every candidate node of case (b), as a DaemonSet's pod
 * runs: bound, running, tolerating every taint, no requests (so that case (b)'s arithmetic of
 * free cpu holds).
 */
export async function seedExporters(api: ApiClient, nodes: number, pool: (count: number, task: (i: number) => Promise<void>) => Promise<void>): Promise<number> {
  const candidates = Array.from({ length: nodes }, (_, i) => i).filter((i) => i % candidateStride(nodes) === 0);
  const at = '2026-11-30T10:00:00Z';
  await pool(candidates.length, async (k) => {
    const node = nodeName(candidates[k] ?? 0);
    const manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `node-exporter-${node}`, namespace: 'observability', labels: { app: 'node-exporter' } },
      spec: {
        nodeName: node,
        containers: [{ name: 'node-exporter', image: 'quay.io/prometheus/node-exporter:v1.9.1', ports: [{ containerPort: 9100, hostPort: 9100, protocol: 'TCP', name: 'metrics' }] }],
        tolerations: [{ operator: 'Exists' }],
      },
    };
    await createBoundPod(api, manifest, {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at })),
      startTime: at,
      containerStatuses: [{ name: 'node-exporter', image: 'quay.io/prometheus/node-exporter:v1.9.1', imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: at } } }],
      qosClass: 'BestEffort',
    });
  });
  return candidates.length;
}

/** The ReplicaSet whose pods admission refuses: the replicaset controller's part of the incident. */
export async function createRefusedReplicaSet(api: ApiClient): Promise<string> {
  try {
    await api.post(`/apis/apps/v1/namespaces/${enc(refused.namespace)}/replicasets`, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: refused.name, namespace: refused.namespace, labels: { app: 'nightly-reports' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'nightly-reports' } },
        template: { metadata: { labels: { app: 'nightly-reports' } }, spec: { priorityClassName: refused.priorityClassName, containers: [container()] } },
      },
    });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
  return `ReplicaSet ${refused.namespace}/${refused.name} (priorityClassName ${refused.priorityClassName}, which does not exist)`;
}

/** Until the replicaset controller has reported the refusal (FailedCreate), the one thing it does for the incident. */
export async function waitForRefusal(api: ApiClient): Promise<void> {
  const selector = enc(`involvedObject.name=${refused.name},reason=FailedCreate`);
  await waitFor(`FailedCreate of ReplicaSet ${refused.namespace}/${refused.name}`, async () => {
    const events = await api.get<{ items: unknown[] }>(`/api/v1/namespaces/${enc(refused.namespace)}/events?fieldSelector=${selector}`);
    return events.items.length > 0 ? true : undefined;
  }, { timeoutMs: 120_000 });
}

/** Creates the incident's pods: pending ones as they are; bound ones given a kubelet's status. */
export async function createIncidentPods(api: ApiClient, pods: readonly IncidentPod[], pool: (count: number, task: (i: number) => Promise<void>) => Promise<void>): Promise<void> {
  await pool(pods.length, async (i) => {
    const p = pods[i];
    if (!p) return;
    if (p.status) return createBoundPod(api, p.manifest, p.status);
    await api.post(`/api/v1/namespaces/${enc(p.namespace)}/pods`, p.manifest);
  });
}

interface PodItem {
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  status?: { conditions?: { type: string; status: string; reason?: string }[] };
}

/** Where the scheduler stands on the incident: pods judged, and those not yet, by cause. */
interface VerdictProgress {
  judged: number;
  waitingByCause: Record<string, number>;
}

/** The causes still waiting for a verdict, most pods first: "363 cordoned-pool, 227 pvc-missing". */
export const waitingLine = (w: Record<string, number>) =>
  Object.entries(w)
    .sort((a, b) => b[1] - a[1])
    .map(([cause, n]) => `${n} ${cause}`)
    .join(', ');

/**
 * Until every incident pod has the word of the control plane it waits for, `stallMs` passes with
 * none judged, or `maxMs` in all: the progress at the end either way (the caller decides what an
 * unfinished incident means). Why a stall and not a fixed limit: at 100,000 bound pods the
 * scheduler took 5 s for each pod with anti-affinity to every node (its PreFilter reads every
 * pod, its preemption tries the nodes), 227 of them, 20 minutes, while the cheaper causes queued
 * behind them. Says every 15 s how many are judged and which causes wait. Polled every 5 s,
 * namespace by namespace (the apiserver finds a namespace's pods without going through the other
 * 100,000), paged.
 */
export async function waitForIncidentVerdicts(api: ApiClient, pods: readonly IncidentPod[], { stallMs, maxMs }: { stallMs: number; maxMs: number }, say: (line: string) => void): Promise<VerdictProgress> {
  const wanted = new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p.verdict]));
  const end = Date.now() + maxMs;
  // Set by the first poll, which always counts as progress.
  let deadline = end;
  let judgedBefore = -1;
  let lastSaid = 0;
  for (;;) {
    const progress: VerdictProgress = { judged: 0, waitingByCause: {} };
    for (const ns of INCIDENT_NAMESPACES) {
      let cont = '';
      do {
        const page = await api.get<{ items: PodItem[]; metadata: { continue?: string } }>(`/api/v1/namespaces/${enc(ns)}/pods?labelSelector=${enc(INCIDENT_LABEL)}&limit=500${cont ? `&continue=${enc(cont)}` : ''}`);
        for (const pod of page.items) {
          const id = `${pod.metadata.namespace}/${pod.metadata.name}`;
          if (!wanted.has(id)) continue;
          const verdict = wanted.get(id);
          const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
          if (verdict === undefined || (scheduled?.status === 'False' && scheduled.reason === verdict)) progress.judged++;
          else {
            const cause = pod.metadata.labels?.[INCIDENT_LABEL] ?? '?';
            progress.waitingByCause[cause] = (progress.waitingByCause[cause] ?? 0) + 1;
          }
        }
        cont = page.metadata.continue ?? '';
      } while (cont);
    }
    const done = progress.judged === pods.length;
    if (progress.judged > judgedBefore) {
      judgedBefore = progress.judged;
      deadline = Math.min(end, Date.now() + stallMs);
    }
    if (done || Date.now() >= deadline || Date.now() - lastSaid > 15_000) {
      lastSaid = Date.now();
      say(`  incident: ${progress.judged} of ${pods.length} pods judged${done ? '' : `; waiting: ${waitingLine(progress.waitingByCause)}`}`);
    }
    if (done || Date.now() >= deadline) return progress;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}

export interface GroupCheck {
  cause: TriageIdentity;
  count: number;
  /** The seeded causes (incident causes, bench cases) whose pods make up the group, with how many each: "510 cpu-over-free". */
  from: string[];
}

const identityOf = (c: ExpectedCause) => JSON.stringify([c.stage, c.plugin ?? '', c.reason ?? '', String(c.key)]);
const matches = (want: ExpectedCause, got: TriageIdentity) =>
  want.stage === got.stage && want.plugin === got.plugin && want.reason === got.reason && (typeof want.key === 'string' ? want.key === got.key : want.key.test(got.key));
/** A group's cause in one line: stage / plugin / reason / key. */
export const describeCause = (c: ExpectedCause) => [c.stage, c.plugin, c.reason, c.key === '' ? '(no key)' : c.key].filter((x) => x !== undefined).join(' / ');

/**
 * Holds a triage (-A -o json) against the seeded truth: every pending pod (the incident's and
 * the bench cases') in exactly the group of its expected cause, each group holding exactly the
 * pods that expect its cause, and no group for the ReplicaSet admission refuses. Throws, naming
 * what differs, on the first difference; returns the groups, largest first.
 */
export function checkTriage(t: TriageV1, pods: readonly IncidentPod[], cases: readonly BenchCase[]): GroupCheck[] {
  const truth = new Map<string, { cause: ExpectedCause; from: string }>();
  for (const p of pods) truth.set(`${p.namespace}/${p.name}`, { cause: p.expect, from: p.cause });
  for (const k of cases) truth.set(`${BENCH_NAMESPACE}/${(k.pod['metadata'] as { name: string }).name}`, { cause: k.triage, from: `case (${k.id})` });
  const problems: string[] = [];
  if (t.counts.pending !== truth.size) problems.push(`${t.counts.pending} pending pods, seeded ${truth.size}`);
  const seen = new Set<string>();
  const groups: GroupCheck[] = [];
  for (const g of t.groups) {
    const got: TriageIdentity = { stage: g.cause.stage, ...(g.cause.plugin !== undefined ? { plugin: g.cause.plugin } : {}), ...(g.cause.reason !== undefined ? { reason: g.cause.reason } : {}), key: g.cause.key };
    const from = new Map<string, number>();
    for (const p of g.pods) {
      const id = `${p.pod.namespace}/${p.pod.name}`;
      seen.add(id);
      const want = truth.get(id);
      if (!want) {
        problems.push(`group ${describeCause(got)} holds ${id}, which was not seeded pending`);
        continue;
      }
      from.set(want.from, (from.get(want.from) ?? 0) + 1);
      if (!matches(want.cause, got)) problems.push(`${id} (${want.from}) is in group ${describeCause(got)}, expected ${describeCause(want.cause)}`);
    }
    const expected = [...truth.values()].filter((v) => matches(v.cause, got)).length;
    if (g.count !== g.pods.length || g.count !== expected) problems.push(`group ${describeCause(got)} counts ${g.count} pods (${g.pods.length} listed), seeded ${expected} (${[...from].map(([f, n]) => `${n} ${f}`).join(', ')})`);
    if (g.cause.stage === 'AdmissionRejected') problems.push(`group ${describeCause(got)}: no pod of ReplicaSet ${refused.namespace}/${refused.name} exists to be in a triage`);
    groups.push({ cause: got, count: g.count, from: [...from].map(([f, n]) => `${n} ${f}`) });
  }
  const missing = [...truth.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0) problems.push(`${missing.length} seeded pending pods in no group, e.g. ${missing.slice(0, 3).join(', ')} (${missing.slice(0, 3).map((id) => truth.get(id)?.from).join(', ')})`);
  const causesSeeded = new Set([...truth.values()].map((v) => identityOf(v.cause))).size;
  if (t.counts.groups !== causesSeeded) problems.push(`${t.counts.groups} groups, seeded ${causesSeeded} causes`);
  if (problems.length > 0) throw new Error(`triage -A does not match the seeded incident:\n  ${problems.slice(0, 40).join('\n  ')}${problems.length > 40 ? `\n  and ${problems.length - 40} more` : ''}`);
  return groups;
}
