// readLive for the stories the objects tell: a pending preemption reads the nominated node's
// pods and the budgets of its lower-priority pods' namespaces (a 403 there is a gap, never "no
// budget"); a pod never admitted reads the owner that reports it and the namespace's quotas.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/engine/diagnose.js';
import type { Diagnosis } from '../../../src/engine/diagnosis.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { readLive } from '../../../src/sources/live/readPod.js';
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
