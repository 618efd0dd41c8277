import { describe, expect, it } from 'vitest';
import { specTarget } from '../../../src/engine/fixes/index.js';
import { replay } from '../../../src/engine/fixes/replay.js';
import { buildContext } from '../../../src/engine/context.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { node, pod, snapshotOf } from '../../support/builders.js';

const pod0 = { namespace: 'ns', name: 'p' };
const ref = (kind: string, name: string) => ({ kind, namespace: 'ns', name });

describe('where a change to the pod spec goes', () => {
  it.each([
    { name: 'a Deployment\'s pod: the Deployment\'s template', owners: [ref('ReplicaSet', 'web-1'), ref('Deployment', 'web')], want: { kind: 'template', owner: ref('Deployment', 'web'), path: ['spec', 'template', 'spec'] } },
    { name: 'a CronJob\'s pod: the job template inside the CronJob', owners: [ref('Job', 'r-1'), ref('CronJob', 'r')], want: { kind: 'template', owner: ref('CronJob', 'r'), path: ['spec', 'jobTemplate', 'spec', 'template', 'spec'] } },
    { name: 'a StatefulSet\'s pod: its template', owners: [ref('StatefulSet', 'db')], want: { kind: 'template', owner: ref('StatefulSet', 'db'), path: ['spec', 'template', 'spec'] } },
    { name: 'a chain ending in an unknown controller: the last known one', owners: [ref('ReplicaSet', 'x-1'), ref('Rollout', 'x')], want: { kind: 'template', owner: ref('ReplicaSet', 'x-1'), path: ['spec', 'template', 'spec'] } },
    { name: 'a pod owned by an unknown controller: the pod', owners: [ref('Workflow', 'w')], want: { kind: 'pod', pod: pod0 } },
    { name: 'a pod without owner: the pod', owners: [], want: { kind: 'pod', pod: pod0 } },
  ])('$name', ({ owners, want }) => {
    expect(specTarget(pod0, owners)).toEqual(want);
  });
});

describe('the replay', () => {
  it('calls a node whose unchecked plugin stays unchecked unproven, never fit', () => {
    const target = pod('p').obj();
    const snapshot = snapshotOf({ nodes: [node('n').taint('a', 'b', 'NoSchedule').obj()], pods: [target] }, [{ collection: 'pods', cause: 'onlyTarget' }]);
    const ctx = buildContext(snapshot, target);
    const toleration = { key: 'a', operator: 'Equal', value: 'b', effect: 'NoSchedule' };
    const result = replay(ruleSet.rules, ctx, [{ kind: 'tolerateTaint', cause: 'TaintToleration', taint: { key: 'a', value: 'b', effect: 'NoSchedule' }, toleration }], ['n']);
    expect(result.fits).toEqual([]);
    expect(result.unproven).toEqual(['n']);
  });

  it('does not confirm a node whose pods a live read skipped: it looked empty, not proven empty', () => {
    const target = pod('p').obj();
    const snapshot = { ...snapshotOf({ nodes: [node('read').cordon().obj(), node('skipped').cordon().obj()], pods: [target] }), podsReadOn: ['read'] };
    const ctx = buildContext(snapshot, target);
    const uncordon = (name: string) => ({ kind: 'uncordon' as const, cause: 'NodeUnschedulable' as const, node: name });
    const result = replay(ruleSet.rules, ctx, [uncordon('read'), uncordon('skipped')], ['read', 'skipped']);
    expect(result.fits).toEqual(['read']);
    expect(result.unproven).toEqual(['skipped']);
  });

  it('leaves the original context untouched', () => {
    const target = pod('p').obj();
    const ctx = buildContext(snapshotOf({ nodes: [node('n').cordon().obj()], pods: [target] }), target);
    const before = structuredClone(ctx.snapshot.objects.nodes);
    expect(replay(ruleSet.rules, ctx, [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: 'n' }], ['n']).fits).toEqual(['n']);
    expect(ctx.snapshot.objects.nodes).toEqual(before);
  });
});
