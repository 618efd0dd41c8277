// The autoscalers' pod events, in the formats of their sources (see src/engine/story/autoscaler.ts
// for the files and commits): cluster-autoscaler's TriggeredScaleUp and NotTriggerScaleUp,
// Karpenter's Nominated and FailedScheduling.
import { describe, expect, it } from 'vitest';
import { autoscalerStory } from '../../../src/engine/story/autoscaler.js';
import type { ClusterEvent } from '../../../src/snapshot/types.js';

function event(reason: string, message: string, time: number, reporter = 'cluster-autoscaler'): ClusterEvent {
  return { type: reason === 'FailedScheduling' ? 'Warning' : 'Normal', reason, message, involved: { kind: 'Pod', namespace: 'shop', name: 'web-0' }, time, count: 1, reporter };
}

describe('autoscalerStory', () => {
  it.each([
    {
      name: 'a scale-up of two groups (ScaleUpInfos printed with %v)',
      events: [event('TriggeredScaleUp', 'pod triggered scale-up: [{ng-a 1->3 (max: 10)} {eks-ng-b-1a2b 0->1 (max: 4)}]', 5)],
      story: { autoscaler: 'cluster-autoscaler', state: 'scaleUpTriggered', groups: [{ group: 'ng-a', from: 1, to: 3, max: 10 }, { group: 'eks-ng-b-1a2b', from: 0, to: 1, max: 4 }], since: 5 },
    },
    {
      name: 'no scale-up: the reasons with their node-group counts, a reason holding a comma kept whole',
      events: [event('NotTriggerScaleUp', "pod didn't trigger scale-up: 1 max node group size reached, 2 node(s) had untolerated taint {dedicated: gpu}, 1 Insufficient cpu, memory", 7)],
      story: { autoscaler: 'cluster-autoscaler', state: 'scaleUpNotPossible', reasons: [{ count: 1, reason: 'max node group size reached' }, { count: 2, reason: 'node(s) had untolerated taint {dedicated: gpu}' }, { count: 1, reason: 'Insufficient cpu, memory' }], since: 7 },
    },
    {
      name: 'no scale-up, the cluster at its total maximum',
      events: [event('NotTriggerScaleUp', "pod didn't trigger scale-up: max total nodes in cluster reached", 7)],
      story: { state: 'scaleUpNotPossible', reasons: [{ reason: 'max total nodes in cluster reached' }] },
    },
    {
      name: 'the wording before 1.22',
      events: [event('NotTriggerScaleUp', "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 3 node(s) didn't match node selector", 7)],
      story: { state: 'scaleUpNotPossible', reasons: [{ count: 3, reason: "node(s) didn't match node selector" }] },
    },
    {
      name: 'the newest event wins: a scale-up after an earlier refusal',
      events: [event('TriggeredScaleUp', 'pod triggered scale-up: [{ng-a 0->1 (max: 3)}]', 9), event('NotTriggerScaleUp', "pod didn't trigger scale-up: 1 Insufficient cpu", 2)],
      story: { state: 'scaleUpTriggered', groups: [{ group: 'ng-a', from: 0, to: 1, max: 3 }] },
    },
    {
      name: 'Karpenter nominates a NodeClaim and a node',
      events: [event('Nominated', 'Pod should schedule on: nodeclaim/default-x7k2q, node/ip-10-0-1-2', 3, 'karpenter')],
      story: { autoscaler: 'karpenter', state: 'scaleUpTriggered', nodeClaim: 'default-x7k2q', node: 'ip-10-0-1-2' },
    },
    {
      name: "Karpenter's refusal, one reason per NodePool",
      events: [event('FailedScheduling', 'Failed to schedule pod, incompatible with nodepool "gpu", incompatible requirements; all available instance types exceed limits for nodepool "default"', 3, 'karpenter')],
      story: { autoscaler: 'karpenter', state: 'scaleUpNotPossible', reasons: [{ reason: 'incompatible with nodepool "gpu", incompatible requirements' }, { reason: 'all available instance types exceed limits for nodepool "default"' }] },
    },
    {
      // Verbatim from the real KWOK provider (sigs.k8s.io/karpenter v1.15.0; test/scenarios/captured-1.37-karpenter-taint-typo):
      // per-NodePool errors joined by multierr's "; ", a taint named by serrors.Wrap (pkg/scheduling/taints.go).
      name: "Karpenter v1.15.0's refusal: one error per NodePool, the taint in serrors' parentheses",
      events: [event('FailedScheduling', 'Failed to schedule pod, incompatible requirements, key pool, pool In [gpu] not in pool In [small]; did not tolerate taint (taint=dedicated=gpu:NoSchedule); incompatible requirements, label "pool" does not have known values (typo of "karpenter.sh/nodepool"?)', 3, 'karpenter')],
      story: {
        autoscaler: 'karpenter',
        state: 'scaleUpNotPossible',
        reasons: [{ reason: 'incompatible requirements, key pool, pool In [gpu] not in pool In [small]' }, { reason: 'did not tolerate taint (taint=dedicated=gpu:NoSchedule)' }, { reason: 'incompatible requirements, label "pool" does not have known values (typo of "karpenter.sh/nodepool"?)' }],
      },
    },
    {
      name: "Karpenter v1.15.0's nomination of a NodeClaim alone",
      events: [event('Nominated', 'Pod should schedule on: nodeclaim/general-jltp6', 3, 'karpenter')],
      story: { autoscaler: 'karpenter', state: 'scaleUpTriggered', nodeClaim: 'general-jltp6' },
    },
  ])('$name', ({ events, story }) => {
    expect(autoscalerStory(events)).toMatchObject(story);
  });

  it("says nothing for the scheduler's own FailedScheduling, or with no autoscaler event", () => {
    expect(autoscalerStory([event('FailedScheduling', '0/3 nodes are available: 3 Insufficient cpu.', 1, 'default-scheduler')])).toBeUndefined();
    expect(autoscalerStory([])).toBeUndefined();
  });
});
