// Whether the scheduler's words were cut: only a FailedScheduling event can be, at the event
// limit (schedule_one.go truncateMessage: 1024 bytes ending in " ..."); the PodScheduled
// condition never is, and a message that ends without a period (v1.37's successful preemption)
// is whole.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { compareWithScheduler as compareWith, schedulerWords } from '../../src/engine/agreement.js';
import type { NodeVerdict } from '../../src/engine/judge.js';
import type { DisagreementEvidence } from '../../src/engine/disagreement.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { ClusterEvent, Snapshot } from '../../src/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { node, pod, snapshotOf } from '../support/builders.js';

type WithoutCatalog<T> = T extends [unknown, ...infer Rest] ? Rest : never;
// Messages are read with the registry's wordings (src/messages/registry.ts).
const compareWithScheduler = (...args: WithoutCatalog<Parameters<typeof compareWith>>) => compareWith(ruleSet.catalog, ...args);

const placement = '0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod on node worker-1, preempting 1 victims';
// A 60-taint message, and the event the scheduler would write for it.
const long = `0/2 nodes are available: ${Array.from({ length: 60 }, (_, i) => `1 node(s) had untolerated taint {key-${i}: value-${i}}`).join(', ')}.`;
const cut = `${long.slice(0, 1020)} ...`;

const podWith = (message?: string): V1Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  status: { phase: 'Pending', ...(message ? { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }] } : {}) },
});
const event = (message: string): ClusterEvent => ({ type: 'Warning', reason: 'FailedScheduling', message, involved: { kind: 'Pod', namespace: 'default', name: 'p' }, count: 1, reporter: 'default-scheduler' });
const short = (name: string): NodeVerdict => ({
  name,
  fits: false,
  verdict: 'fails',
  pods: 2,
  unchecked: [],
  reasons: [{ plugin: 'NodeResourcesFit', code: 'Unschedulable', detail: { kind: 'insufficientResource', resource: 'cpu', requested: 2000n, used: 3000n, allocatable: 3920n, free: 920n, short: 1080n, exceedsAllocatable: false } }],
} as unknown as NodeVerdict);

describe('schedulerWords: truncated only for an event cut at the limit', () => {
  it.each([
    ['a v1.37 successful preemption in the condition', podWith(placement), [], 'condition', false],
    ['a v1.37 successful preemption in the event alone', podWith(), [event(placement)], 'event', false],
    ['an event cut at 1024 bytes', podWith(), [event(cut)], 'event', true],
    ['the condition, even when the event was cut', podWith(long), [event(cut)], 'condition', false],
    ['a short event ending in " ..."', podWith(), [event('0/2 nodes are available: 2 Insufficient cpu. ...')], 'event', false],
  ] as const)('%s', (_name, pod, events, source, truncated) => {
    const words = schedulerWords(pod, [...events]);
    expect(words.source).toBe(source);
    expect(words.truncated).toBe(truncated);
  });
});

describe('compareWithScheduler', () => {
  it('v1.37: a successful preemption agrees, with no cut claimed', () => {
    const a = compareWithScheduler(schedulerWords(podWith(placement), []), [short('worker-1'), short('worker-2')], [], true, false);
    expect(a).toMatchObject({ agrees: true, truncated: false, likelyCauses: [], schedulerTally: { 'NodeResourcesFit: Insufficient cpu': 2 } });
    expect(a.parsed?.truncated).toBe(false);
    expect(a.parsed?.preemption?.placement).toEqual({ node: 'worker-1', victims: 1 });
  });

  it('the same words from an event are not a cut either', () => {
    const a = compareWithScheduler(schedulerWords(podWith(), [event(placement)]), [short('worker-1'), short('worker-2')], [], true, false);
    expect(a).toMatchObject({ source: 'event', agrees: true, truncated: false, likelyCauses: [] });
  });

  it('a cut event says so', () => {
    const a = compareWithScheduler(schedulerWords(podWith(), [event(cut)]), [short('worker-1'), short('worker-2')], [], true, false);
    expect(a.truncated).toBe(true);
    expect(a.likelyCauses).toContain('truncatedEvent');
  });
});

