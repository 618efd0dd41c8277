// Cluster operations on a running test control plane: nodes, manifests, waiting for the scheduler.
import { stringify } from 'yaml';
import { ApiError, type ApiClient } from './api.js';
import { kubectl } from './kubectl.js';
import { waitFor } from './wait.js';

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface NodeSpec {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  taints?: Taint[];
  /** Merged over DEFAULT_ALLOCATABLE. */
  allocatable?: Record<string, string>;
  /** Defaults to allocatable. */
  capacity?: Record<string, string>;
  unschedulable?: boolean;
  /** Add kubernetes.io/hostname, kubernetes.io/os and kubernetes.io/arch like a kubelet (default true). */
  defaultLabels?: boolean;
  /** status.declaredFeatures, as a kubelet of 1.36+ reports the features it supports (none: an older kubelet). */
  declaredFeatures?: string[];
}

const DEFAULT_ALLOCATABLE: Record<string, string> = {
  cpu: '4',
  memory: '8Gi',
  pods: '110',
  'ephemeral-storage': '100Gi',
};

export type Obj = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; [k: string]: unknown };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
};

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface PodLike extends Obj {
  spec?: { nodeName?: string; [k: string]: unknown };
  status?: { phase?: string; conditions?: PodCondition[]; nominatedNodeName?: string; [k: string]: unknown };
}

export interface ClusterTarget {
  api: ApiClient;
  kubeconfig: string;
}

const enc = encodeURIComponent;

export async function createNode(t: ClusterTarget, name: string, spec: NodeSpec = {}): Promise<Obj> {
  const labels = {
    ...(spec.defaultLabels === false
      ? {}
      : { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' }),
    ...spec.labels,
  };
  await t.api.post('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels, ...(spec.annotations ? { annotations: spec.annotations } : {}) },
    spec: { ...(spec.taints?.length ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
  });
  const allocatable = { ...DEFAULT_ALLOCATABLE, ...spec.allocatable };
  const capacity = { ...allocatable, ...spec.capacity };
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now,
  });
  await t.api.patch(`/api/v1/nodes/${enc(name)}/status`, {
    status: {
      capacity,
      allocatable,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [{ type: 'Hostname', address: name }],
      ...(spec.declaredFeatures ? { declaredFeatures: spec.declaredFeatures } : {}),
    },
  });
  // TaintNodesByCondition admission added node.kubernetes.io/not-ready:NoSchedule at create;
  // with no node lifecycle controller nothing removes it, so put back exactly the requested taints.
  return t.api.patch<Obj>(`/api/v1/nodes/${enc(name)}`, { spec: { taints: spec.taints?.length ? spec.taints : null } });
}

const CLUSTER_SCOPED_FIRST = new Set([
  'Namespace', 'StorageClass', 'PriorityClass', 'PersistentVolume', 'CSIDriver', 'RuntimeClass',
  'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'IngressClass', 'DeviceClass',
]);

export async function waitForServiceAccount(t: ClusterTarget, ns: string, name = 'default'): Promise<void> {
  await waitFor(`ServiceAccount ${ns}/${name}`, () =>
    t.api.get(`/api/v1/namespaces/${enc(ns)}/serviceaccounts/${enc(name)}`).then(() => true),
  );
}

async function kubectlApply(t: ClusterTarget, objs: Obj[]): Promise<void> {
  if (!objs.length) return;
  const docs = objs.map((o) => stringify(o)).join('---\n');
  await kubectl(t.kubeconfig, ['apply', '--server-side', '--force-conflicts', '--field-manager=why-pending-harness', '-f', '-'], docs);
}

/**
 * Server-side applies arbitrary manifests: namespaces and other cluster-scoped
 * objects first, then (once each namespace's default ServiceAccount exists) the rest.
 * A Pod's `status` (e.g. phase: Succeeded) is written afterwards through the status subresource.
 */
export async function apply(t: ClusterTarget, objects: Obj[]): Promise<void> {
  const first = objects.filter((o) => CLUSTER_SCOPED_FIRST.has(o.kind ?? ''));
  const rest = objects.filter((o) => !CLUSTER_SCOPED_FIRST.has(o.kind ?? ''));
  await kubectlApply(t, first);
  const namespaces = new Set(rest.map((o) => o.metadata?.namespace ?? 'default'));
  const needSA = rest.some((o) => o.kind === 'Pod');
  if (needSA) for (const ns of namespaces) await waitForServiceAccount(t, ns);
  // Workloads last, once every quota counts the pods already there: a quota whose status the
  // controller has not computed from a complete pod cache would admit what it should reject.
  const workloads = rest.filter((o) => WORKLOAD_KINDS.has(o.kind ?? ''));
  const others = rest.filter((o) => !WORKLOAD_KINDS.has(o.kind ?? ''));
  await kubectlApply(t, others.map((o) => (o.kind === 'Pod' ? { ...o, status: undefined } : o)));
  for (const o of others) {
    if (o.kind !== 'Pod' || !o.status || !o.metadata?.name) continue;
    const ns = o.metadata.namespace ?? 'default';
    await t.api.patch(`/api/v1/namespaces/${enc(ns)}/pods/${enc(o.metadata.name)}/status`, { status: o.status });
  }
  const quotas = others.filter((o) => o.kind === 'ResourceQuota');
  if (workloads.length > 0) await Promise.all(quotas.map((q) => waitForQuotaUsage(t, q.metadata?.namespace ?? 'default', q.metadata?.name ?? '')));
  await kubectlApply(t, workloads);
}

const WORKLOAD_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

interface QuotaLike extends Obj {
  status?: { used?: Record<string, string> };
}

/** Until the quota controller has counted every non-terminal pod of the namespace (status.used.pods). */
async function waitForQuotaUsage(t: ClusterTarget, ns: string, name: string): Promise<void> {
  await waitFor(`ResourceQuota ${ns}/${name} status`, async () => {
    const quota = await t.api.get<QuotaLike>(`/api/v1/namespaces/${enc(ns)}/resourcequotas/${enc(name)}`);
    const used = quota.status?.used;
    if (!used) return undefined;
    if (used['pods'] === undefined) return true;
    const pods = await t.api.get<{ items: PodLike[] }>(`/api/v1/namespaces/${enc(ns)}/pods?fieldSelector=${enc('status.phase!=Succeeded,status.phase!=Failed')}`);
    return Number(used['pods']) === pods.items.length ? true : undefined;
  });
}

export function podScheduledCondition(pod: PodLike): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
}

