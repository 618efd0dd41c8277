// A fix's patched copy of the cluster: the original is never edited, and what a change cannot
// alter is shared rather than copied (a pod as served carries kilobytes of managedFields; a
// patched list of 5,000 nodes keeps the lowest priority on it unless preemption removes a pod).
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../../src/engine/context.js';
import { patchedContext, podWith } from '../../../src/engine/fixes/patch.js';
import { mayPreempt } from '../../../src/engine/fixes/preemption.js';
import type { Change } from '../../../src/engine/fixes/types.js';
import { node, pod, snapshotOf } from '../../support/builders.js';

const cut: Change = { kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'cpu', from: 2000n, to: 1500n };

describe('podWith', () => {
  it('edits a copy of the spec, shares the rest, and leaves the pod as it was', () => {
    const original = pod('p').req({ cpu: '2' }).obj();
    original.metadata!.managedFields = [{ manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': {} } }];
    const before = structuredClone(original);
    const patched = podWith(original, [cut]);
    expect(patched.spec?.containers[0]?.resources?.requests?.['cpu']).toBe('1500m');
    expect(original).toEqual(before);
    expect(patched.spec).not.toBe(original.spec);
    expect(patched.metadata).toBe(original.metadata);
  });

  it('a pod without a spec gets one on the copy only', () => {
    const bare = { metadata: { name: 'p', namespace: 'default' } };
    const patched = podWith(bare, [cut]);
    expect(bare).toEqual({ metadata: { name: 'p', namespace: 'default' } });
    expect(patched.spec).toBeDefined();
  });

  it('no change to the spec: the same object', () => {
    const original = pod('p').obj();
    expect(podWith(original, [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: 'n' }])).toBe(original);
  });
});

describe('the lowest priority on a patched list of nodes', () => {
  const nodes = [node('a').cordon().obj(), node('b').obj()];
  const low = pod('low').req({ cpu: '1' }).on('b').obj();
  low.spec!.priority = 10;
  const target = pod('t').obj();
  target.spec!.priority = 100;

  it('an uncordon keeps it; a preemption of the only lower pod takes it away', () => {
    const ctx = buildContext(snapshotOf({ nodes, pods: [low, target] }), target);
    expect(mayPreempt(ctx)).toBe(true);
    expect(mayPreempt(patchedContext(ctx, [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: 'a' }]))).toBe(true);
    const preempt: Change = { kind: 'preempt', cause: 'NodeResourcesFit', node: 'b', victims: [{ namespace: 'default', name: 'low', priority: 10 }], budgetsKnown: true };
    expect(mayPreempt(patchedContext(ctx, [preempt]))).toBe(false);
  });
});
