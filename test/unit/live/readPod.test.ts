// readLive against a fake cluster: which requests each kind of case costs, what lands in the
// snapshot, and that the engine diagnoses it.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/engine/diagnose.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { ClusterError } from '../../../src/errors.js';
import { present } from '../../../src/report/present.js';
import { readLive } from '../../../src/sources/live/readPod.js';
import { readTriageLive } from '../../../src/sources/live/readTriage.js';
import { expectValidDiagnosis } from '../../support/schema.js';
import { node, pod } from '../../support/builders.js';
import { configFor, type FakeApiServer } from './fake-apiserver.js';
import { fakeClusters, type Objects } from './fake-cluster.js';

const cluster = fakeClusters();

const ns = 'shop';
const NOMINATED = '/api/v1/pods?fieldSelector=spec.nodeName=,status.nominatedNodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500';
const deployment = { metadata: { name: 'web', namespace: ns, uid: 'uid-deploy' }, spec: { selector: { matchLabels: { app: 'web' } } } };
const replicaSet = {
  metadata: { name: 'web-7d9', namespace: ns, uid: 'uid-rs', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-deploy', controller: true }] },
  spec: { selector: { matchLabels: { app: 'web' } } },
};
const schedulerMessage = '0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';

function pendingPod(name = 'web-0'): V1Pod {
  return pod(name, ns)
    .labels({ app: 'web' })
    .req({ cpu: '2' })
    .tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' })
    .with((p) => {
      p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: 'uid-rs', controller: true }];
      p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: schedulerMessage }] };
    })
    .obj();
}

function event(name: string, involved: { kind: string; name: string; uid?: string }, reason: string, message: string, reporter = 'default-scheduler') {
  return {
    metadata: { name, namespace: ns, uid: `uid-event-${name}` },
    involvedObject: { ...involved, namespace: ns },
    reason,
    message,
    type: 'Warning',
    reportingComponent: reporter,
    eventTime: '2025-01-01T00:00:00.000000Z',
    firstTimestamp: null,
    lastTimestamp: null,
  };
}

const gpuNode = (name: string) => node(name).taint('dedicated', 'gpu', 'NoSchedule').obj();

/** Every node fails on node objects alone: two taints, one too small. */
function taintedCase(): Objects {
  const target = pendingPod();
  return {
    pods: [target, pod('other', ns).on('n3').obj()],
    nodes: [gpuNode('n1'), gpuNode('n2'), node('n3').allocatable({ cpu: '1' }).obj()],
    events: [
      event('e1', { kind: 'Pod', name: 'web-0', uid: target.metadata!.uid! }, 'FailedScheduling', schedulerMessage),
      event('e2', { kind: 'Pod', name: 'web-0', uid: 'uid-of-an-older-web-0' }, 'FailedScheduling', 'old'),
      event('e3', { kind: 'ReplicaSet', name: 'web-7d9' }, 'SuccessfulCreate', 'Created pod: web-0', 'replicaset-controller'),
    ],
    replicasets: [replicaSet],
    deployments: [deployment],
    limitranges: [],
    resourcequotas: [],
    priorityclasses: [{ metadata: { name: 'high' }, value: 1000 }],
  };
}

const paths = (server: FakeApiServer) => server.requests.map((r) => `${r.path}${r.query.size > 0 ? `?${decodeURIComponent(r.query.toString())}` : ''}`);

