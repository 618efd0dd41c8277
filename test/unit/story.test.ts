// The story the objects tell, piece by piece: admission refusals read back from their text, the
// quota arithmetic (never admitted vs full now), templates as admission sees them, which budgets
// a preemption would violate, and the evidence that a request was copied from its limit.
import type { V1LimitRange, V1PodDisruptionBudget, V1ReplicaSet } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { originSources } from '../../src/engine/resources/originSources.js';
import { requestOrigins } from '../../src/engine/resources/origins.js';
import { podRequests } from '../../src/engine/resources/requests.js';
import { admissionStory, asAdmitted } from '../../src/engine/story/admission.js';
import { parseLimitRangeRefusals, parseQuotaRefusal } from '../../src/engine/story/admissionMessages.js';
import { neverPreempts, violatingPods } from '../../src/engine/story/preemption.js';
import type { ClusterEvent } from '../../src/snapshot/types.js';
import { pod, snapshotOf } from '../support/builders.js';

describe('admission refusals, read back from the event text', () => {
  it.each([
    {
      name: 'an exceeded quota, several resources, as prettyPrint sorts them',
      message: 'Error creating: pods "web-7d9-" is forbidden: exceeded quota: compute, requested: limits.memory=2Gi,requests.cpu=500m, used: limits.memory=7Gi,requests.cpu=3800m, limited: limits.memory=8Gi,requests.cpu=4',
      quota: { quota: 'compute', requested: { 'limits.memory': '2Gi', 'requests.cpu': '500m' }, used: { 'limits.memory': '7Gi', 'requests.cpu': '3800m' }, limited: { 'limits.memory': '8Gi', 'requests.cpu': '4' } },
    },
    { name: 'a failed quota (a missing limit) is not an exceeded one', message: 'pods "x" is forbidden: failed quota: q: must specify limits.memory for: c', quota: undefined },
  ])('$name', ({ message, quota }) => {
    expect(parseQuotaRefusal(message)).toEqual(quota);
  });

  it.each([
    {
      name: 'a max on a container limit (v1.37: no final period)',
      message: 'pods "db-0" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
      refusals: [{ scope: 'Container', resource: 'cpu', bound: 'max', field: 'limit', allowed: '1', actual: '2' }],
    },
    {
      name: 'several at once, older releases ending each with a period',
      message: 'pods "n-1" is forbidden: [maximum memory usage per Container is 1Gi, but limit is 2Gi., minimum cpu usage per Pod is 200m, but request is 100m., cpu max limit to request ratio per Container is 2, but provided ratio is 20.000000.]',
      refusals: [
        { scope: 'Container', resource: 'memory', bound: 'max', field: 'limit', allowed: '1Gi', actual: '2Gi' },
        { scope: 'Pod', resource: 'cpu', bound: 'min', field: 'request', allowed: '200m', actual: '100m' },
        { scope: 'Container', resource: 'cpu', bound: 'maxLimitRequestRatio', field: 'ratio', allowed: '2', actual: '20.000000' },
      ],
    },
  ])('$name', ({ message, refusals }) => {
    expect(parseLimitRangeRefusals(message)).toEqual(refusals);
  });
});

const ns = 'ml';
function replicaSet(containers: object[]): V1ReplicaSet {
  return { metadata: { name: 'rs', namespace: ns, uid: 'uid-rs' }, spec: { selector: {}, template: { spec: { containers } } } } as V1ReplicaSet;
}
function refusal(message: string): ClusterEvent {
  return { type: 'Warning', reason: 'FailedCreate', message, involved: { kind: 'ReplicaSet', namespace: ns, name: 'rs' }, count: 1, reporter: 'replicaset-controller' };
}
const owner = { kind: 'ReplicaSet', namespace: ns, name: 'rs' };
const quotaObject = (hard: string, used: string) => ({ metadata: { name: 'q', namespace: ns }, spec: { hard: { 'requests.cpu': hard } }, status: { hard: { 'requests.cpu': hard }, used: { 'requests.cpu': used } } });
const quotaMessage = 'Error creating: pods "rs-x" is forbidden: exceeded quota: q, requested: requests.cpu=2, used: requests.cpu=0, limited: requests.cpu=1';

