// Seeds a test control plane for the live benchmark through the API, many requests at once:
// nodes with status (images included, as a kubelet reports them) and taints, and bound pods
// with realistic labels, requests, annotations, env and status, where layout.ts places them
// (every node the same set of pods, or a few nodes packed to 110).
import { ApiError, type ApiClient } from '../../e2e/harness/api.js';
import type { Placement } from './layout.js';

const enc = encodeURIComponent;

export const NODE_CPU_MILLIS = 16_000;
/** cpu requests of the pods on each node, one of each per node (millicores). */
const POD_CPU_MILLIS = [250, 500, 750, 1000, 1250, 1500, 250, 500, 750, 1000];
const POOLS = ['general', 'compute', 'memory', 'batch'];
const ZONES = ['zone-a', 'zone-b', 'zone-c', 'zone-d'];
export const TEAM_NAMESPACES = Array.from({ length: 20 }, (_, i) => `team-${String(i).padStart(2, '0')}`);
/** One pod per node carries this label: case (e)'s anti-affinity matches a pod on every node. */
export const EVERY_NODE_LABEL = { key: 'bench/on-every-node', value: 'yes' };
/** Nodes with this label are the candidates of case (b). */
export const CANDIDATE_LABEL = 'bench/candidate';

export function nodeName(i: number): string {
  return `node-${String(i).padStart(5, '0')}`;
}

export function tainted(i: number): boolean {
  return i % 10 === 9;
}

/** Every `stride`-th node carries CANDIDATE_LABEL (stride = nodes / 100: 100 candidates). */
export function candidateStride(nodes: number): number {
  return Math.max(1, Math.floor(nodes / 100));
}

/** The cpu of the pod in `slot` on a node of the even spread (millicores). */
export function podCpuMillis(slot: number): number {
  return POD_CPU_MILLIS[slot % POD_CPU_MILLIS.length] ?? 100;
}

/** Nodes of this pool are cordoned (an incident's drained pool; see incident.ts). */
export const CORDONED_POOL = 'edge';

/** Runs `task(i)` for i in [0, count) with at most `width` at once; reports every 10%. */
export async function pool(count: number, width: number, task: (i: number) => Promise<void>, say?: (done: number) => void): Promise<void> {
  let next = 0;
  let done = 0;
  const step = Math.max(1, Math.floor(count / 10));
  const worker = async () => {
    while (next < count) {
      const i = next++;
      for (let attempt = 1; ; attempt++) {
        try {
          await task(i);
          break;
        } catch (error) {
          if (attempt >= 5 || /HTTP 409/.test(String(error))) {
            if (/HTTP 409/.test(String(error))) break; // created by an earlier run
            throw error;
          }
          await new Promise((r) => setTimeout(r, 200 * attempt));
        }
      }
      if (++done % step === 0) say?.(done);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

function images(i: number): { names: string[]; sizeBytes: number }[] {
  return Array.from({ length: 24 }, (_, k) => ({
    names: [
      `registry.example.com/platform/service-${k}@sha256:${(i * 31 + k).toString(16).padStart(64, '0')}`,
      `registry.example.com/platform/service-${k}:v1.${k}.${i % 7}`,
    ],
    sizeBytes: 10_000_000 + k * 1_000_003,
  }));
}

/** `cordoned`: in pool CORDONED_POOL and spec.unschedulable, as `kubectl cordon` leaves it. */
export async function seedNode(api: ApiClient, i: number, nodes: number, cordoned = false): Promise<void> {
  const name = nodeName(i);
  const labels: Record<string, string> = {
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'topology.kubernetes.io/zone': ZONES[i % ZONES.length] ?? '',
    'topology.kubernetes.io/region': 'region-1',
    'node.kubernetes.io/instance-type': 'm7.4xlarge',
    pool: cordoned ? CORDONED_POOL : (POOLS[Math.floor(i / 7) % POOLS.length] ?? ''),
  };
  if (i % candidateStride(nodes) === 0) labels[CANDIDATE_LABEL] = 'yes';
  await api.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name, labels, annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } } });
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now });
  const resources = { cpu: `${NODE_CPU_MILLIS}m`, memory: '64Gi', pods: '110', 'ephemeral-storage': '200Gi' };
  await api.patch(`/api/v1/nodes/${enc(name)}/status`, {
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [{ type: 'InternalIP', address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }, { type: 'Hostname', address: name }],
      images: images(i),
      nodeInfo: { kubeletVersion: 'v1.37.2', containerRuntimeVersion: 'containerd://2.1.0', kernelVersion: '6.8.0', osImage: 'Ubuntu 24.04', operatingSystem: 'linux', architecture: 'amd64', machineID: '', systemUUID: '', bootID: '', kubeProxyVersion: '' },
    },
  });
  // TaintNodesByCondition added node.kubernetes.io/not-ready at create; nothing removes it here.
  await api.patch(`/api/v1/nodes/${enc(name)}`, { spec: { taints: tainted(i) ? [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] : null, ...(cordoned ? { unschedulable: true } : {}) } });
}