describe('a pod every node rejects on node objects alone', () => {
  it('costs eleven GETs and no pod list', async () => {
    const server = await cluster(taintedCase());
    const lines: string[] = [];
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' }, (line) => lines.push(line));
    expect(paths(server).sort()).toEqual(
      [
        '/api/v1/namespaces/shop/pods/web-0',
        '/api/v1/namespaces/shop/events?fieldSelector=involvedObject.uid=uid-shop-web-0&limit=500',
        '/apis/apps/v1/namespaces/shop/replicasets/web-7d9',
        '/api/v1/namespaces/shop/events?fieldSelector=involvedObject.kind=ReplicaSet,involvedObject.name=web-7d9&limit=500',
        '/apis/apps/v1/namespaces/shop/deployments/web',
        '/api/v1/namespaces/shop/events?fieldSelector=involvedObject.kind=Deployment,involvedObject.name=web&limit=500',
        '/api/v1/nodes?limit=500',
        '/api/v1/namespaces/shop/limitranges?limit=500',
        '/api/v1/namespaces/shop/resourcequotas?limit=500',
        '/apis/scheduling.k8s.io/v1/priorityclasses?limit=500',
        '/version',
      ].sort(),
    );
    expect(paths(server)[0]).toBe('/api/v1/namespaces/shop/pods/web-0');
    expect(server.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(snapshot.source).toEqual({ kind: 'live', description: `server ${server.url}` });
    expect(snapshot.gaps).toEqual([]);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name)).toEqual(['web-0']);
    expect(snapshot.objects.nodes).toHaveLength(3);
    expect(snapshot.objects.replicaSets).toHaveLength(1);
    expect(snapshot.objects.deployments).toHaveLength(1);
    expect(snapshot.objects.priorityClasses).toHaveLength(1);
    expect(lines).toContain('every node fails on node objects alone: no pod list needed');
    expect(lines.at(-1)).toBe('read 11 requests');
  });

  it('normalizes events the way dumps are read', async () => {
    const server = await cluster(taintedCase());
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(snapshot.objects.events).toContainEqual({
      type: 'Warning',
      reason: 'FailedScheduling',
      message: schedulerMessage,
      involved: { kind: 'Pod', namespace: ns, name: 'web-0', uid: 'uid-shop-web-0' },
      time: Date.parse('2025-01-01T00:00:00Z'),
      count: 1,
      reporter: 'default-scheduler',
    });
    expect(snapshot.objects.events.map((e) => e.message)).not.toContain('old');
  });

  it('is diagnosed by the engine', async () => {
    const server = await cluster(taintedCase());
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error(`expected a diagnosis, got ${outcome.kind}`);
    expect(outcome.diagnosis.stage).toBe('Unschedulable');
    expect(outcome.diagnosis.pod.owners.map((o) => o.kind)).toEqual(['ReplicaSet', 'Deployment']);
    expect(outcome.diagnosis.nodes.map((n) => [n.name, n.reasons[0]?.plugin])).toEqual([
      ['n1', 'TaintToleration'],
      ['n2', 'TaintToleration'],
      ['n3', 'NodeResourcesFit'],
    ]);
  });
});

describe("the cluster's version", () => {
  const version = { major: '1', minor: '34', gitVersion: 'v1.34.4', platform: 'linux/amd64' };

  it('is one GET of /version, kept as served, and the diagnosis replays that release', async () => {
    const server = await cluster({ ...taintedCase(), version: [version] });
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).filter((p) => p === '/version')).toEqual(['/version']);
    expect(snapshot.cluster).toEqual({ version: 'v1.34.4' });
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error(`expected a diagnosis, got ${outcome.kind}`);
    expect(outcome.diagnosis.cluster).toEqual({ version: 'v1.34.4', rulesOf: '1.34', assumed: false });
    expectValidDiagnosis(JSON.parse(JSON.stringify(present(outcome.diagnosis))), 'live diagnosis');
  });

  it('refused (403) or not served (404): unknown, no gap, and reading goes on', async () => {
    for (const server of [await cluster(taintedCase(), ['/version']), await cluster(taintedCase())]) {
      const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
      expect(snapshot.cluster).toEqual({});
      expect(snapshot.gaps).toEqual([]);
      expect(snapshot.objects.nodes).toHaveLength(3);
      const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
      if (outcome.kind !== 'diagnosis') throw new Error(`expected a diagnosis, got ${outcome.kind}`);
      expect(outcome.diagnosis.cluster).toEqual({ rulesOf: '1.37', assumed: true });
    }
  });

  it('a triage words a failed read as a single pod\'s read does (one gap policy, guard.ts)', async () => {
    const server = await cluster(taintedCase(), [], ['/apis/storage.k8s.io/v1/storageclasses']);
    const snapshot = await readTriageLive(configFor(server.url), { namespace: ns }, () => undefined);
    expect(snapshot.gaps).toContainEqual({ collection: 'storageClasses', cause: 'error', detail: 'listing storageclasses.storage.k8s.io in the cluster: the API server does not serve storageclasses.storage.k8s.io' });
  });

  it('a triage reads it once', async () => {
    const server = await cluster({ ...taintedCase(), version: [version] });
    const snapshot = await readTriageLive(configFor(server.url), { namespace: ns }, () => undefined);
    expect(paths(server).filter((p) => p === '/version')).toHaveLength(1);
    expect(snapshot.cluster).toEqual({ version: 'v1.34.4' });
  });
});