describe('likely causes of a difference: what the input shows first, the cluster changing last', () => {
  const fits = (name: string): NodeVerdict => ({ name, fits: true, verdict: 'fits', pods: 0, unchecked: [], reasons: [] }) as unknown as NodeVerdict;
  const differs = () => schedulerWords(podWith('0/2 nodes are available: 2 Insufficient cpu.'), []);
  const evidence = (over: Partial<DisagreementEvidence> = {}): DisagreementEvidence => ({ nominatedOn: [], namespacesUnread: false, notModelled: [], changes: [], changeCount: 0, ...over });

  it.each([
    ['nothing in the input explains it: the cluster changed, undated', evidence(), ['clusterChanged']],
    ['pods nominated to a node come first', evidence({ nominatedOn: ['worker-1'] }), ['nominatedPods', 'clusterChanged']],
    ['another scheduler, then changes dated after the attempt, which replace the undated change', evidence({ schedulerName: 'batch', changeCount: 1, changes: [{ kind: 'Pod', namespace: 'a', name: 'b', what: 'created', at: 1 }] }), ['nonDefaultScheduler', 'newerThanAttempt']],
    ['unreadable namespaces and unmodelled plugins before the rest', evidence({ namespacesUnread: true, notModelled: ['DynamicResources'] }), ['namespacesUnread', 'notModelled', 'clusterChanged']],
  ] as const)('%s', (_name, e, causes) => {
    const a = compareWithScheduler(differs(), [short('worker-1'), fits('worker-2')], [], true, false, () => e);
    expect(a.agrees).toBe(false);
    expect(a.likelyCauses).toEqual(causes);
    expect(a.evidence).toEqual(e);
  });

  it('an agreement asks for no evidence', () => {
    const a = compareWithScheduler(differs(), [short('worker-1'), short('worker-2')], [], true, false, () => {
      throw new Error('evidence read for an agreement');
    });
    expect(a).toMatchObject({ agrees: true, likelyCauses: [] });
    expect(a.evidence).toBeUndefined();
  });
});

describe('pods left unread on nodes node objects rule out', () => {
  // The pod asks more cpu than any node has: node objects alone rule every node out, so a live
  // read reads no pod (podsReadOn: []). The scheduler, which has the pods, also counts the
  // memory that node-a's pods use up and the pod count node-b is at.
  const nodes = [
    node('node-a').allocatable({ cpu: '4', memory: '8Gi', pods: '110' }).obj(),
    node('node-b').allocatable({ cpu: '4', memory: '8Gi', pods: '1' }).obj(),
    node('node-c').allocatable({ cpu: '4', memory: '8Gi', pods: '110' }).obj(),
  ];
  const message = '0/3 nodes are available: 3 Insufficient cpu, 1 Insufficient memory, 1 Too many pods.';
  const target = pod('big').req({ cpu: '8', memory: '2Gi' }).with((p) => (p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }] })).obj();
  const onNodes = [pod('full', 'other').req({ memory: '7Gi' }).on('node-a').phase('Running').obj(), pod('one', 'other').on('node-b').phase('Running').obj()];

  it('read as a live read leaves them (no pod read): cannot confirm, the unread pods named, not "the cluster changed"', () => {
    const snapshot = { ...snapshotOf({ nodes, pods: [target] }, [], 'live'), podsReadOn: [] };
    const d = diagnoseOne(snapshot);
    expect(d.scheduler).toMatchObject({ agrees: null, likelyCauses: ['podsUnread'] });
    expect(d.scheduler.differences.map((x) => x.key).sort()).toEqual(['NodeResourcesFit: Insufficient memory', 'NodeResourcesFit: Too many pods']);
  });

  it('with every pod read, the replay counts what the scheduler counts and agrees', () => {
    expect(diagnoseOne(snapshotOf({ nodes, pods: [target, ...onNodes] }, [], 'live')).scheduler).toMatchObject({ agrees: true });
  });

  it('a snapshot that does not say which nodes were read (a dump) still differs: nothing explains it', () => {
    expect(diagnoseOne(snapshotOf({ nodes, pods: [target] })).scheduler.agrees).toBe(false);
  });

  function diagnoseOne(snapshot: Snapshot) {
    const outcome = diagnose(ruleSet, snapshot, { namespace: 'default', name: 'big' });
    if (outcome.kind !== 'diagnosis') throw new Error(`no diagnosis: ${outcome.kind}`);
    return outcome.diagnosis;
  }
});
