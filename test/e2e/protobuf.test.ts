// Pods on nodes and nodes read in protobuf (protobuf/pod.ts, protobuf/node.ts) must give exactly
// the records the JSON read gives once compactNeighbour or compactNode has cut it. On a real
// apiserver: every bound pod of every scenario folder (as varied as the scenarios are), and one
// pod that holds every field the record keeps (owner, finalizers, a deletion in progress,
// negative priority, overhead from a RuntimeClass, pod-level resources, sidecars, host ports,
// each volume source a filter reads, every affinity form, resource claims, a status with
// allocated resources), are listed both ways and compared; so are every node of every scenario
// folder and one node holding every field NodeRecord keeps and many it does not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { compactNeighbour, compactNode } from '../../src/sources/live/compact.js';
import { loadConfig } from '../../src/sources/live/config.js';
import { liveOptionsFrom } from '../../src/sources/live/flags.js';
import { neighbourPodPages, nodePages } from '../../src/sources/live/protobuf/envelope.js';
import { Transport } from '../../src/sources/live/transport.js';
import type { Obj, TestCluster } from './harness/index.js';
import { VIEWER, secs, startE2eCluster } from './harness/suite.js';
import { folderNames, scenariosRoot } from '../support/scenario-folders.js';

const NS = 'pb';

/** The objects of kind `kind` in every scenario folder's cluster.yaml, with the folder's name. */
function scenarioObjects(kind: string): { folder: string; item: Obj }[] {
  const out: { folder: string; item: Obj }[] = [];
  for (const folder of folderNames(scenariosRoot)) {
    let text: string;
    try {
      text = readFileSync(path.join(scenariosRoot, folder, 'cluster.yaml'), 'utf8');
    } catch {
      continue;
    }
    const docs = parseAllDocuments(text).map((d) => d.toJSON() as Obj | null);
    const items = docs.flatMap((d) => (d && Array.isArray(d['items']) ? (d['items'] as Obj[]) : d ? [d] : []));
    for (const item of items) if (item['kind'] === kind) out.push({ folder, item });
  }
  return out;
}

