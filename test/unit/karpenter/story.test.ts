// What Karpenter's objects add to its events (src/engine/karpenter/index.ts): the nominated
// NodeClaim's progress, and its refusal reconciled with our replay of each NodePool. Messages
// and conditions in the formats of sigs.k8s.io/karpenter v1.15.0 (events.go, taints.go,
// scheduler.go; the NodeClaim lifecycle's condition reasons), as seen from the real KWOK
// provider in test/scenarios/captured-1.37-karpenter-*.
import { describe, expect, it } from 'vitest';
import type { StageDetail } from '../../../src/engine/stage.js';
import { withKarpenter } from '../../../src/engine/karpenter/index.js';
import { autoscalerStory } from '../../../src/engine/story/autoscaler.js';
import type { ClusterEvent, KarpenterCondition, KarpenterNodeClaim, KarpenterNodePool } from '../../../src/snapshot/types.js';
import { pod, snapshotOf } from '../../support/builders.js';

const t0 = Date.parse('2026-12-01T10:58:29Z');

function event(reason: string, message: string, time = t0): ClusterEvent {
  return { type: reason === 'Nominated' ? 'Normal' : 'Warning', reason, message, involved: { kind: 'Pod', namespace: 'default', name: 'web' }, time, count: 1, reporter: 'karpenter' };
}

function claim(name: string, conditions: KarpenterCondition[], nodePool = 'general'): KarpenterNodeClaim {
  return { apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', metadata: { name, labels: { 'karpenter.sh/nodepool': nodePool }, creationTimestamp: new Date(t0 - 2000) }, status: { conditions } };
}

const at = (s: number) => new Date(t0 + s * 1000).toISOString();
const gpu: KarpenterNodePool = {
  metadata: { name: 'gpu' },
  spec: { template: { metadata: { labels: { pool: 'gpu' } }, spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } } },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};

function story(events: ClusterEvent[], objects: Parameters<typeof snapshotOf>[0], target = pod('web').obj(), gaps: Parameters<typeof snapshotOf>[1] = []) {
  const autoscaler = autoscalerStory(events);
  if (!autoscaler) throw new Error('no story');
  const detail = withKarpenter(snapshotOf({ ...objects, events }, gaps), target, { stage: 'Unschedulable', autoscaler } as StageDetail);
  if (!('autoscaler' in detail) || !detail.autoscaler) throw new Error('no autoscaler');
  return detail.autoscaler;
}

describe("the nominated NodeClaim's progress", () => {
  const nominated = [event('Nominated', 'Pod should schedule on: nodeclaim/general-jltp6', t0 + 1000)];
  it.each([
    {
      name: 'launched, waiting to register (NodeNotFound), as the capture shows it',
      conditions: [
        { type: 'Launched', status: 'True', reason: 'Launched', lastTransitionTime: at(0) },
        { type: 'Registered', status: 'Unknown', reason: 'NodeNotFound', message: 'Node not registered with cluster', lastTransitionTime: at(0) },
        { type: 'Initialized', status: 'Unknown', reason: 'AwaitingReconciliation', lastTransitionTime: at(0) },
        { type: 'Ready', status: 'Unknown', reason: 'ReconcilingDependents', lastTransitionTime: at(0) },
      ],
      claim: { found: true, nodePool: 'general', waitingFor: 'Registered' },
      failing: false,
    },
    {
      name: 'registered, not initialized while a startup taint is there',
      conditions: [
        { type: 'Launched', status: 'True', lastTransitionTime: at(0) },
        { type: 'Registered', status: 'True', lastTransitionTime: at(5) },
        { type: 'Initialized', status: 'Unknown', reason: 'StartupTaintsExist', message: 'StartupTaint "agent-not-ready:NoSchedule" still exists', lastTransitionTime: at(5) },
      ],
      claim: { waitingFor: 'Initialized' },
      failing: false,
    },
    {
      name: 'a launch the cloud provider refuses (Launched Unknown, LaunchFailed)',
      conditions: [{ type: 'Launched', status: 'Unknown', reason: 'LaunchFailed', message: 'insufficient capacity', lastTransitionTime: at(0) }],
      claim: { waitingFor: 'Launched', launchFailing: { reason: 'LaunchFailed', message: 'insufficient capacity' } },
      failing: true,
    },
    {
      name: 'not launched yet (AwaitingReconciliation is no failure)',
      conditions: [{ type: 'Launched', status: 'Unknown', reason: 'AwaitingReconciliation', lastTransitionTime: at(0) }],
      claim: { waitingFor: 'Launched' },
      failing: false,
    },
    {
      name: 'ready: nothing to wait for',
      conditions: ['Launched', 'Registered', 'Initialized', 'Ready'].map((type) => ({ type, status: 'True', lastTransitionTime: at(1) })),
      claim: { found: true },
      failing: false,
    },
  ])('$name', ({ conditions, claim: expected, failing }) => {
    const a = story(nominated, { nodeClaims: [claim('general-jltp6', conditions)] });
    if (a.state !== 'scaleUpTriggered' || a.autoscaler !== 'karpenter') throw new Error('expected a scale-up');
    expect(a.claim).toMatchObject({ name: 'general-jltp6', ...expected });
    expect(a.claim?.launchFailing !== undefined).toBe(failing);
    expect(a.claim?.conditions.map((c) => c.type)).toEqual(['Launched', 'Registered', 'Initialized', 'Ready'].filter((t) => conditions.some((c) => c.type === t)));
  });

  it('a NodeClaim missing from a snapshot that read them is not found (deleted)', () => {
    const a = story(nominated, { nodeClaims: [] });
    expect(a).toMatchObject({ claim: { name: 'general-jltp6', found: false, conditions: [] } });
  });

  it('NodeClaims not in the input (a gap): nothing is said about it', () => {
    const a = story(nominated, {}, pod('web').obj(), [{ collection: 'nodeClaims', cause: 'absentFromDump' }]);
    expect(a).not.toHaveProperty('claim');
  });
});

