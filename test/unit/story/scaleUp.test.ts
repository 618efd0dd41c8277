// When a pod waits for a scale-up, and when none is coming (src/engine/story/scaleUp.ts): the
// autoscaler's newest word must be as new as the scheduler's last failure, a later refusal
// supersedes a scale-up, and cluster-autoscaler's status ConfigMap confirms or refutes a
// scale-up. Event texts in the formats of the autoscalers' sources (see autoscaler.test.ts).
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { scaleUpStage } from '../../../src/engine/story/scaleUp.js';
import { describeGap } from '../../../src/messages/gaps.js';
import { emptyCollections, type ClusterEvent, type Gap, type Snapshot } from '../../../src/snapshot/types.js';

const t = (hhmmss: string) => Date.parse(`2026-12-01T${hhmmss}Z`);

function event(reason: string, message: string, time: string, reporter = 'cluster-autoscaler'): ClusterEvent {
  return { type: reason === 'FailedScheduling' ? 'Warning' : 'Normal', reason, message, involved: { kind: 'Pod', namespace: 'shop', name: 'web-0' }, time: t(time), count: 1, reporter };
}

const triggered = (time: string, group = 'ng-a') => event('TriggeredScaleUp', `pod triggered scale-up: [{${group} 1->3 (max: 10)}]`, time);
const refused = (time: string) => event('NotTriggerScaleUp', "pod didn't trigger scale-up: 2 Insufficient cpu", time);
const failed = (time: string) => event('FailedScheduling', '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.', time, 'default-scheduler');

function status(time: string, groups: { name: string; scaleUp: string; since?: string }[]): string {
  return [
    `time: ${time.replace('T', ' ')} +0000 UTC`,
    'autoscalerStatus: Running',
    'clusterWide:',
    '  health:',
    '    status: Healthy',
    'nodeGroups:',
    ...groups.flatMap((g) => [`- name: ${g.name}`, '  scaleUp:', `    status: ${g.scaleUp}`, ...(g.since ? [`    lastTransitionTime: "2026-12-01T${g.since}Z"`] : [])]),
  ].join('\n');
}

function snapshot(configMapStatus?: string, gaps: Gap[] = []): Snapshot {
  const objects = emptyCollections();
  if (configMapStatus !== undefined) objects.clusterAutoscalerStatus.push({ metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: { status: configMapStatus } });
  return { source: { kind: 'dump', description: 'test' }, objects, gaps };
}

const pod: V1Pod = { metadata: { name: 'web-0', namespace: 'shop' }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } };
const forbidden: Gap = { collection: 'clusterAutoscalerStatus', cause: 'forbidden', permission: { verb: 'get', resource: 'configmaps', scope: 'namespace kube-system' } };