describe('pods that can change a verdict', () => {
  function roomyCase(): Objects {
    const objects = taintedCase();
    objects.nodes = [gpuNode('n1'), node('n2').obj(), node('n3').obj()];
    objects.pods = [pendingPod(), pod('a', ns).req({ cpu: '3' }).on('n2').obj(), pod('b', 'other').req({ cpu: '3' }).on('n3').obj(), pod('done', ns).req({ cpu: '3' }).on('n3').phase('Succeeded').obj()];
    return objects;
  }

  it('reads the non-terminal pods of each candidate node', async () => {
    const server = await cluster(roomyCase());
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    const podReads = paths(server).filter((p) => p.startsWith('/api/v1/pods'));
    expect(podReads.sort()).toEqual([
      NOMINATED,
      '/api/v1/pods?fieldSelector=spec.nodeName=n2,status.phase!=Succeeded,status.phase!=Failed&limit=500',
      '/api/v1/pods?fieldSelector=spec.nodeName=n3,status.phase!=Succeeded,status.phase!=Failed&limit=500',
    ]);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'web-0']);
    // n1's pods were never read: a fix replayed there cannot be confirmed.
    expect(snapshot.podsReadOn).toEqual(['n2', 'n3']);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.nodes.map((n) => [n.name, n.reasons[0]?.plugin])).toEqual([
      ['n1', 'TaintToleration'],
      ['n2', 'NodeResourcesFit'],
      ['n3', 'NodeResourcesFit'],
    ]);
    expect(outcome.diagnosis.fixes.flatMap((f) => f.makesFit)).not.toContain('n1');
  });

  it('reads the pods nominated to a node, of priority at least the pod\'s, and the replay counts them there', async () => {
    const objects = roomyCase();
    const nominated = (name: string, priority: number) => {
      const p = pod(name, 'prod').req({ cpu: '3' }).obj();
      p.spec!.priority = priority;
      p.status = { phase: 'Pending', nominatedNodeName: 'n4' };
      return p;
    };
    // n4 runs nothing: only the room held for checkout keeps web-0 (2 cpu) off it.
    objects.nodes = [...(objects.nodes ?? []), node('n4').obj()];
    objects.pods = [...(objects.pods ?? []), nominated('checkout', 1000), nominated('batch', -5)];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain(NOMINATED);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'checkout', 'web-0']);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.nodes.find((n) => n.name === 'n4')?.nominated).toEqual({ pods: [{ namespace: 'prod', name: 'checkout', priority: 1000, waitingOn: [] }], decides: true });
  });

  it('above the per-node limit, lists every non-terminal pod once and keeps the candidates', async () => {
    const server = await cluster(roomyCase());
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' }, undefined, { perObjectReadsUpTo: 1 });
    expect(paths(server).filter((p) => p.startsWith('/api/v1/pods')).sort()).toEqual(['/api/v1/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500', NOMINATED]);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'web-0']);
  });

  it('above the per-node limit, most nodes candidates: keeps the pods of the others too, so a fix there needs no second read', async () => {
    const objects = roomyCase();
    objects.pods = [...(objects.pods ?? []), pod('on-gpu', 'other').req({ cpu: '1' }).on('n1').obj()];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' }, undefined, { perObjectReadsUpTo: 1 });
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'on-gpu', 'web-0']);
    // Every node's pods are known: nothing left for a follow-up read.
    expect(snapshot.podsReadOn).toBeUndefined();
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.podsToConfirmFixes).toEqual([]);
  });

  it('above the per-node limit, with namespaces to list, reads each namespace\'s pods, a few at a time', async () => {
    const objects = roomyCase();
    objects['namespaces'] = [{ metadata: { name: 'other' } }, { metadata: { name: ns } }, { metadata: { name: 'empty' } }];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' }, undefined, { perObjectReadsUpTo: 1 });
    const podLists = paths(server).filter((p) => /^\/api\/v1\/(namespaces\/[^/]+\/)?pods\?/.test(p) && !p.includes('spec.nodeName='));
    expect(podLists.sort()).toEqual([
      '/api/v1/namespaces/empty/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500',
      '/api/v1/namespaces/other/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500',
      '/api/v1/namespaces/shop/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500',
    ]);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'web-0']);
    expect(snapshot.gaps).toEqual([]);
  });

  it('a triage reads the bound pods as a single pod reads every pod: by namespace, the pending pods whole', async () => {
    const objects = roomyCase();
    objects['namespaces'] = [{ metadata: { name: 'other' } }, { metadata: { name: ns } }];
    const server = await cluster(objects);
    const snapshot = await readTriageLive(configFor(server.url), { namespace: ns }, () => undefined);
    const bound = paths(server).filter((p) => /^\/api\/v1\/(namespaces\/[^/]+\/)?pods\?fieldSelector=spec.nodeName!=/.test(p));
    expect(bound.sort()).toEqual([
      '/api/v1/namespaces/other/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500',
      '/api/v1/namespaces/shop/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500',
    ]);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'web-0']);
    // The pending pod is the one the pending pods' read brought, whole.
    expect(snapshot.objects.pods.find((p) => p.metadata?.name === 'web-0')?.spec?.containers?.[0]?.image).toBeDefined();
    expect(snapshot.gaps).toEqual([]);
  });

  it('namespaces that cannot be listed: one paged read of every pod, and nothing missing', async () => {
    const server = await cluster(roomyCase(), ['/api/v1/namespaces']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' }, undefined, { perObjectReadsUpTo: 1 });
    expect(paths(server).filter((p) => p.startsWith('/api/v1/pods')).sort()).toEqual(['/api/v1/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500', NOMINATED]);
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'web-0']);
    expect(snapshot.gaps).toEqual([]);
  });

  it('a namespace whose pods cannot be read: one paged read of every pod instead, with its own answer', async () => {
    const objects = roomyCase();
    objects['namespaces'] = [{ metadata: { name: 'other' } }, { metadata: { name: ns } }];
    const server = await cluster(objects, ['/api/v1/namespaces/other/pods']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' }, undefined, { perObjectReadsUpTo: 1 });
    expect(paths(server)).toContain('/api/v1/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500');
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['a', 'b', 'web-0']);
    expect(snapshot.gaps).toEqual([]);
  });

  it('reads the pods a spread constraint counts, wherever they run', async () => {
    const objects = roomyCase();
    const target = pendingPod();
    target.spec!.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }];
    objects.pods = [target, pod('web-1', ns).labels({ app: 'web' }).on('n1').obj(), ...(objects.pods ?? []).slice(1)];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain('/api/v1/namespaces/shop/pods?labelSelector=app=web&fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500');
    expect(snapshot.objects.pods.map((p) => p.metadata?.name)).toContain('web-1');
  });
});