/**
 * Creates a pod already bound to its node and writes its status as a kubelet would. The status
 * is a PUT of the object the create returned: the apiserver decodes one body, where a merge
 * patch has it encode the stored pod, merge and decode it again (BENCHMARKS.md, "Seeding").
 * A pod an interrupted attempt created is read back and given its status all the same: a bound
 * pod left Pending would be one more pending pod for a triage.
 */
export async function createBoundPod(api: ApiClient, manifest: { metadata: { name: string; namespace: string } }, status: Record<string, unknown>): Promise<void> {
  const pods = `/api/v1/namespaces/${enc(manifest.metadata.namespace)}/pods`;
  const path = `${pods}/${enc(manifest.metadata.name)}`;
  const conflict = (error: unknown) => error instanceof ApiError && error.status === 409;
  let current = await api.post<Record<string, unknown>>(pods, manifest).catch(async (error: unknown) => {
    if (conflict(error)) return api.get<Record<string, unknown>>(path);
    throw error;
  });
  for (let attempt = 1; ; attempt++) {
    try {
      await api.put(`${path}/status`, { ...current, status: { ...(current['status'] as object), ...status } });
      return;
    } catch (error) {
      if (!conflict(error) || attempt >= 3) throw error;
      current = await api.get<Record<string, unknown>>(path);
    }
  }
}

/** Where bound pod `j` is and what it is called. */
export function seededPod(j: number): { namespace: string; name: string; app: string } {
  const app = `svc-${j % 97}`;
  return { namespace: TEAM_NAMESPACES[j % TEAM_NAMESPACES.length] ?? 'default', name: `${app}-${j.toString(36).padStart(6, '0')}`, app };
}

/** Bound pod `j` on the node and with the cpu `place` gives (layout.ts). */
export async function seedPod(api: ApiClient, j: number, place: Placement): Promise<void> {
  const { node, slot } = place;
  const { namespace: ns, name, app } = seededPod(j);
  const cpu = place.cpuMillis;
  const labels: Record<string, string> = { app, 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': `product-${j % 13}`, tier: ['web', 'api', 'worker'][j % 3] ?? 'web', 'pod-template-hash': (j % 1000).toString(16).padStart(10, 'a') };
  if (slot === 0) labels[EVERY_NODE_LABEL.key] = EVERY_NODE_LABEL.value;
  const env = Array.from({ length: 8 }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${k}-${app}` }));
  const container = (cname: string, millis: number) => ({
    name: cname,
    image: `registry.example.com/${app}/${cname}:v1.${j % 9}`,
    env,
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    resources: { requests: { cpu: `${millis}m`, memory: `${place.memoryMi ?? 256 + (j % 4) * 128}Mi` }, limits: { memory: '1Gi' } },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 10 },
    volumeMounts: [{ name: 'config', mountPath: '/etc/config' }],
  });
  const manifest = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      labels,
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8080', 'kubectl.kubernetes.io/restartedAt': '2026-11-30T10:00:00Z', 'example.com/owner': `team-${j % 20}@example.com` },
    },
    spec: {
      nodeName: nodeName(node),
      containers: [container('main', cpu - 50), container('sidecar', 50)],
      volumes: [{ name: 'config', configMap: { name: `${app}-config` } }],
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
  };
  // As `kubectl apply` leaves it: the whole manifest again in an annotation, often the largest part of a pod.
  const applied = { ...manifest, metadata: { ...manifest.metadata, annotations: { ...manifest.metadata.annotations, 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest) } } };
  // And as a kubelet reports a running pod (its own managedFields entry included).
  const at = '2026-11-30T10:00:00Z';
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at });
  const ip = `10.${(node >> 8) & 255}.${node & 255}.${(slot % 250) + 2}`;
  const status = (cname: string) => ({
    name: cname,
    image: `registry.example.com/${app}/${cname}:v1.${j % 9}`,
    imageID: `registry.example.com/${app}/${cname}@sha256:${(j * 7919).toString(16).padStart(64, '0')}`,
    containerID: `containerd://${(j * 104729 + cname.length).toString(16).padStart(64, '0')}`,
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: at } },
  });
  await createBoundPod(api, applied, {
    phase: 'Running',
    conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
    hostIP: `10.0.${(node >> 8) & 255}.${node & 255}`,
    podIP: ip,
    podIPs: [{ ip }],
    startTime: at,
    containerStatuses: [status('main'), status('sidecar')],
    qosClass: 'Burstable',
  });
}

export async function ensureNamespace(api: ApiClient, ns: string): Promise<void> {
  try {
    await api.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  } catch (error) {
    if (!/HTTP 409/.test(String(error))) throw error;
  }
}