/** The bound pods of every scenario folder, renamed into one namespace, as they can be created. */
function scenarioPods(): Obj[] {
  const out: Obj[] = [];
  for (const { folder, item } of scenarioObjects('Pod')) {
    const pod = item as unknown as V1Pod;
    if (!pod.spec?.nodeName) continue;
    const { name, labels, annotations, finalizers } = pod.metadata ?? {};
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${folder}-${name ?? ''}`.slice(0, 63).replace(/[^a-z0-9]+$/, ''), namespace: NS, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}), ...(finalizers ? { finalizers } : {}) },
      spec: { ...pod.spec, containers: (pod.spec.containers ?? []).map((c) => ({ image: 'registry.example.com/app:v1', ...c })), ...(pod.spec.initContainers ? { initContainers: pod.spec.initContainers.map((c) => ({ image: 'registry.example.com/app:v1', ...c })) } : {}) },
      ...(pod.status ? { status: pod.status as Obj } : {}),
    });
  }
  return out;
}

/** The nodes of every scenario folder, named after their folder so that they can all be created. */
function scenarioNodes(): Obj[] {
  return scenarioObjects('Node').map(({ folder, item }) => {
    const node = item as unknown as V1Node;
    const { name, labels, annotations } = node.metadata ?? {};
    return { ...node, metadata: { name: `${folder}.${name ?? ''}`.slice(0, 253), ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } } as unknown as Obj;
  });
}

/** One node holding every field NodeRecord keeps, in every form, and many it does not. */
const everyFieldNode: Obj = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'every-field-node', labels: { 'topology.kubernetes.io/zone': 'eu-west-1a', empty: '', 'node.kubernetes.io/instance-type': 'm5.xlarge' }, annotations: { 'node.alpha.kubernetes.io/ttl': '0' }, finalizers: ['example.com/hold'] },
  spec: {
    podCIDR: '10.0.0.0/24',
    podCIDRs: ['10.0.0.0/24'],
    providerID: 'aws:///eu-west-1a/i-0123',
    unschedulable: true,
    taints: [
      { key: 'dedicated', value: 'GPU', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-30T10:00:00Z' },
      { key: 'only-key', effect: 'PreferNoSchedule' },
    ],
  },
};

const everyFieldNodeStatus: Obj = {
  capacity: { cpu: '4', memory: '16Gi', pods: '110', 'hugepages-2Mi': '0', 'example.com/dongle': '2', 'ephemeral-storage': '100Gi' },
  allocatable: { cpu: '3920m', memory: '15092404Ki', pods: '110', 'hugepages-2Mi': '0', 'example.com/dongle': '2', 'ephemeral-storage': '96Gi' },
  conditions: [
    { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime network not ready: NetworkReady=false ☃', lastHeartbeatTime: '2026-11-30T10:00:01Z', lastTransitionTime: '2026-11-30T09:00:00Z' },
    { type: 'MemoryPressure', status: 'Unknown', lastHeartbeatTime: '2026-11-30T10:00:01Z' },
    { type: 'example.com/Custom', status: 'True' },
  ],
  addresses: [{ type: 'InternalIP', address: '10.0.0.9' }, { type: 'Hostname', address: 'every-field-node' }],
  daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
  nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1', osImage: 'Debian', containerRuntimeVersion: 'containerd://2.1', kubeletVersion: 'v1.37.2', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64' },
  images: Array.from({ length: 30 }, (_, i) => ({ names: [`registry.example.com/image-${i}@sha256:${'0'.repeat(64)}`, `registry.example.com/image-${i}:v${i}`], sizeBytes: 1_000_000 * (i + 1) })),
  volumesInUse: ['kubernetes.io/csi/ebs.csi.aws.com^vol-1'],
  volumesAttached: [{ name: 'kubernetes.io/csi/ebs.csi.aws.com^vol-1', devicePath: '' }],
};

const term = { labelSelector: { matchLabels: { app: 'db' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, topologyKey: 'kubernetes.io/hostname', namespaces: ['x'], namespaceSelector: {}, matchLabelKeys: ['pod-template-hash'] };

/** One pod holding every field the record keeps. */
const everyField: Obj = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'every-field',
    namespace: NS,
    labels: { app: 'db', empty: '' },
    finalizers: ['example.com/hold'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'will-be-replaced' }],
  },
  spec: {
    nodeName: 'worker-9',
    priorityClassName: 'pb-negative',
    runtimeClassName: 'pb-overhead',
    preemptionPolicy: 'Never',
    terminationGracePeriodSeconds: 0,
    hostNetwork: true,
    resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } },
    initContainers: [
      { name: 'proxy', image: 'proxy:1', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } }, ports: [{ containerPort: 9901, hostPort: 9901, protocol: 'UDP', hostIP: '127.0.0.1', name: 'admin' }] },
      { name: 'setup', image: 'setup:1' },
    ],
    containers: [
      { name: 'main', image: 'db:1', ports: [{ containerPort: 5432 }], resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }], resources: { requests: { cpu: '500m', 'example.com/dongle': '1' }, limits: { 'example.com/dongle': '1' } } },
    ],
    volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: 'data', readOnly: true } },
      { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
      { name: 'gce', gcePersistentDisk: { pdName: 'pd-1', fsType: 'ext4', partition: 1 } },
      { name: 'ebs', awsElasticBlockStore: { volumeID: 'aws://zone-a/vol-1', readOnly: true } },
      { name: 'iscsi', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, readOnly: true } },
      { name: 'rbd', rbd: { monitors: ['10.0.0.2:6789', '10.0.0.3:6789'], image: 'img' } },
      { name: 'azure', azureDisk: { diskName: 'd', diskURI: 'https://example.com/d' } },
      { name: 'cinder', cinder: { volumeID: 'c-1' } },
      { name: 'pwx', portworxVolume: { volumeID: 'p-ünïcode-☃' } },
      { name: 'config', configMap: { name: 'c' } },
      { name: 'tmp', emptyDir: {} },
    ],
    resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }, { name: 'shared', resourceClaimName: 'shared-claim' }],
    schedulingGroup: { podGroupName: 'pb-gang' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-9'] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } }],
      },
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: term }] },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term, { ...term, mismatchLabelKeys: ['x'], matchLabelKeys: undefined }] },
    },
  },
};

describe('pods on nodes read in protobuf', () => {
  let c: TestCluster;
  const lines: string[] = [];
  let created = 0;
  let nodesCreated = 0;

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster();
    await c.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'pb-negative' }, value: -5, preemptionPolicy: 'Never' },
      { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'pb-overhead' }, handler: 'runc', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } },
    ]);
    await c.waitForServiceAccount(NS);
    const owner = await c.api.post<Obj>(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
    const ownerUid = (owner['metadata'] as { uid: string }).uid;
    const pods = [{ ...everyField, metadata: { ...(everyField['metadata'] as Obj), ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: ownerUid, controller: true, blockOwnerDeletion: false }] } }, ...scenarioPods()];
    for (const pod of pods) {
      const { status, ...spec } = pod;
      const name = (pod['metadata'] as { name: string }).name;
      try {
        await c.api.post(`/api/v1/namespaces/${NS}/pods`, spec);
      } catch (error) {
        if (name === 'every-field') throw error;
        continue; // a hand-written scenario pod the apiserver's validation refuses
      }
      created++;
      if (status) await c.api.patch(`/api/v1/namespaces/${NS}/pods/${name}/status`, { status }).catch(() => undefined);
    }
    await c.api.patch(`/api/v1/namespaces/${NS}/pods/every-field/status`, {
      status: { phase: 'Running', startTime: '2026-11-30T10:00:00Z', containerStatuses: [{ name: 'main', image: 'db:1', imageID: '', ready: true, restartCount: 0, allocatedResources: { cpu: '500m' }, resources: { requests: { cpu: '500m' } } }] },
    });
    // A deletion in progress: the finalizer holds the pod with its deletionTimestamp set.
    await c.api.delete(`/api/v1/namespaces/${NS}/pods/every-field`);
    for (const node of [{ ...everyFieldNode, status: everyFieldNodeStatus }, ...scenarioNodes()]) {
      const { status, ...object } = node;
      try {
        await c.api.post('/api/v1/nodes', object);
      } catch (error) {
        if (node['metadata'] === everyFieldNode['metadata']) throw error;
        continue; // a hand-written scenario node the apiserver's validation refuses
      }
      nodesCreated++;
      const patched = status ? c.api.patch(`/api/v1/nodes/${encodeURIComponent((node['metadata'] as { name: string }).name)}/status`, { status }) : undefined;
      if (node['metadata'] === everyFieldNode['metadata']) await patched;
      else await patched?.catch(() => undefined);
    }
    lines.push(`[e2e] protobuf: ${created} pods and ${nodesCreated} nodes created in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it('gives the records the JSON read gives, pod by pod', async () => {
    const config = loadConfig(liveOptionsFrom({ kubeconfig: c.kubeconfigFor(VIEWER) }), {});
    const transport = new Transport(config, { pageSize: 50 });
    try {
      const request = { path: `/api/v1/namespaces/${NS}/pods`, what: 'listing pods' };
      const json = await transport.list<V1Pod>(request, { reduce: compactNeighbour });
      let pages = 0;
      const decode = neighbourPodPages();
      const protobuf = await transport.list<V1Pod>({ ...request, decodeProtobuf: (bytes) => (pages++, decode(bytes)) }, { reduce: compactNeighbour });
      expect(created).toBeGreaterThan(100);
      expect(json.length).toBe(created);
      expect(pages).toBe(Math.ceil(created / 50)); // every page came in protobuf
      const differing = json.filter((pod, i) => !isDeepStrictEqual(pod, protobuf[i])).map((pod) => pod.metadata?.name);
      expect(differing).toEqual([]);
      const every = protobuf.find((p) => p.metadata?.name === 'every-field');
      expect(every?.metadata?.deletionTimestamp).toBeDefined();
      expect(every?.spec?.priority).toBe(-5);
      expect(every?.spec?.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
      expect(every?.spec?.volumes?.map((v) => v.name)).toEqual(['data', 'scratch', 'gce', 'ebs', 'iscsi', 'rbd', 'azure', 'cinder', 'pwx']);
      expect(transport.sent.every((s) => s.method === 'GET')).toBe(true);
    } finally {
      transport.close();
    }
  });

  it('gives the node records the JSON read gives, node by node and field order included', async () => {
    const config = loadConfig(liveOptionsFrom({ kubeconfig: c.kubeconfigFor(VIEWER) }), {});
    const transport = new Transport(config, { pageSize: 20 });
    try {
      // Nothing changes nodes here between the two reads: no kubelet, no node lifecycle controller.
      const request = { path: '/api/v1/nodes', what: 'listing nodes' };
      const json = await transport.list<V1Node>(request, { reduce: compactNode, dropArrays: ['images'] });
      let pages = 0;
      const decode = nodePages();
      const protobuf = await transport.list<V1Node>({ ...request, decodeProtobuf: (bytes) => (pages++, decode(bytes)) }, { reduce: compactNode });
      expect(nodesCreated).toBeGreaterThan(100);
      expect(json.length).toBeGreaterThanOrEqual(nodesCreated);
      expect(pages).toBe(Math.ceil(json.length / 20)); // every page came in protobuf
      const differing = json.filter((node, i) => JSON.stringify(node) !== JSON.stringify(protobuf[i])).map((node) => node.metadata?.name);
      expect(differing).toEqual([]);
      const every = protobuf.find((n) => n.metadata?.name === 'every-field-node');
      expect(every?.spec?.unschedulable).toBe(true);
      // Of its managedFields, only the entry of the manager that set spec.unschedulable (who cordoned it).
      expect(every?.metadata?.managedFields).toEqual([expect.objectContaining({ manager: expect.stringMatching(/./), fieldsV1: { 'f:spec': { 'f:unschedulable': {} } } })]);
      expect(json.filter((n) => n.metadata?.managedFields).every((n) => n.spec?.unschedulable === true)).toBe(true);
      expect(every?.spec?.taints?.map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`)).toEqual(expect.arrayContaining(['dedicated=GPU:NoSchedule', 'only-key=:PreferNoSchedule']));
      expect(every?.status?.conditions?.map((cond) => cond.type)).toEqual(['Ready', 'MemoryPressure', 'example.com/Custom']);
      expect(every?.status?.allocatable?.['example.com/dongle']).toBe('2');
      expect(Object.keys(every?.status ?? {})).toEqual(['capacity', 'allocatable', 'conditions']);
      expect(transport.sent.every((s) => s.method === 'GET')).toBe(true);
    } finally {
      transport.close();
    }
  });
});