describe('partial permissions', () => {
  it('a 403 on nodes becomes a gap naming the permission, and reading goes on', async () => {
    const server = await cluster(taintedCase(), ['/api/v1/nodes']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(snapshot.gaps).toEqual([{ collection: 'nodes', cause: 'forbidden', permission: { verb: 'list', resource: 'nodes', scope: 'cluster' } }]);
    expect(snapshot.objects.events.length).toBeGreaterThan(0);
    expect(paths(server).some((p) => p.startsWith('/api/v1/pods'))).toBe(false);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.stage).toBe('Unschedulable');
    expect(outcome.diagnosis.gaps).toEqual(snapshot.gaps);
    // A forbidden gap and client-node's Dates keep the published JSON contract.
    expectValidDiagnosis(JSON.parse(JSON.stringify(present(outcome.diagnosis))));
  });

  it('pods forbidden at cluster scope: one per-node read finds it out, the others are never sent', async () => {
    const objects = taintedCase();
    objects.nodes = [node('n1').obj(), node('n2').obj(), node('n3').obj(), node('n4').obj()];
    const server = await cluster(objects, ['/api/v1/pods']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).filter((p) => p.startsWith('/api/v1/pods'))).toHaveLength(1);
    expect(snapshot.gaps).toContainEqual({ collection: 'pods', cause: 'forbidden', permission: { verb: 'list', resource: 'pods', scope: 'cluster' } });
  });

  it('namespace-only access: each forbidden collection is named with its scope', async () => {
    const objects = taintedCase();
    objects.nodes = [node('n2').obj()];
    const server = await cluster(objects, ['/api/v1/pods', '/apis/scheduling.k8s.io/*', '/api/v1/namespaces/shop/resourcequotas']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(snapshot.gaps).toEqual(
      expect.arrayContaining([
        { collection: 'pods', cause: 'forbidden', permission: { verb: 'list', resource: 'pods', scope: 'cluster' } },
        { collection: 'priorityClasses', cause: 'forbidden', permission: { verb: 'list', resource: 'priorityclasses.scheduling.k8s.io', scope: 'cluster' } },
        { collection: 'resourceQuotas', cause: 'forbidden', permission: { verb: 'list', resource: 'resourcequotas', scope: 'namespace shop' } },
      ]),
    );
    expect(snapshot.gaps).toHaveLength(3);
  });

  it('a 403 on the pod itself ends the run, naming the permission', async () => {
    const server = await cluster(taintedCase(), ['/api/v1/namespaces/shop/pods/web-0']);
    const run = readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    await expect(run).rejects.toThrow(ClusterError);
    await expect(run).rejects.toThrow(/^reading pod shop\/web-0: forbidden \(.*\): why-pending needs "get pods" in namespace shop; ask for it/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a pod that is not there', () => {
  it('returns a snapshot without it, with pod names and FailedCreate events', async () => {
    const objects = taintedCase();
    objects.pods = [pendingPod('web-1')];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).sort()).toEqual(
      [
        '/api/v1/namespaces/shop/pods/web-0',
        '/api/v1/namespaces/shop/events?fieldSelector=reason=FailedCreate&limit=500',
        '/api/v1/namespaces/shop/pods?limit=500',
      ].sort(),
    );
    expect(server.requests.find((r) => r.path === '/api/v1/namespaces/shop/pods')?.headers['accept']).toContain('as=PartialObjectMetadataList');
    expect(snapshot.objects.pods).toEqual([{ metadata: { name: 'web-1', namespace: ns, uid: 'uid-shop-web-1' } }]);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    expect(outcome).toMatchObject({ kind: 'notFound', suggestions: ['web-1'] });
  });

  it('a FailedCreate event that names it gives the admission stage', async () => {
    const objects = taintedCase();
    objects.pods = [];
    objects.events = [event('q', { kind: 'StatefulSet', name: 'db', uid: 'uid-sts' }, 'FailedCreate', 'create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: exceeded quota: q', 'statefulset-controller')];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'db-0' });
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'db-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.stage).toBe('AdmissionRejected');
  });
});

