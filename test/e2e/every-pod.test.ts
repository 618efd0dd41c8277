// Reading every pod (above the per-node limit) on a real apiserver: one paged LIST per
// namespace, a few at a time, for a reader who may list namespaces (the README's ClusterRole);
// one paged LIST of every pod for a reader who may not. Both give the same pods as the per-node
// reads, no gap, and the same diagnosis; every request is a GET.
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { Snapshot } from '../../src/snapshot/types.js';
import { loadConfig } from '../../src/sources/live/config.js';
import { readLive } from '../../src/sources/live/readPod.js';
import { liveOptionsFrom } from '../../src/sources/live/flags.js';
import type { SentRequest, Transport } from '../../src/sources/live/transport.js';
import type { Obj, TestCluster } from './harness/index.js';
import { clusterReadWithoutNamespaces } from './harness/rbac.js';
import { VIEWER, secs, startE2eCluster } from './harness/suite.js';

const NO_NAMESPACES = 'wp-no-namespaces';
const NAMESPACES = ['alpha', 'beta', 'gamma'];
const NODES = ['worker-1', 'worker-2', 'worker-3'];

function boundPod(namespace: string, name: string, node: string, cpu: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: name } },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'registry.example.com/app:v1', resources: { requests: { cpu } } }] },
  };
}

const podKeys = (s: Snapshot) => s.objects.pods.map((p: V1Pod) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`).sort();

describe('every pod read', () => {
  let c: TestCluster;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster({ users: [{ name: NO_NAMESPACES }] });
    await c.apply(clusterReadWithoutNamespaces(NO_NAMESPACES));
    for (const node of NODES) await c.createNode(node, { allocatable: { cpu: '4' } });
    await c.apply(NAMESPACES.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })));
    // Each node 3 cpu used by pods of three namespaces: a pod asking 2 fits nowhere.
    await c.apply(NAMESPACES.flatMap((ns) => NODES.map((node, i) => boundPod(ns, `p-${i}`, node, '1'))));
    await c.apply([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: 'alpha' }, spec: { containers: [{ name: 'main', image: 'registry.example.com/app:v1', resources: { requests: { cpu: '2' } } }] } }]);
    await c.waitForPodScheduled('alpha', 'big');
    lines.push(`[e2e] every-pod: cluster ready in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  async function read(user: string, perObjectReadsUpTo?: number): Promise<{ snapshot: Snapshot; sent: SentRequest[] }> {
    const config = loadConfig(liveOptionsFrom({ kubeconfig: c.kubeconfigFor(user) }), {});
    let transport: Transport | undefined;
    const snapshot = await readLive(config, { namespace: 'alpha', name: 'big' }, undefined, {
      onTransport: (t) => (transport = t),
      ...(perObjectReadsUpTo !== undefined ? { perObjectReadsUpTo } : {}),
    });
    return { snapshot, sent: transport?.sent ?? [] };
  }

  const firstPlugins = (s: Snapshot) => {
    const outcome = diagnose(ruleSet, s, { namespace: 'alpha', name: 'big' });
    if (outcome.kind !== 'diagnosis') throw new Error(`expected a diagnosis, got ${outcome.kind}`);
    return outcome.diagnosis.nodes.map((n) => [n.name, n.reasons[0]?.plugin]);
  };

  it('by namespace, a few at a time, when namespaces can be listed; else in one paged read; the same pods either way', async () => {
    // Beside the reads of bound pods, one LIST finds the pods nominated to a node (engine/nominated.ts).
    const nominatedRead = (path: string) => decodeURIComponent(path).includes('status.nominatedNodeName!=');
    const perNode = await read(VIEWER);
    expect(perNode.sent.filter((r) => r.path.startsWith('/api/v1/pods?') && !nominatedRead(r.path)).length, 'one read per node').toBe(NODES.length);
    expect(perNode.sent.filter((r) => nominatedRead(r.path)).map((r) => r.path.split('?')[0]), 'nominated pods: one cluster-wide LIST').toEqual(['/api/v1/pods']);

    const byNamespace = await read(VIEWER, 0);
    const podLists = byNamespace.sent.filter((r) => /^\/api\/v1\/(namespaces\/[^/]+\/)?pods\?/.test(r.path) && !nominatedRead(r.path)).map((r) => r.path.split('?')[0]);
    expect(byNamespace.sent.some((r) => r.path.startsWith('/api/v1/namespaces?') && r.status === 200)).toBe(true);
    for (const ns of [...NAMESPACES, 'default', 'kube-system']) expect(podLists).toContain(`/api/v1/namespaces/${ns}/pods`);
    expect(podLists).not.toContain('/api/v1/pods');

    const single = await read(NO_NAMESPACES, 0);
    expect(single.sent.find((r) => r.path.startsWith('/api/v1/namespaces?'))?.status).toBe(403);
    expect(single.sent.filter((r) => r.path.startsWith('/api/v1/pods?') && decodeURIComponent(r.path).includes('spec.nodeName!=,')).length).toBe(1);

    for (const run of [perNode, byNamespace, single]) {
      expect(run.snapshot.gaps).toEqual([]);
      expect(run.sent.every((r) => r.method === 'GET')).toBe(true);
    }
    expect(podKeys(byNamespace.snapshot)).toEqual(podKeys(perNode.snapshot));
    expect(podKeys(single.snapshot)).toEqual(podKeys(perNode.snapshot));
    expect(podKeys(perNode.snapshot)).toContain('gamma/p-2');
    expect(firstPlugins(byNamespace.snapshot)).toEqual(firstPlugins(perNode.snapshot));
    expect(firstPlugins(single.snapshot)).toEqual(NODES.map((n) => [n, 'NodeResourcesFit']));
  });

  it('starts reading every pod while the nodes still arrive when the first page of nodes already makes that the plan', async () => {
    const perNode = await read(VIEWER);
    const config = loadConfig(liveOptionsFrom({ kubeconfig: c.kubeconfigFor(VIEWER) }), {});
    const said: string[] = [];
    let transport: Transport | undefined;
    // Pages of one node: the first holds one candidate, more than the 0 read node by node.
    const early = await readLive(config, { namespace: 'alpha', name: 'big' }, (line) => said.push(line), { onTransport: (t) => (transport = t), perObjectReadsUpTo: 0, pageSize: 1 });
    expect(said).toContain('listing every non-terminal pod');
    const sent = transport?.sent ?? [];
    expect(sent.filter((r) => r.path.startsWith('/api/v1/nodes?')).length).toBe(NODES.length);
    expect(sent.filter((r) => /^\/api\/v1\/namespaces\/[^/]+\/pods\?/.test(r.path)).length).toBeGreaterThanOrEqual(NAMESPACES.length);
    expect(early.gaps).toEqual([]);
    expect(podKeys(early)).toEqual(podKeys(perNode.snapshot));
    expect(firstPlugins(early)).toEqual(firstPlugins(perNode.snapshot));
  });
});
