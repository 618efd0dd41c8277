// Pods and nodes as an apiserver serves them, for the libraries side by side: the live
// benchmark's seed (../live/seed.ts, built in memory) with what the apiserver adds to what it
// was sent: uid, resourceVersion, creation time, the defaults of every field, the service
// account's projected volume, and managedFields (kubectl apply's entry and the kubelet's), so
// that a pod weighs what bench:live's pods weigh as its control plane serves them.
import { memoryApi } from '../live/memory-api.js';
import { seedNode, seedPod } from '../live/seed.js';
import { layout } from '../live/layout.js';

type Json = Record<string, unknown>;

const created = '2026-11-30T09:59:00Z';

/** managedFields' FieldsV1 for an object: `f:` per key, `k:{"name":..}` per named list member. */
function fieldsOf(value: unknown): Json {
  if (Array.isArray(value)) {
    const out: Json = {};
    for (const member of value) {
      const name = (member as Json | null)?.['name'];
      if (typeof name === 'string') out[`k:{"name":"${name}"}`] = { '.': {}, ...fieldsOf(member) };
      else if (member && typeof member === 'object') out[`k:${JSON.stringify(member).slice(0, 60)}`] = { '.': {}, ...fieldsOf(member) };
      else out[`v:${JSON.stringify(member)}`] = {};
    }
    return out;
  }
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [`f:${k}`, v && typeof v === 'object' ? { '.': {}, ...fieldsOf(v) } : {}]));
}

function entry(manager: string, fields: Json, subresource?: string): Json {
  return { apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: fields, manager, operation: 'Update', ...(subresource ? { subresource } : {}), time: created };
}

function uid(kind: number, i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `${kind.toString(16).padStart(8, '0')}-7b1d-4c55-9d0e-${hex}`;
}

/** The seeded pod as served: the apiserver's defaults and bookkeeping added. */
function servedPod(seeded: Json, j: number): Json {
  const metadata = seeded['metadata'] as Json;
  const spec = seeded['spec'] as Json & { containers: Json[]; volumes: Json[]; tolerations: Json[] };
  const token = `kube-api-access-${(j % 100_000).toString(36).padStart(5, '0')}`;
  const applied = { metadata: { annotations: metadata['annotations'], labels: metadata['labels'] }, spec: { containers: spec.containers, volumes: spec.volumes, tolerations: spec.tolerations, nodeName: spec['nodeName'] } };
  const status = seeded['status'] as Json;
  const containers = spec.containers.map((c) => ({
    ...c,
    imagePullPolicy: 'IfNotPresent',
    ports: (c['ports'] as Json[]).map((p) => ({ ...p, protocol: 'TCP' })),
    readinessProbe: { ...(c['readinessProbe'] as Json), httpGet: { ...((c['readinessProbe'] as Json)['httpGet'] as Json), scheme: 'HTTP' }, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [...(c['volumeMounts'] as Json[]), { name: token, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
  }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...metadata,
      uid: uid(1, j),
      resourceVersion: String(100_000 + j),
      creationTimestamp: created,
      managedFields: [entry('kubectl-client-side-apply', fieldsOf(applied)), entry('kubelet', fieldsOf({ status }), 'status')],
    },
    spec: {
      ...spec,
      containers,
      volumes: [
        ...spec.volumes.map((v) => ({ ...v, configMap: { ...(v['configMap'] as Json), defaultMode: 420 } })),
        {
          name: token,
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
            ],
          },
        },
      ],
      tolerations: [...spec.tolerations, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      securityContext: {},
      schedulerName: 'default-scheduler',
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: { ...status, hostIPs: [{ ip: status['hostIP'] }] },
  };
}

/** The seeded node as served. */
function servedNode(seeded: Json, i: number): Json {
  const metadata = seeded['metadata'] as Json;
  const status = seeded['status'] as Json;
  const spec = (seeded['spec'] as Json | undefined) ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      ...metadata,
      uid: uid(2, i),
      resourceVersion: String(10_000 + i),
      creationTimestamp: created,
      managedFields: [entry('kubelet', fieldsOf({ metadata: { labels: metadata['labels'], annotations: metadata['annotations'] } })), entry('kubelet', fieldsOf({ status: { ...status, images: {} } }), 'status')],
    },
    spec: { ...spec, podCIDR: `10.244.${i & 255}.0/24`, podCIDRs: [`10.244.${i & 255}.0/24`] },
    status: { ...status, daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } },
  };
}

/** `count` pods of a cluster of `nodes` nodes, as served, one after another. */
export async function* servedPods(count: number, nodes: number): AsyncGenerator<Json> {
  const placed = layout(nodes, count, 'even');
  for (let j = 0; j < count; j++) {
    const store = new Map<string, Json>();
    await seedPod(memoryApi(store), j, placed.place(j));
    const [seeded] = store.values();
    if (seeded) yield servedPod(seeded, j);
  }
}

/** `count` nodes, as served. */
export async function* servedNodes(count: number): AsyncGenerator<Json> {
  for (let i = 0; i < count; i++) {
    const store = new Map<string, Json>();
    await seedNode(memoryApi(store), i, count);
    const [seeded] = store.values();
    if (seeded) yield servedNode(seeded, i);
  }
}