describe('owners named as kind/name', () => {
  it('deploy/web reads the deployment, its replica sets and pods, then the pending pod as usual', async () => {
    const objects = taintedCase();
    objects.pods = [pod('web-old', ns).labels({ app: 'web' }).on('n3').with((p) => (p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: 'uid-rs', controller: true }])).obj(), pendingPod()];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'deploy/web' });
    const sent = paths(server);
    expect(sent[0]).toBe('/apis/apps/v1/namespaces/shop/deployments/web');
    expect(sent).toContain('/apis/apps/v1/namespaces/shop/replicasets?labelSelector=app=web&limit=500');
    expect(sent).toContain('/api/v1/namespaces/shop/pods?labelSelector=app=web&limit=500');
    expect(sent.filter((p) => p.includes('/replicasets/web-7d9'))).toEqual([]); // known already
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'deploy/web' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.pod.name).toBe('web-0');
    expect(outcome.diagnosis.stage).toBe('Unschedulable');
  });

  it('an owner without pods reads the FailedCreate events of what is below it', async () => {
    const objects = taintedCase();
    objects.pods = [];
    objects.events = [event('f', { kind: 'ReplicaSet', name: 'web-7d9', uid: 'uid-rs' }, 'FailedCreate', 'Error creating: pods "web-7d9-x" is forbidden: exceeded quota: q', 'replicaset-controller')];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'deploy/web' });
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'deploy/web' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.stage).toBe('AdmissionRejected');
  });
});

describe('volumes and bound pods', () => {
  it('reads the claims, their volumes, storage classes and CSI nodes of a pod with claims', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }];
    objects.pods = [target];
    objects.persistentvolumeclaims = [{ metadata: { name: 'data-web-0', namespace: ns, annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }, spec: { volumeName: 'pv-1', storageClassName: 'fast' } }];
    objects.persistentvolumes = [{ metadata: { name: 'pv-1' }, spec: { storageClassName: 'fast' } }, { metadata: { name: 'pv-2' } }];
    objects.storageclasses = [{ metadata: { name: 'fast' }, provisioner: 'x' }];
    objects.csinodes = [];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    const sent = paths(server);
    expect(sent).toContain('/api/v1/namespaces/shop/persistentvolumeclaims/data-web-0');
    expect(sent).toContain('/api/v1/persistentvolumes/pv-1');
    expect(sent).toContain('/apis/storage.k8s.io/v1/storageclasses?limit=500');
    expect(sent).toContain('/apis/storage.k8s.io/v1/csinodes?limit=500');
    expect(snapshot.objects.persistentVolumes.map((v) => v.metadata?.name)).toEqual(['pv-1']);
  });

  it('a pod with ResourceClaims reads every claim, the device classes and the resource slices', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.spec!.resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu-claim' }];
    objects.pods = [target];
    objects.resourceclaims = [{ metadata: { name: 'gpu-claim', namespace: ns }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } } }];
    objects.deviceclasses = [{ metadata: { name: 'gpu' }, spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] } }];
    objects.resourceslices = [{ metadata: { name: 's' }, spec: { driver: 'gpu.example.com', nodeName: 'n1', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'gpu-0' }] } }];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    const sent = paths(server);
    expect(sent).toContain('/apis/resource.k8s.io/v1/resourceclaims?limit=500');
    expect(sent).toContain('/apis/resource.k8s.io/v1/deviceclasses?limit=500');
    expect(sent).toContain('/apis/resource.k8s.io/v1/resourceslices?limit=500');
    expect(snapshot.objects.resourceSlices.map((s) => s.metadata?.name)).toEqual(['s']);
    expect(snapshot.gaps).toEqual([]);
  });

  it('resource slices forbidden: a gap naming the permission, and DynamicResources is not checked', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.spec!.resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu-claim' }];
    objects.pods = [target];
    objects.resourceclaims = [{ metadata: { name: 'gpu-claim', namespace: ns }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } } }];
    objects.deviceclasses = [{ metadata: { name: 'gpu' } }];
    const server = await cluster(objects, ['/apis/resource.k8s.io/v1/resourceslices']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(snapshot.gaps).toEqual([{ collection: 'resourceSlices', cause: 'forbidden', permission: { verb: 'list', resource: 'resourceslices.resource.k8s.io', scope: 'cluster' } }]);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.notChecked).toContainEqual({ plugin: 'DynamicResources', cause: 'gap', collections: ['resourceSlices'] });
  });

  it('a pod without ResourceClaims reads none of the resource.k8s.io collections', async () => {
    const server = await cluster(taintedCase());
    await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).some((p) => p.includes('resource.k8s.io'))).toBe(false);
  });

  it('a pod without volumes reads none of them', async () => {
    const server = await cluster(taintedCase());
    await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).some((p) => /persistentvolume|storageclasses|csinodes/.test(p))).toBe(false);
  });

  it('a pod bound to a node and still pending reads that node only', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.spec!.nodeName = 'n2';
    target.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] };
    objects.pods = [target];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain('/api/v1/nodes/n2');
    expect(paths(server)).not.toContain('/api/v1/nodes?limit=500');
    expect(snapshot.objects.nodes.map((n) => n.metadata?.name)).toEqual(['n2']);
  });

  it('a running pod reads only itself, its events and owners', async () => {
    const objects = taintedCase();
    objects.pods = [pod('web-0', ns).on('n2').obj()];
    const server = await cluster(objects);
    await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toEqual(['/api/v1/namespaces/shop/pods/web-0', '/api/v1/namespaces/shop/events?fieldSelector=involvedObject.uid=uid-shop-web-0&limit=500']);
  });
});

