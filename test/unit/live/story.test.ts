// readLive for the stories the objects tell: a pending preemption reads the nominated node's
// pods, and a pod that may preempt the budgets of its lower-priority pods' namespaces (a 403
// there is a gap, never "no budget"); a pod never admitted reads the owner that reports it and
// the namespace's quotas.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/engine/diagnose.js';
import type { Diagnosis } from '../../../src/engine/diagnosis.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { readLive, readPodsOn } from '../../../src/sources/live/readPod.js';
import type { Snapshot } from '../../../src/snapshot/types.js';
import { node, pod } from '../../support/builders.js';
import { configFor, type FakeApiServer } from './fake-apiserver.js';
import { fakeClusters, type Objects } from './fake-cluster.js';

const cluster = fakeClusters();

const paths = (server: FakeApiServer) => server.requests.map((r) => `${r.path}${r.query.size > 0 ? `?${decodeURIComponent(r.query.toString())}` : ''}`);

function diagnosis(snapshot: Snapshot, namespace: string, name: string): Diagnosis {
  const outcome = diagnose(ruleSet, snapshot, { namespace, name });
  if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
  return outcome.diagnosis;
}

const withPriority = (priority: number) => (p: V1Pod) => {
  p.spec!.priority = priority;
};

function preemptionCase(): Objects {
  const preemptor = pod('api-0', 'prod')
    .req({ cpu: '2' })
    .with(withPriority(1000))
    .with((p) => {
      p.status = { phase: 'Pending', nominatedNodeName: 'n1', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient cpu.' }] };
    })
    .obj();
  const victim = pod('report-1', 'batch')
    .req({ cpu: '2' })
    .on('n1')
    .with(withPriority(10))
    .with((p) => {
      p.metadata!.deletionTimestamp = '2026-12-01T07:58:05Z' as unknown as Date;
      p.metadata!.finalizers = ['example.com/upload'];
    })
    .obj();
  const worker = pod('worker-1', 'batch').labels({ app: 'worker' }).req({ cpu: '1' }).on('n1').with(withPriority(10)).obj();
  const db = pod('db-0', 'prod').req({ cpu: '1' }).on('n1').with(withPriority(2000)).obj();
  return {
    pods: [preemptor, victim, worker, db],
    nodes: [node('n1').allocatable({ cpu: '4' }).obj(), node('n2').allocatable({ cpu: '1' }).obj()],
    events: [],
    limitranges: [],
    resourcequotas: [],
    priorityclasses: [],
    poddisruptionbudgets: [
      { metadata: { name: 'worker-pdb', namespace: 'batch' }, spec: { selector: { matchLabels: { app: 'worker' } } }, status: { disruptionsAllowed: 0 } },
    ],
  };
}

describe('a pending preemption', () => {
  it('reads the budgets of the namespaces of the lower-priority pods on the nominated node, and tells who is who', async () => {
    const server = await cluster(preemptionCase());
    const snapshot = await readLive(configFor(server.url), { namespace: 'prod', name: 'api-0' });
    expect(paths(server)).toContain('/apis/policy/v1/namespaces/batch/poddisruptionbudgets?limit=500');
    expect(paths(server).filter((p) => p.includes('poddisruptionbudgets'))).toHaveLength(1);
    const d = diagnosis(snapshot, 'prod', 'api-0');
    expect(d.stageDetail).toMatchObject({
      stage: 'PreemptionPending',
      nominatedNodeName: 'n1',
      priority: 1000,
      budgetsKnown: true,
      pods: [
        { namespace: 'prod', name: 'db-0', role: 'higherPriority' },
        { namespace: 'batch', name: 'report-1', role: 'victim', finalizers: ['example.com/upload'], deletionTimestamp: '2026-12-01T07:58:05.000Z' },
        { namespace: 'batch', name: 'worker-1', role: 'lowerPriority', budgets: [{ name: 'worker-pdb', disruptionsAllowed: 0 }] },
      ],
    });
  });

  it('a 403 on the budgets is a gap naming the permission, and no budget is claimed either way', async () => {
    const server = await cluster(preemptionCase(), ['/apis/policy/v1/namespaces/batch/poddisruptionbudgets']);
    const snapshot = await readLive(configFor(server.url), { namespace: 'prod', name: 'api-0' });
    const d = diagnosis(snapshot, 'prod', 'api-0');
    expect(d.stageDetail).toMatchObject({ stage: 'PreemptionPending', budgetsKnown: false });
    expect(d.gaps).toContainEqual({
      collection: 'podDisruptionBudgets',
      cause: 'forbidden',
      permission: { verb: 'list', resource: 'poddisruptionbudgets.policy', scope: 'namespace batch' },
    });
  });
});

// checkout (priority 1000) is refused by both nodes on cpu, with no nomination yet: preemption
// can free n1 by removing one of two pods of priority 0, in namespaces batch and cache. Without
// budgets the later-started one (cache's) goes; cache's budget allows no disruption, so the
// scheduler reprieves it first and batch's goes instead. n2 runs a pod of higher priority.
function mayPreemptCase(namespaces = ['batch', 'cache'], protectedIn = ['cache']): Objects {
  const target = pod('checkout', 'shop')
    .req({ cpu: '3' })
    .with(withPriority(1000))
    .with((p) => {
      p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient cpu.' }] };
    })
    .obj();
  const low = namespaces.map((ns, i) =>
    pod(`low-${i}`, ns)
      .labels({ app: 'low' })
      .req({ cpu: '1' })
      .on('n1')
      .with(withPriority(0))
      .with((p) => {
        p.status = { ...p.status, startTime: new Date(Date.UTC(2026, 11, 1, 7, i)) };
      })
      .obj(),
  );
  return {
    pods: [target, ...low, pod('db-0', 'prod').req({ cpu: '2' }).on('n2').with(withPriority(2000)).obj()],
    nodes: [node('n1').allocatable({ cpu: '4' }).obj(), node('n2').allocatable({ cpu: '4' }).obj()],
    events: [],
    limitranges: [],
    resourcequotas: [],
    priorityclasses: [],
    poddisruptionbudgets: protectedIn.map((ns) => ({ metadata: { name: 'low-pdb', namespace: ns }, spec: { selector: { matchLabels: { app: 'low' } } }, status: { disruptionsAllowed: 0 } })),
  };
}

const budgetReads = (server: FakeApiServer) => paths(server).filter((p) => p.includes('poddisruptionbudgets'));

describe('a pod that may preempt', () => {
  it('reads the budgets of the namespaces of the lower-priority pods read, so the fix names the scheduler\'s victims', async () => {
    const server = await cluster(mayPreemptCase());
    const snapshot = await readLive(configFor(server.url), { namespace: 'shop', name: 'checkout' });
    expect(budgetReads(server)).toEqual(['/apis/policy/v1/namespaces/batch/poddisruptionbudgets?limit=500', '/apis/policy/v1/namespaces/cache/poddisruptionbudgets?limit=500']);
    const preempt = diagnosis(snapshot, 'shop', 'checkout').fixes.flatMap((f) => f.changes).find((c) => c.kind === 'preempt');
    expect(preempt).toMatchObject({ node: 'n1', budgetsKnown: true, victims: [{ namespace: 'batch', name: 'low-0', priority: 0 }] });
  });

  it('a 403 on a namespace\'s budgets: a gap, and the fix says the scheduler may pick other victims', async () => {
    const server = await cluster(mayPreemptCase(), ['/apis/policy/v1/namespaces/cache/poddisruptionbudgets']);
    const snapshot = await readLive(configFor(server.url), { namespace: 'shop', name: 'checkout' });
    const d = diagnosis(snapshot, 'shop', 'checkout');
    expect(d.fixes.flatMap((f) => f.changes).find((c) => c.kind === 'preempt')).toMatchObject({ budgetsKnown: false });
    expect(d.gaps).toContainEqual({ collection: 'podDisruptionBudgets', cause: 'forbidden', permission: { verb: 'list', resource: 'poddisruptionbudgets.policy', scope: 'namespace cache' } });
  });

  it('many namespaces: one list of every budget, each namespace\'s only when that is refused', async () => {
    const many = Array.from({ length: 10 }, (_, i) => `team-${i}`);
    const server = await cluster(mayPreemptCase(many, many));
    const snapshot = await readLive(configFor(server.url), { namespace: 'shop', name: 'checkout' });
    expect(budgetReads(server)).toEqual(['/apis/policy/v1/poddisruptionbudgets?limit=500']);
    expect(snapshot.objects.podDisruptionBudgets).toHaveLength(10);
    const refused = await cluster(mayPreemptCase(many, many), ['/apis/policy/v1/poddisruptionbudgets']);
    const again = await readLive(configFor(refused.url), { namespace: 'shop', name: 'checkout' });
    expect(budgetReads(refused)).toHaveLength(11);
    expect(again.objects.podDisruptionBudgets).toHaveLength(10);
    expect(again.gaps).toEqual([]);
  });

  it('a follow-up read of skipped nodes reads the budgets of the namespaces it finds, and no other again', async () => {
    const objects = mayPreemptCase(['batch']);
    objects.nodes?.push(node('n3').allocatable({ cpu: '4' }).taint('dedicated', 'ml', 'NoSchedule').obj());
    objects.pods?.push(pod('trainer-0', 'ml').req({ cpu: '3' }).on('n3').with(withPriority(0)).obj(), pod('cache-0', 'batch').req({ cpu: '1' }).on('n3').with(withPriority(0)).obj());
    const server = await cluster(objects);
    const config = configFor(server.url);
    const earlier = await readLive(config, { namespace: 'shop', name: 'checkout' });
    expect(budgetReads(server)).toEqual(['/apis/policy/v1/namespaces/batch/poddisruptionbudgets?limit=500']);
    const target = earlier.objects.pods.find((p) => p.metadata?.name === 'checkout') as V1Pod;
    await readPodsOn(config, earlier, target, ['n3']);
    expect(budgetReads(server)).toEqual(['/apis/policy/v1/namespaces/batch/poddisruptionbudgets?limit=500', '/apis/policy/v1/namespaces/ml/poddisruptionbudgets?limit=500']);
  });

  it('preemptionPolicy Never, or no pod of lower priority: no budget is read', async () => {
    const never = mayPreemptCase();
    (never.pods?.[0] as V1Pod).spec!.preemptionPolicy = 'Never';
    const server = await cluster(never);
    await readLive(configFor(server.url), { namespace: 'shop', name: 'checkout' });
    expect(budgetReads(server)).toEqual([]);
    const equal = mayPreemptCase();
    (equal.pods?.[0] as V1Pod).spec!.priority = 0;
    const other = await cluster(equal);
    await readLive(configFor(other.url), { namespace: 'shop', name: 'checkout' });
    expect(budgetReads(other)).toEqual([]);
  });
});

describe('a pod never admitted', () => {
  it('reads the owner that reports the refusal and the namespace quotas, for the arithmetic', async () => {
    const template = { spec: { containers: [{ name: 'app', image: 'x', resources: { limits: { cpu: '2' } } }] } };
    const server = await cluster({
      pods: [],
      events: [
        {
          metadata: { name: 'f', namespace: 'ml', uid: 'uid-f' },
          involvedObject: { kind: 'ReplicaSet', name: 'trainer-6f7', namespace: 'ml', uid: 'uid-rs' },
          reason: 'FailedCreate',
          type: 'Warning',
          message: 'Error creating: pods "trainer-6f7-x2k" is forbidden: exceeded quota: q, requested: requests.cpu=2, used: requests.cpu=0, limited: requests.cpu=1',
          source: { component: 'replicaset-controller' },
          lastTimestamp: '2026-12-01T07:55:00Z',
        },
      ],
      replicasets: [{ metadata: { name: 'trainer-6f7', namespace: 'ml', uid: 'uid-rs' }, spec: { template } }],
      resourcequotas: [{ metadata: { name: 'q', namespace: 'ml' }, spec: { hard: { 'requests.cpu': '1' } }, status: { hard: { 'requests.cpu': '1' }, used: { 'requests.cpu': '0' } } }],
      limitranges: [],
    });
    const snapshot = await readLive(configFor(server.url), { namespace: 'ml', name: 'trainer-6f7-x2k' });
    expect(paths(server)).toEqual(
      expect.arrayContaining([
        '/apis/apps/v1/namespaces/ml/replicasets/trainer-6f7',
        '/api/v1/namespaces/ml/resourcequotas?limit=500',
        '/api/v1/namespaces/ml/limitranges?limit=500',
      ]),
    );
    const d = diagnosis(snapshot, 'ml', 'trainer-6f7-x2k');
    expect(d.stageDetail).toMatchObject({
      stage: 'AdmissionRejected',
      template: { kind: 'ReplicaSet', name: 'trainer-6f7' },
      quota: [{ quota: 'q', resource: 'requests.cpu', asks: 2000n, used: 0n, hard: 1000n, asksFrom: 'template', usedFrom: 'quota', verdict: 'neverAdmitted' }],
    });
  });
});
