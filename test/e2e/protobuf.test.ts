// Pods on nodes read in protobuf (protobuf/pod.ts) must give exactly the records the JSON read
// gives once compactNeighbour has cut it. On a real apiserver: every bound pod of every scenario
// folder (as varied as the scenarios are), and one pod that holds every field the record keeps
// (owner, finalizers, a deletion in progress, negative priority, overhead from a RuntimeClass,
// pod-level resources, sidecars, host ports, each volume source a filter reads, every affinity
// form, resource claims, a status with allocated resources), are listed both ways and compared.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { compactNeighbour } from '../../src/sources/live/compact.js';
import { loadConfig } from '../../src/sources/live/config.js';
import { liveOptionsFrom } from '../../src/sources/live/flags.js';
import { neighbourPodPages } from '../../src/sources/live/protobuf/envelope.js';
import { Transport } from '../../src/sources/live/transport.js';
import type { Obj, TestCluster } from './harness/index.js';
import { VIEWER, secs, startE2eCluster } from './harness/suite.js';

const NS = 'pb';
const scenarios = path.join(import.meta.dirname, '..', 'scenarios');

/** The bound pods of every scenario folder, renamed into one namespace, as they can be created. */
function scenarioPods(): Obj[] {
  const out: Obj[] = [];
  for (const folder of readdirSync(scenarios).sort()) {
    let text: string;
    try {
      text = readFileSync(path.join(scenarios, folder, 'cluster.yaml'), 'utf8');
    } catch {
      continue;
    }
    const docs = parseAllDocuments(text).map((d) => d.toJSON() as Obj | null);
    const items = docs.flatMap((d) => (d && Array.isArray(d['items']) ? (d['items'] as Obj[]) : d ? [d] : []));
    for (const item of items) {
      if (item['kind'] !== 'Pod') continue;
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
  }
  return out;
}

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
    lines.push(`[e2e] protobuf: ${created} pods created in ${secs(Date.now() - t0)}`);
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
});