describe('questions only some stages ask', () => {
  it('NoScheduler: one small read of events the scheduler wrote anywhere', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.spec!.schedulerName = 'my-scheduler';
    target.status = { phase: 'Pending' };
    objects.pods = [target];
    objects.events = [event('s', { kind: 'Pod', name: 'x', uid: 'u' }, 'Scheduled', 'Successfully assigned', 'my-scheduler')];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain('/api/v1/events?fieldSelector=reportingComponent=my-scheduler,reason=Scheduled&limit=1');
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.stageDetail).toMatchObject({ stage: 'NoScheduler', schedulerName: 'my-scheduler', schedulerSeenElsewhere: true });
  });

  it('NoScheduler without cluster-wide events: falls back to the namespace and says what is missing', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.status = { phase: 'Pending' };
    objects.pods = [target];
    objects.events = [];
    const server = await cluster(objects, ['/api/v1/events']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain('/api/v1/namespaces/shop/events?fieldSelector=reportingComponent=default-scheduler,reason=Scheduled&limit=1');
    expect(snapshot.gaps).toEqual([{ collection: 'events', cause: 'forbidden', permission: { verb: 'list', resource: 'events', scope: 'cluster' } }]);
  });

  it('a ReadWriteOncePod claim: reads the pods of the namespace that use it', async () => {
    const objects = taintedCase();
    const target = pendingPod();
    target.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'solo' } }];
    const user = pod('holder', ns).on('n1').with((p) => (p.spec!.volumes = [{ name: 'd', persistentVolumeClaim: { claimName: 'solo' } }])).obj();
    objects.pods = [target, user, pod('bystander', ns).on('n1').obj()];
    objects.persistentvolumeclaims = [{ metadata: { name: 'solo', namespace: ns, annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } }, spec: { volumeName: 'pv-solo', accessModes: ['ReadWriteOncePod'] } }];
    objects.persistentvolumes = [{ metadata: { name: 'pv-solo' }, spec: {} }];
    objects.storageclasses = [];
    objects.csinodes = [];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain('/api/v1/namespaces/shop/pods?fieldSelector=spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed&limit=500');
    expect(snapshot.objects.pods.map((p) => p.metadata?.name).sort()).toEqual(['holder', 'web-0']);
  });

  it('cronjob/x reads its jobs, then the pods of each', async () => {
    const objects = taintedCase();
    const cron = { metadata: { name: 'nightly', namespace: ns, uid: 'uid-cron' }, spec: {} };
    const job = {
      metadata: { name: 'nightly-1', namespace: ns, uid: 'uid-job', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: 'uid-cron', controller: true }] },
      spec: { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-job' } } },
    };
    const jobPod = pendingPod('nightly-1-abc');
    jobPod.metadata!.labels = { 'batch.kubernetes.io/controller-uid': 'uid-job' };
    jobPod.metadata!.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: 'nightly-1', uid: 'uid-job', controller: true }];
    objects.cronjobs = [cron];
    objects.jobs = [job, { metadata: { name: 'unrelated', namespace: ns, uid: 'uid-other' }, spec: {} }];
    objects.pods = [jobPod];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'cronjob/nightly' });
    expect(paths(server)).toContain('/api/v1/namespaces/shop/pods?labelSelector=batch.kubernetes.io/controller-uid=uid-job&limit=500');
    expect(snapshot.objects.jobs.map((j) => j.metadata?.name)).toEqual(['nightly-1']);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'cronjob/nightly' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.pod.name).toBe('nightly-1-abc');
    expect(outcome.diagnosis.pod.owners.map((o) => o.kind)).toEqual(['Job', 'CronJob']);
  });

  it('an owner that does not exist reads its events, then events of its kind for suggestions', async () => {
    const objects = taintedCase();
    objects.events = [event('x', { kind: 'Deployment', name: 'webb' }, 'ScalingReplicaSet', 'Scaled up', 'deployment-controller')];
    const server = await cluster(objects);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'deploy/wepp' });
    expect(paths(server)).toContain('/api/v1/namespaces/shop/events?fieldSelector=involvedObject.kind=Deployment&limit=500');
    expect(diagnose(ruleSet, snapshot, { namespace: ns, name: 'deploy/wepp' })).toMatchObject({ kind: 'notFound', suggestions: ['webb'] });
  });
});