describe('quota arithmetic', () => {
  it.each([
    { name: 'each pod asks more than hard: no replica can ever be admitted', hard: '1', used: '0', verdict: 'neverAdmitted' },
    { name: 'asks fit hard, but used + asks exceed it: full now', hard: '4', used: '2500m', verdict: 'fullNow' },
    { name: 'the quota as read has room: the refusal is older than the usage', hard: '4', used: '1', verdict: 'roomNow' },
  ])('$name', ({ hard, used, verdict }) => {
    const snapshot = snapshotOf({ replicaSets: [replicaSet([{ name: 'app', image: 'x', resources: { limits: { cpu: '2' } } }])], resourceQuotas: [quotaObject(hard, used)] });
    const story = admissionStory(snapshot, owner, [refusal(quotaMessage)]);
    expect(story.quota).toEqual([{ quota: 'q', resource: 'requests.cpu', asks: 2000n, used: BigInt(parseFloat(used) * (used.endsWith('m') ? 1 : 1000)), hard: BigInt(Number(hard) * 1000), asksFrom: 'template', usedFrom: 'quota', verdict }]);
  });

  it('without the owner and the quota objects, the numbers are the refusal\'s own', () => {
    const story = admissionStory(snapshotOf({}), owner, [refusal(quotaMessage)]);
    expect(story).toEqual({ quota: [{ quota: 'q', resource: 'requests.cpu', asks: 2000n, used: 0n, hard: 1000n, asksFrom: 'event', usedFrom: 'event', verdict: 'neverAdmitted' }], limitRange: [] });
  });

  it('counts what admission counts: limits copied, LimitRange defaults, init containers at their peak, pods as one', () => {
    const spec = {
      containers: [
        { name: 'app', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } },
        { name: 'side', image: 'x' },
      ],
      initContainers: [{ name: 'migrate', image: 'x', resources: { requests: { cpu: '3' } } }],
    };
    const limitRange: V1LimitRange = { metadata: { name: 'lr', namespace: ns }, spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' }, ...{ default: { cpu: '200m', memory: '64Mi' } } } as never] } };
    const admitted = asAdmitted(spec, [limitRange]);
    expect(admitted.spec?.containers.map((c) => c.resources)).toEqual([
      { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } },
    ]);
    expect(podRequests(admitted).total).toEqual({ cpu: 3000n, memory: 1024n * 1024n * 1024n + 64n * 1024n * 1024n });
    const snapshot = snapshotOf({ replicaSets: [replicaSet(spec.containers)], limitRanges: [limitRange] });
    const message = 'Error creating: pods "rs-x" is forbidden: exceeded quota: q, requested: limits.cpu=1200m,pods=1, used: limits.cpu=0,pods=10, limited: limits.cpu=1,pods=10';
    expect(admissionStory(snapshot, owner, [refusal(message)]).quota.map((q) => [q.resource, q.asks, q.verdict])).toEqual([
      ['limits.cpu', 1200n, 'neverAdmitted'],
      ['pods', 1n, 'fullNow'],
    ]);
  });

  it('a LimitRange bound names the LimitRange and the container that breaks it', () => {
    const limitRange: V1LimitRange = { metadata: { name: 'caps', namespace: ns }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } };
    const snapshot = snapshotOf({ replicaSets: [replicaSet([{ name: 'small', image: 'x', resources: { limits: { cpu: '500m' } } }, { name: 'big', image: 'x', resources: { limits: { cpu: '2' } } }])], limitRanges: [limitRange] });
    const story = admissionStory(snapshot, owner, [refusal('pods "rs-x" is forbidden: maximum cpu usage per Container is 1, but limit is 2')]);
    expect(story.limitRange).toEqual([{ scope: 'Container', resource: 'cpu', bound: 'max', field: 'limit', allowed: '1', actual: '2', limitRange: 'caps', container: 'big' }]);
  });
});

describe('budgets a preemption would violate (filterPodsWithPDBViolation)', () => {
  const budget = (name: string, selector: object | undefined, disruptionsAllowed: number, disruptedPods?: Record<string, string>): V1PodDisruptionBudget =>
    ({ metadata: { name, namespace: 'b' }, spec: selector ? { selector } : {}, status: { disruptionsAllowed, ...(disruptedPods ? { disruptedPods } : {}) } }) as V1PodDisruptionBudget;
  const w = (name: string, labels: Record<string, string> = { app: 'w' }) => pod(name, 'b').labels(labels).obj();
  it.each([
    { name: 'no disruption allowed: the first matching pod violates it', budgets: [budget('pdb', { matchLabels: { app: 'w' } }, 0)], violating: { 'b/w1': ['pdb'], 'b/w2': ['pdb'] } },
    { name: 'one allowed: the first pod uses it, the second violates it', budgets: [budget('pdb', { matchLabels: { app: 'w' } }, 1)], violating: { 'b/w2': ['pdb'] } },
    { name: 'an empty selector matches nothing', budgets: [budget('pdb', {}, 0)], violating: {} },
    { name: 'a pod already in disruptedPods is not counted again', budgets: [budget('pdb', { matchLabels: { app: 'w' } }, 0, { w1: '2026-12-01T00:00:00Z' })], violating: { 'b/w2': ['pdb'] } },
  ])('$name', ({ budgets, violating }) => {
    const out = violatingPods([w('w1'), w('w2'), pod('bare', 'b').obj()], budgets);
    expect(Object.fromEntries([...out.entries()].map(([k, v]) => [k, v.map((b) => b.name)]))).toEqual(violating);
  });
});

