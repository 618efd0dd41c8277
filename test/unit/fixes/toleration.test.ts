import { describe, expect, it } from 'vitest';
import { tolerationFor } from '../../../src/engine/fixes/toleration.js';
import { node, pod } from '../../support/builders.js';
import { fixesFor, outline } from '../../support/fixes.js';

describe('tolerating a taint', () => {
  it.each([
    { name: 'a taint with a value gets operator Equal and the value, character for character', taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, want: { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' } },
    { name: 'a taint without a value gets operator Exists and no value', taint: { key: 'gpu', effect: 'NoExecute' }, want: { key: 'gpu', operator: 'Exists', effect: 'NoExecute' } },
    { name: 'an empty value is no value', taint: { key: 'gpu', value: '', effect: 'NoSchedule' }, want: { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' } },
  ])('$name', ({ taint, want }) => {
    expect(tolerationFor(taint)).toEqual(want);
  });

  it('replaces the near-miss toleration, naming it, and the tainted nodes fit', () => {
    const target = pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' }, { key: 'other', operator: 'Exists' }).obj();
    const fixes = fixesFor(target, [node('gpu-1').taint('dedicated', 'gpu', 'NoSchedule').obj(), node('gpu-2').taint('dedicated', 'gpu', 'NoSchedule').obj()]);
    expect(fixes).toHaveLength(1);
    expect(fixes[0]?.changes).toEqual([
      {
        kind: 'tolerateTaint',
        cause: 'TaintToleration',
        taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        toleration: { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
        replaces: { index: 0, toleration: { key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' } },
      },
    ]);
    expect(fixes[0]?.makesFit).toEqual(['gpu-1', 'gpu-2']);
    expect(fixes[0]?.spec).toEqual({ kind: 'pod', pod: { namespace: 'default', name: 'p' } });
  });

  it('adds a toleration when the pod has none near the taint', () => {
    const fixes = fixesFor(pod('p').obj(), [node('n').taint('team', 'video', 'NoSchedule').obj()]);
    expect(fixes.map((f) => f.changes)).toEqual([[{ kind: 'tolerateTaint', cause: 'TaintToleration', taint: { key: 'team', value: 'video', effect: 'NoSchedule' }, toleration: { key: 'team', operator: 'Equal', value: 'video', effect: 'NoSchedule' } }]]);
  });

  it('needs every blocking taint of a node: two taints are tolerated together, replayed as one fix', () => {
    const fixes = fixesFor(pod('p').obj(), [node('n').taint('a', 'x', 'NoSchedule').taint('b', undefined, 'NoExecute').obj()]);
    expect(outline(fixes)).toEqual([{ kinds: ['tolerateTaint', 'tolerateTaint'], makesFit: ['n'] }]);
  });

  it('lifts a cordon by uncordoning, never by tolerating the cordon taint', () => {
    const fixes = fixesFor(pod('p').obj(), [node('n').cordon().obj()]);
    expect(fixes.map((f) => f.changes)).toEqual([[{ kind: 'uncordon', cause: 'NodeUnschedulable', node: 'n' }]]);
  });

  it('offers nothing where the taint is not the only thing in the way and nothing frees the rest', () => {
    const full = node('n').taint('a', 'x', 'NoSchedule').allocatable({ pods: '1' }).obj();
    const fixes = fixesFor(pod('p').obj(), [full], { pods: [pod('holder').on('n').obj()] });
    expect(fixes).toEqual([]);
  });
});