describe("Karpenter's refusal against our replay", () => {
  const target = pod('train').nodeSelector({ pool: 'gpu' }).tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' }).obj();
  it.each([
    {
      name: 'the taint Karpenter names is the one our replay finds (v1.15.0 wording)',
      message: 'Failed to schedule pod, did not tolerate taint (taint=dedicated=gpu:NoSchedule); incompatible requirements, label "pool" does not have known values (typo of "karpenter.sh/nodepool"?)',
      pools: [gpu],
      reconciliation: { agrees: true, fittingNodePools: [], unexplained: [] },
    },
    {
      name: 'a taint Karpenter names that no NodePool carries is unexplained',
      message: 'Failed to schedule pod, did not tolerate taint (taint=team=ml:NoSchedule)',
      pools: [gpu],
      reconciliation: { agrees: false, unexplained: ['taint team=ml:NoSchedule'] },
    },
    {
      name: 'limits Karpenter says are exhausted, with room in the NodePool read, are unexplained',
      message: 'Failed to schedule pod, node limits have been exhausted for nodepool (NodePool=gpu)',
      pools: [gpu],
      reconciliation: { agrees: false, unexplained: ['limits of NodePool gpu'] },
    },
    {
      name: 'the wording before v1.x: incompatible with nodepool "x"',
      message: 'Failed to schedule pod, all available instance types exceed limits for nodepool "gpu"',
      pools: [{ ...gpu, spec: { ...gpu.spec, limits: { cpu: '4' } }, status: { ...gpu.status, resources: { cpu: '4' } } }],
      reconciliation: { agrees: true },
    },
    {
      name: 'a NodePool our checks pass although Karpenter refused: it knows more (instance types)',
      message: 'Failed to schedule pod, no instance type has enough resources',
      pools: [{ metadata: { name: 'open' }, spec: { template: { metadata: { labels: { pool: 'gpu' } }, spec: {} } }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }],
      reconciliation: { agrees: false, fittingNodePools: ['open'], unexplained: [] },
    },
  ])('$name', ({ message, pools, reconciliation }) => {
    const a = story([event('FailedScheduling', message)], { nodePools: pools as KarpenterNodePool[] }, target);
    expect(a).toMatchObject({ state: 'scaleUpNotPossible', reconciliation });
  });

  it('no NodePool in the input: the story stays as Karpenter told it', () => {
    const a = story([event('FailedScheduling', 'Failed to schedule pod, did not tolerate taint (taint=dedicated=gpu:NoSchedule)')], {}, target);
    expect(a).not.toHaveProperty('nodePools');
    expect(a).not.toHaveProperty('reconciliation');
  });
});

// The scheduler fails the pod again once the claim's node exists but is still registering or
// initializing (tainted karpenter.sh/unregistered:NoExecute, then not ready): that later failure
// does not end the wait for the claim; a Ready, deleted or failing claim does.
describe('a scheduler failure newer than the nomination, while the NodeClaim comes up', () => {
  const events = [event('Nominated', 'Pod should schedule on: nodeclaim/general-jltp6', t0), { ...event('FailedScheduling', '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s).', t0 + 19_000), reporter: 'default-scheduler' }];
  const steps = (trueUpTo: number) => ['Launched', 'Registered', 'Initialized', 'Ready'].map((type, i) => ({ type, status: i < trueUpTo ? 'True' : 'Unknown', lastTransitionTime: at(i) }));
  it.each([
    { name: 'registered, not initialized: still waiting, held by the claim', claims: [claim('general-jltp6', steps(2))], stage: 'WaitingForScaleUp' },
    { name: 'launched, not registered: still waiting', claims: [claim('general-jltp6', steps(1))], stage: 'WaitingForScaleUp' },
    { name: 'Ready: the scheduler failed on a ready node, the wait is over', claims: [claim('general-jltp6', steps(4))], stage: 'Unschedulable' },
    { name: 'the claim is gone: no wait', claims: [], stage: 'Unschedulable' },
    { name: 'its launch fails: no wait', claims: [claim('general-jltp6', [{ type: 'Launched', status: 'False', reason: 'LaunchFailed', message: 'insufficient capacity', lastTransitionTime: at(0) }])], stage: 'Unschedulable' },
  ])('$name', ({ claims, stage }) => {
    const autoscaler = autoscalerStory(events);
    if (!autoscaler) throw new Error('no story');
    const detail = withKarpenter(snapshotOf({ nodeClaims: claims, events }), pod('web').obj(), { stage: 'Unschedulable', autoscaler } as StageDetail);
    expect(detail.stage).toBe(stage);
    if (detail.stage === 'WaitingForScaleUp') expect(detail).toMatchObject({ confirmedBy: 'nodeClaim', autoscaler: { claim: { name: 'general-jltp6', found: true } } });
  });
});