describe('preemptionPolicy Never', () => {
  const never = pod('p', 'a').with((p) => Object.assign(p.spec!, { preemptionPolicy: 'Never', priorityClassName: 'batch' })).obj();
  it.each([
    { name: 'names the PriorityClass and its policy when read', classes: [{ metadata: { name: 'batch' }, value: 100, preemptionPolicy: 'Never' }], expected: { priorityClass: 'batch', classPolicy: 'Never', classValue: 100 } },
    { name: 'names the class, and no policy, when it was not read', classes: [], expected: { priorityClass: 'batch' } },
  ])('$name', ({ classes, expected }) => {
    expect(neverPreempts(snapshotOf({ priorityClasses: classes }), never)).toEqual(expected);
  });
  it('says nothing for a pod that may preempt', () => {
    expect(neverPreempts(snapshotOf({}), pod('q', 'a').obj())).toBeUndefined();
  });
});

describe('a request copied from its limit, proven without managedFields', () => {
  const admittedPod = (owner: boolean, annotations?: Record<string, string>) =>
    pod('web-1', 'shop')
      .req({ cpu: '2' }, { cpu: '2' })
      .with((p) => {
        if (owner) p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'u', controller: true }];
        if (annotations) p.metadata!.annotations = annotations;
      })
      .obj();
  const rs = (resources: object, deploy = true) => ({
    metadata: { name: 'web-rs', namespace: 'shop', ...(deploy ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd', controller: true }] } : {}) },
    spec: { selector: {}, template: { spec: { containers: [{ name: 'app', image: 'x', resources }] } } },
  });
  const deployment = (resources: object) => ({ metadata: { name: 'web', namespace: 'shop' }, spec: { selector: {}, template: { spec: { containers: [{ name: 'app', image: 'x', resources }] } } } });
  const applied = (resources: object) => ({ 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ kind: 'Pod', spec: { containers: [{ name: 'app', resources }] } }) });

  it.each([
    { name: 'the templates set a limit and no request: the Deployment is named', pod: admittedPod(true), objects: { replicaSets: [rs({ limits: { cpu: '2' } })], deployments: [deployment({ limits: { cpu: '2' } })] }, proof: { evidence: 'ownerTemplate', source: { kind: 'Deployment', name: 'web' } } },
    { name: 'the Deployment was changed since: the ReplicaSet that made the pod is named', pod: admittedPod(true), objects: { replicaSets: [rs({ limits: { cpu: '2' } })], deployments: [deployment({ limits: { cpu: '2' }, requests: { cpu: '2' } })] }, proof: { evidence: 'ownerTemplate', source: { kind: 'ReplicaSet', name: 'web-rs' } } },
    { name: 'the template writes the request: nothing was copied', pod: admittedPod(true), objects: { replicaSets: [rs({ limits: { cpu: '2' }, requests: { cpu: '2' } }, false)] }, proof: undefined },
    { name: 'a bare pod whose last-applied-configuration sets no request', pod: admittedPod(false, applied({ limits: { cpu: '2' } })), objects: {}, proof: { evidence: 'lastApplied', source: { kind: 'Pod', name: 'web-1' } } },
    { name: 'a bare pod without any evidence: no claim', pod: admittedPod(false), objects: {}, proof: undefined },
  ])('$name', ({ pod: p, objects, proof }) => {
    const origins = requestOrigins(p, originSources(snapshotOf(objects as never), p));
    expect(origins).toEqual(proof ? [{ container: 'app', resource: 'cpu', quantity: '2', from: 'limits', ...proof }] : []);
  });

  it('names the LimitRange whose default request the annotated request equals', () => {
    const p = pod('web-1', 'shop')
      .req({ cpu: '250m' }, { cpu: '500m' })
      .annotate({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container app; cpu limit for container app' })
      .obj();
    const ranges = [
      { metadata: { name: 'other', namespace: 'shop' }, spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' } }] } },
      { metadata: { name: 'defaults', namespace: 'shop' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '0.25' } }] } },
    ];
    expect(requestOrigins(p, originSources(snapshotOf({ limitRanges: ranges as never }), p))).toEqual([
      { container: 'app', resource: 'cpu', quantity: '250m', from: 'limitRange', evidence: 'limitRangerAnnotation', limitRange: { name: 'defaults', defaultRequest: '0.25' } },
    ]);
  });
});
