// Deployments whose pods the API server refuses at admission: a ResourceQuota that the pod
// would exceed, and a LimitRange whose max cpu per container is below the pod's limit. No pod
// exists; `kubectl why-pending deploy/<name>` must say AdmissionRejected and quote the
// owner's FailedCreate message, live (as the read-only user) and from a dump of the cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Obj, TestCluster } from './harness/index.js';
import { resetCluster, settleScenario, type CaptureScenario, type Target } from './harness/scenario.js';
import { Timer, VIEWER, dumpCluster, roundTripView, secs, startE2eCluster } from './harness/suite.js';
import { waitFor } from './harness/wait.js';
import { describeRun, whyPending, whyPendingAndCapture, type DiagnosisJson } from './harness/why-pending.js';

const node = (name: string) => ({ name, allocatable: { cpu: '8', memory: '32Gi', pods: '110' } });
const pause = 'registry.k8s.io/pause:3.10';

function deployment(ns: string, name: string, resources: Record<string, unknown>): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: pause, resources }] } },
    },
  };
}

interface Case {
  scenario: CaptureScenario;
  /** Objects the Deployment's pods are judged against, in place before the Deployment exists. */
  policy: Obj[];
  /** Waits until admission enforces the policy. */
  ready: (c: TestCluster) => Promise<unknown>;
  /** What the FailedCreate message must say. */
  says: RegExp;
  /** The headline: admission's refusal worked out from the objects. */
  headline: string;
}

const cases: Case[] = [
  {
    scenario: {
      name: 'quota-exceeded',
      file: '(inline)',
      comment: 'ResourceQuota requests.cpu 1 in namespace quota-demo; a Deployment of one replica asking 2 cpu.',
      nodes: [node('node-1'), node('node-2')],
      objects: [deployment('quota-demo', 'reporter', { requests: { cpu: '2', memory: '1Gi' } })],
    },
    policy: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota-demo' } },
      { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute', namespace: 'quota-demo' }, spec: { hard: { 'requests.cpu': '1', pods: '10' } } },
    ],
    // Until the quota controller has written status.hard, admission refuses with "status unknown
    // for quota"; wait for it so that every FailedCreate says the same.
    ready: (c) => waitFor('quota-demo/compute status', async () => {
      const q = await c.api.get<{ status?: { hard?: Record<string, string> } }>('/api/v1/namespaces/quota-demo/resourcequotas/compute');
      return q.status?.hard?.['requests.cpu'] ? true : undefined;
    }),
    says: /exceeded quota: compute, requested: requests\.cpu=2, used: requests\.cpu=0, limited: requests\.cpu=1/,
    headline: 'No pod of Deployment quota-demo/reporter was ever created: admission refuses it: each pod asks requests.cpu 2 and quota compute allows 1 in all, so no replica can ever be admitted.',
  },
  {
    scenario: {
      name: 'limitrange-max',
      file: '(inline)',
      comment: 'LimitRange max cpu 1 per container in namespace limits-demo; a Deployment whose container has a cpu limit of 2.',
      nodes: [node('node-1'), node('node-2')],
      objects: [deployment('limits-demo', 'encoder', { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '2', memory: '256Mi' } })],
    },
    policy: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'limits-demo' } },
      { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'max-cpu', namespace: 'limits-demo' }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } },
    ],
    ready: () => Promise.resolve(),
    says: /maximum cpu usage per Container is 1, but limit is 2/,
    headline: 'No pod of Deployment limits-demo/encoder was ever created: admission refuses it: container encoder limit cpu 2 is above the LimitRange max-cpu max 1 (per Container).',
  },
];

describe('admission rejects a Deployment\'s pods', () => {
  let c: TestCluster;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster();
    lines.push(`[e2e] admission: control plane started in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it.each(cases)('$scenario.name', async ({ scenario: s, policy, ready, says, headline }) => {
    const timer = new Timer();
    let result = 'failed';
    try {
      await Promise.all(s.nodes.map(({ name, ...spec }) => c.createNode(name, spec)));
      await c.apply(policy);
      await ready(c);
      await c.apply(s.objects);
      timer.lap('apply');
      const targets = await settleScenario(c, s);
      timer.lap('settle');
      expect(targets.map((t) => t.stage)).toEqual(['AdmissionRejected']);
      const t = targets[0] as Target;
      expect(t.failedCreate).toMatch(says);

      const args = [t.query, '-n', t.namespace, '-o', 'json'];
      const live = await whyPendingAndCapture(c, VIEWER, args);
      expect(live.code, describeRun(live)).toBe(0);
      expect(live.audited.length, 'the run read the cluster').toBeGreaterThan(0);
      const json = live.json as DiagnosisJson;
      expect(json.stage).toBe('AdmissionRejected');
      expect(json.stageDetail.owner?.kind).toMatch(/^(ReplicaSet|Deployment)$/);
      const messages = json.stageDetail.failures?.map((f) => f.message) ?? [];
      expect(messages).toContain(t.failedCreate);
      expect(json.stageDetail.failures?.every((f) => f.reason === 'FailedCreate' && says.test(f.message ?? ''))).toBe(true);
      expect(json.nodes).toEqual([]);
      expect(json.gaps).toEqual([]);

      const human = await whyPendingAndCapture(c, VIEWER, [t.query, '-n', t.namespace]);
      expect(human.code, describeRun(human)).toBe(0);
      expect(human.stdout.split('\n')[0]).toBe(headline);
      expect(human.stdout).toMatch(says);
      timer.lap('live');

      const dump = await dumpCluster(c, s.name);
      const fromDump = await whyPending(c, undefined, [...args, '--from-dump', dump]);
      expect(fromDump.code, describeRun(fromDump)).toBe(0);
      expect(roundTripView(fromDump.json as DiagnosisJson)).toEqual(roundTripView(json));
      timer.lap('dump');
      result = `${t.namespace}/${t.query} ${json.stage} (${json.stageDetail.owner?.kind ?? '?'}): ${t.failedCreate ?? ''}`;
    } finally {
      await resetCluster(c);
      timer.lap('reset');
      const line = timer.line(`admission ${s.name}: ${result}`);
      lines.push(line);
      console.log(line);
    }
  });
});