describe('scaleUpStage', () => {
  it.each([
    { name: 'a scale-up newer than the last failure: waiting, by the event', events: [failed('10:00:00'), triggered('10:00:10')], want: { stage: 'WaitingForScaleUp', confirmedBy: 'event' } },
    { name: 'a scale-up in the same second as the failure it answers: waiting', events: [failed('10:00:10'), triggered('10:00:10')], want: { stage: 'WaitingForScaleUp' } },
    { name: 'a scale-up older than the last failure, no status: history (Unschedulable)', events: [triggered('10:00:10'), failed('10:05:00')], want: { stage: 'Unschedulable', autoscaler: { state: 'scaleUpTriggered' } } },
    {
      name: 'a scale-up older than the last failure, the status after it shows the group InProgress: waiting, by the status',
      events: [triggered('10:00:10'), failed('10:05:00')],
      status: status('2026-12-01T10:06:00', [{ name: 'ng-a', scaleUp: 'InProgress', since: '10:00:12' }]),
      want: { stage: 'WaitingForScaleUp', confirmedBy: 'statusConfigMap' },
    },
    {
      name: 'the group InProgress in a status written before the last failure: not confirmed',
      events: [triggered('10:00:10'), failed('10:05:00')],
      status: status('2026-12-01T10:04:00', [{ name: 'ng-a', scaleUp: 'InProgress' }]),
      want: { stage: 'Unschedulable' },
    },
    {
      name: 'the group backed off after the scale-up: not possible, cause backoff',
      events: [failed('10:00:00'), triggered('10:00:10')],
      status: status('2026-12-01T10:06:00', [{ name: 'ng-a', scaleUp: 'Backoff', since: '10:03:00' }]),
      want: { stage: 'ScaleUpNotPossible', cause: 'backoff', backedOff: [{ name: 'ng-a', scaleUp: 'Backoff' }] },
    },
    {
      name: 'a status older than the scale-up says nothing of it (its Backoff is an earlier one)',
      events: [failed('10:00:00'), triggered('10:00:10')],
      status: status('2026-12-01T09:59:00', [{ name: 'ng-a', scaleUp: 'Backoff' }]),
      want: { stage: 'WaitingForScaleUp', confirmedBy: 'event' },
    },
    { name: 'a refusal after the scale-up supersedes it: not possible', events: [failed('10:00:00'), triggered('10:00:10'), refused('10:01:00')], want: { stage: 'ScaleUpNotPossible', cause: 'noScaleUp' } },
    { name: 'a refusal older than the last failure: history', events: [refused('10:00:10'), failed('10:05:00')], want: { stage: 'Unschedulable', autoscaler: { state: 'scaleUpNotPossible' } } },
    {
      name: "Karpenter's FailedScheduling is not the scheduler's failure: its Nominated still answers",
      events: [failed('10:00:00'), event('Nominated', 'Pod should schedule on: nodeclaim/default-x7k2q', '10:00:05', 'karpenter'), event('FailedScheduling', 'Failed to schedule pod, incompatible with nodepool "gpu", incompatible requirements', '10:00:01', 'karpenter')],
      want: { stage: 'WaitingForScaleUp', autoscaler: { autoscaler: 'karpenter', nodeClaim: 'default-x7k2q' } },
    },
  ])('$name', ({ events, status: text, want }) => {
    expect(scaleUpStage(snapshot(text), pod, events)).toMatchObject(want);
  });

  it('no autoscaler event: no autoscaler stage', () => {
    expect(scaleUpStage(snapshot(), pod, [failed('10:00:00')])).toBeUndefined();
  });

  it('says what the status ConfigMap says, that it is absent, or nothing when it could not be read (the gap says why)', () => {
    const events = [failed('10:00:00'), triggered('10:00:10')];
    expect(scaleUpStage(snapshot(status('2026-12-01T10:06:00', [{ name: 'ng-a', scaleUp: 'InProgress' }, { name: 'ng-z', scaleUp: 'NoActivity' }])), pod, events)).toMatchObject({
      autoscalerStatus: { read: 'found', format: 'yaml', clusterHealth: 'Healthy', groups: [{ name: 'ng-a', scaleUp: 'InProgress' }] },
    });
    expect(scaleUpStage(snapshot(), pod, events)).toMatchObject({ stage: 'WaitingForScaleUp', autoscalerStatus: { read: 'absent', configMap: { namespace: 'kube-system', name: 'cluster-autoscaler-status' } } });
    expect(scaleUpStage(snapshot('not a status'), pod, events)).toMatchObject({ autoscalerStatus: { read: 'unreadable' } });
    const gap = scaleUpStage(snapshot(undefined, [forbidden]), pod, events);
    expect(gap).toMatchObject({ stage: 'WaitingForScaleUp', confirmedBy: 'event' });
    expect(gap && 'autoscalerStatus' in gap).toBe(false);
  });

  it('words a refused read as a gap with the permission to ask for', () => {
    expect(describeGap(forbidden)).toBe(
      `cannot read cluster-autoscaler's status (configmap kube-system/cluster-autoscaler-status): forbidden; needs "get configmaps" in namespace kube-system (see the README's Permissions section)`,
    );
  });
});
