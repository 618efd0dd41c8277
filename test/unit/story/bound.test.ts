// The story of a bound pod that is not running (engine/story/bound.ts) and its words.
import type { V1ContainerStatus, V1NodeCondition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { boundStory, containerWaits, initRunning, newestTime } from '../../../src/engine/story/bound.js';
import { groupByReason } from '../../../src/engine/story/events.js';
import { age, instant } from '../../../src/messages/bound.js';
import type { ClusterEvent } from '../../../src/snapshot/types.js';
import { node, pod, snapshotOf } from '../../support/builders.js';

const t = (hhmm: string) => Date.parse(`2026-03-07T${hhmm}:00Z`);

function event(reason: string, message: string, at: string, count = 1, type = 'Warning'): ClusterEvent {
  return { type, reason, message, involved: { kind: 'Pod', namespace: 'default', name: 'p' }, time: t(at), count, reporter: 'kubelet' };
}

function ready(status: string, since: string, reason?: string): V1NodeCondition {
  return { type: 'Ready', status, lastTransitionTime: new Date(t(since)), lastHeartbeatTime: new Date(t(since)), ...(reason ? { reason } : {}) };
}

const waiting = (name: string, reason: string, restartCount = 0, extra: Partial<V1ContainerStatus> = {}): V1ContainerStatus => ({
  name,
  image: 'i',
  imageID: '',
  ready: false,
  restartCount,
  state: { waiting: { reason } },
  ...extra,
});

describe('groupByReason', () => {
  it('keeps one entry per reason, newest first, counts summed and distinct messages newest first', () => {
    const groups = groupByReason([
      event('Failed', 'Failed to pull image "x": not found', '13:06', 5),
      event('Failed', 'Error: ErrImagePull', '13:06', 5),
      event('Failed', 'Error: ImagePullBackOff', '13:21', 51),
      event('FailedMount', 'configmap "c" not found', '13:10', 3),
    ]);
    expect(groups.map((g) => [g.reason, g.count, g.time])).toEqual([
      ['Failed', 61, t('13:21')],
      ['FailedMount', 3, t('13:10')],
    ]);
    expect(groups[0]?.messages[0]).toBe('Error: ImagePullBackOff');
    expect(groups[0]?.messages).toHaveLength(3);
  });

  it('keeps three messages per reason and counts the others', () => {
    const groups = groupByReason(['a', 'b', 'c', 'd', 'e', 'a'].map((m, i) => event('FailedMount', m, `13:0${i}`)));
    expect(groups).toEqual([{ reason: 'FailedMount', type: 'Warning', count: 6, time: t('13:05'), messages: ['a', 'e', 'd'], moreMessages: 2, reporter: 'kubelet' }]);
  });
});

describe('boundStory', () => {
  it('a pod bound to a NotReady node with no container status: when, the Ready condition, and silence from the kubelet', () => {
    const p = pod('p').on('n').with((x) => (x.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: new Date(t('13:02')) }] })).obj();
    const n = node('n').with((x) => (x.status!.conditions = [ready('Unknown', '12:50', 'NodeStatusUnknown')])).obj();
    const story = boundStory(snapshotOf({ pods: [p], nodes: [n] }), p, n, []);
    expect(story).toEqual({
      scheduledAt: t('13:02'),
      nodeReadyCondition: { status: 'Unknown', reason: 'NodeStatusUnknown', since: t('12:50'), heartbeat: t('12:50') },
      containerStatusesReported: false,
      waiting: [],
      warnings: [],
      asOf: t('13:02'),
    });
  });

  it('takes the Scheduled event when the condition has no time', () => {
    const p = pod('p').on('n').obj();
    const story = boundStory(snapshotOf({ pods: [p] }), p, undefined, [event('Scheduled', 'Successfully assigned', '13:00', 1, 'Normal')]);
    expect(story.scheduledAt).toBe(t('13:00'));
    expect(story.nodeReadyCondition).toBeUndefined();
  });

  it('only Warning events are told, by reason', () => {
    const p = pod('p').on('n').obj();
    const story = boundStory(snapshotOf({ pods: [p] }), p, undefined, [event('Pulling', 'Pulling image', '13:00', 1, 'Normal'), event('FailedMount', 'm', '13:01')]);
    expect(story.warnings.map((w) => w.reason)).toEqual(['FailedMount']);
  });
});

describe('containerWaits and initRunning', () => {
  const spec = pod('p')
    .init('sidecar', {}, true)
    .init('migrate', {})
    .init('warm', {})
    .on('n');

  it('lists init containers first, in spec order whatever the status order, with restarts and the last exit', () => {
    const p = spec
      .with((x) => {
        x.status = {
          phase: 'Pending',
          initContainerStatuses: [
            waiting('warm', 'PodInitializing'),
            waiting('migrate', 'CrashLoopBackOff', 5, { lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: new Date(t('13:20')) } } }),
            { name: 'sidecar', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: new Date(t('13:03')) } } },
          ],
          containerStatuses: [waiting('app', 'PodInitializing')],
        };
      })
      .obj();
    expect(containerWaits(p)).toEqual([
      { container: 'migrate', init: true, reason: 'CrashLoopBackOff', restartCount: 5, lastTermination: { exitCode: 1, reason: 'Error', finishedAt: t('13:20') } },
      { container: 'warm', init: true, reason: 'PodInitializing', restartCount: 0 },
      { container: 'app', init: false, reason: 'PodInitializing', restartCount: 0 },
    ]);
    // The running sidecar holds nothing back.
    expect(initRunning(p)).toBeUndefined();
    expect(newestTime(snapshotOf({ pods: [p] }), p, undefined)).toBe(t('13:20'));
  });

  it('names an ordinary init container that is still running', () => {
    const p = spec
      .with((x) => {
        x.status = {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'sidecar', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: new Date(t('13:03')) } } },
            { name: 'migrate', image: 'i', imageID: '', ready: false, restartCount: 2, state: { running: { startedAt: new Date(t('13:05')) } } },
          ],
        };
      })
      .obj();
    expect(initRunning(p)).toEqual({ container: 'migrate', restartCount: 2, startedAt: t('13:05') });
  });
});

describe('words for times', () => {
  it.each([
    [45_000, '45s'],
    [119_000, '119s'],
    [12 * 60_000, '12m'],
    [(3 * 60 + 20) * 60_000, '3h20m'],
    [9 * 3_600_000, '9h'],
    [4 * 86_400_000, '4d'],
    [-5_000, '0s'],
  ])('age(%d) is %s', (ms, text) => {
    expect(age(ms)).toBe(text);
  });

  it('an instant is ISO 8601 to the second', () => {
    expect(instant(t('13:02'))).toBe('2026-03-07T13:02:00Z');
  });
});