/** Waits until PodScheduled is True, or False with reason Unschedulable or SchedulingGated. */
export async function waitForPodScheduled(
  t: ClusterTarget,
  ns: string,
  name: string,
  timeoutMs = 60_000,
): Promise<{ pod: PodLike; condition: PodCondition }> {
  return waitFor(`PodScheduled on ${ns}/${name}`, async () => {
    const pod = await t.api.get<PodLike>(`/api/v1/namespaces/${enc(ns)}/pods/${enc(name)}`);
    const c = podScheduledCondition(pod);
    if (!c) return undefined;
    // A claim another pod's scheduling cycle is still allocating (DynamicResources PreFilter) is
    // a passing state: the scheduler retries the pod itself once that allocation is stored.
    if (c.message?.includes('is in the process of being allocated')) return undefined;
    if (c.status === 'True' || (c.status === 'False' && (c.reason === 'Unschedulable' || c.reason === 'SchedulingGated'))) {
      return { pod, condition: c };
    }
    return undefined;
  }, { timeoutMs });
}

/** Waits for a core/v1 Event (either style) about an object with the given reason. */
export async function waitForEvent(t: ClusterTarget, ns: string, involvedName: string, reason: string, timeoutMs = 30_000): Promise<Obj> {
  const sel = enc(`involvedObject.name=${involvedName},reason=${reason}`);
  return waitFor(`${reason} event for ${ns}/${involvedName}`, async () => {
    const list = await t.api.get<{ items: Obj[] }>(`/api/v1/namespaces/${enc(ns)}/events?fieldSelector=${sel}`);
    return list.items[0];
  }, { timeoutMs });
}

/** Deletes a pod at once (grace 0: there is no kubelet to confirm) and waits until it is gone. */
export async function deletePodNow(t: ClusterTarget, ns: string, name: string): Promise<void> {
  const path = `/api/v1/namespaces/${enc(ns)}/pods/${enc(name)}`;
  try {
    await t.api.delete(path, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return;
    throw e;
  }
  await waitFor(`deletion of ${ns}/${name}`, async () => {
    try {
      await t.api.get(path);
      return undefined;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return true;
      throw e;
    }
  });
}