describe("cluster-autoscaler's status ConfigMap", () => {
  const statusPath = '/api/v1/namespaces/kube-system/configmaps/cluster-autoscaler-status';
  const statusText = 'time: 2025-01-01 00:00:05 +0000 UTC\nautoscalerStatus: Running\nclusterWide:\n  health:\n    status: Healthy\nnodeGroups:\n- name: ng-a\n  scaleUp:\n    status: InProgress\n';
  /** The tainted case, with cluster-autoscaler's TriggeredScaleUp on the pod (its format: story/autoscaler.ts). */
  function scalingCase(withStatus: boolean): Objects {
    const objects = taintedCase();
    const uid = pendingPod().metadata!.uid!;
    objects['events'] = [...(objects['events'] ?? []), { ...event('ca', { kind: 'Pod', name: 'web-0', uid }, 'TriggeredScaleUp', 'pod triggered scale-up: [{ng-a 1->3 (max: 10)}]', 'cluster-autoscaler'), type: 'Normal' }];
    objects['configmaps'] = [
      { metadata: { name: 'other', namespace: 'kube-system' }, data: { token: 'never-read' } },
      ...(withStatus ? [{ metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system', resourceVersion: '7' }, data: { status: statusText, extra: 'dropped' } }] : []),
    ];
    return objects;
  }

  it('is one GET of that object when cluster-autoscaler spoke, kept to its status key', async () => {
    const server = await cluster(scalingCase(true));
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).filter((p) => p.includes('configmaps'))).toEqual([statusPath]);
    expect(snapshot.objects.clusterAutoscalerStatus).toEqual([{ metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system', resourceVersion: '7' }, data: { status: statusText } }]);
    expect(JSON.stringify(snapshot)).not.toContain('never-read');
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error(outcome.kind);
    expect(outcome.diagnosis.stageDetail).toMatchObject({ stage: 'WaitingForScaleUp', confirmedBy: 'statusConfigMap', autoscalerStatus: { read: 'found', groups: [{ name: 'ng-a', scaleUp: 'InProgress' }] } });
    expectValidDiagnosis(JSON.parse(JSON.stringify(present(outcome.diagnosis))));
  });

  it('not there (404): read, absent, and no gap', async () => {
    const server = await cluster(scalingCase(false));
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(snapshot.gaps).toEqual([]);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error(outcome.kind);
    expect(outcome.diagnosis.stageDetail).toMatchObject({ stage: 'WaitingForScaleUp', confirmedBy: 'event', autoscalerStatus: { read: 'absent' } });
    expect(outcome.diagnosis.gaps).toEqual([]);
  });

  it('refused (403): a gap naming the permission, the stage from the events', async () => {
    const server = await cluster(scalingCase(true), [statusPath]);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    const gap = { collection: 'clusterAutoscalerStatus', cause: 'forbidden', permission: { verb: 'get', resource: 'configmaps', scope: 'namespace kube-system' } };
    expect(snapshot.gaps).toEqual([gap]);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error(outcome.kind);
    expect(outcome.diagnosis.stage).toBe('WaitingForScaleUp');
    expect(outcome.diagnosis.gaps).toEqual([gap]);
    // The status is no input of the replay: the scheduler's agreement is not made partial by it.
    expect(outcome.diagnosis.scheduler.likelyCauses).not.toContain('partialData');
  });

  it('is not read when no cluster-autoscaler event speaks of the pod', async () => {
    const objects = scalingCase(true);
    objects['events'] = taintedCase()['events'];
    const server = await cluster(objects);
    await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).filter((p) => p.includes('configmaps'))).toEqual([]);
  });
});

// Karpenter's objects are read only when Karpenter wrote about the pod (its Nominated and
// FailedScheduling events: sigs.k8s.io/karpenter v1.15.0 pkg/controllers/provisioning/scheduling/events.go).
describe("Karpenter's NodePools and NodeClaims", () => {
  function karpenterCase(message: string, reason = 'FailedScheduling'): Objects {
    const objects = taintedCase();
    const target = objects.pods![0] as V1Pod;
    objects.events = [...objects.events!, event('k1', { kind: 'Pod', name: 'web-0', uid: target.metadata!.uid! }, reason, message, 'karpenter')];
    objects.nodepools = [
      { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'gpu' }, spec: { template: { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } } }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
    ];
    objects.nodeclaims = [];
    return objects;
  }
  const refusal = 'Failed to schedule pod, did not tolerate taint (taint=dedicated=gpu:NoSchedule)';

  it('reads both, cluster-scoped and paged, when Karpenter refused the pod; the NodePool is judged', async () => {
    const server = await cluster(karpenterCase(refusal));
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    const sent = paths(server);
    expect(sent).toContain('/apis/karpenter.sh/v1/nodepools?limit=500');
    expect(sent).toContain('/apis/karpenter.sh/v1/nodeclaims?limit=500');
    expect(snapshot.gaps).toEqual([]);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    const s = outcome.diagnosis.stageDetail;
    if (!('autoscaler' in s) || s.autoscaler?.state !== 'scaleUpNotPossible') throw new Error('expected a refusal');
    expect(s.autoscaler.nodePools?.map((c) => [c.nodePool, c.problems.map((p) => p.kind)])).toEqual([['gpu', ['untoleratedTaint']]]);
    expect(s.autoscaler.reconciliation).toEqual({ agrees: true, fittingNodePools: [], unexplained: [] });
    expectValidDiagnosis(JSON.parse(JSON.stringify(present(outcome.diagnosis))), 'live Karpenter diagnosis');
  });

  it('reads neither when no autoscaler wrote about the pod', async () => {
    const server = await cluster(taintedCase());
    await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server).filter((p) => p.includes('karpenter.sh'))).toEqual([]);
  });

  it('a 404 on the group (Karpenter not installed) is no gap and says nothing', async () => {
    const server = await cluster(karpenterCase(refusal), [], ['/apis/karpenter.sh/*']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(paths(server)).toContain('/apis/karpenter.sh/v1/nodepools?limit=500');
    expect(snapshot.gaps).toEqual([]);
    expect(snapshot.objects.nodePools).toEqual([]);
  });

  it('a triage reads them once when Karpenter wrote about a pending pod, and not otherwise', async () => {
    const withKarpenter = await cluster(karpenterCase(refusal));
    const snapshot = await readTriageLive(configFor(withKarpenter.url), { namespace: ns }, () => undefined);
    expect(paths(withKarpenter).filter((p) => p.includes('karpenter.sh')).sort()).toEqual(['/apis/karpenter.sh/v1/nodeclaims?limit=500', '/apis/karpenter.sh/v1/nodepools?limit=500']);
    expect(snapshot.objects.nodePools.map((p) => p.metadata?.name)).toEqual(['gpu']);
    const without = await cluster(taintedCase());
    await readTriageLive(configFor(without.url), { namespace: ns }, () => undefined);
    expect(paths(without).filter((p) => p.includes('karpenter.sh'))).toEqual([]);
  });

  it('a 403 is a gap naming the permission, shown with the diagnosis', async () => {
    const server = await cluster(karpenterCase(refusal), ['/apis/karpenter.sh/v1/nodepools']);
    const snapshot = await readLive(configFor(server.url), { namespace: ns, name: 'web-0' });
    expect(snapshot.gaps).toEqual([{ collection: 'nodePools', cause: 'forbidden', permission: { verb: 'list', resource: 'nodepools.karpenter.sh', scope: 'cluster' } }]);
    const outcome = diagnose(ruleSet, snapshot, { namespace: ns, name: 'web-0' });
    if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
    expect(outcome.diagnosis.gaps).toContainEqual(snapshot.gaps[0]);
  });
});
