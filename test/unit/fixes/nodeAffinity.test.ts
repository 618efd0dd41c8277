import { describe, expect, it } from 'vitest';
import { isLabelKey, isLabelValue } from '../../../src/engine/fixes/labelSyntax.js';
import { node, pod } from '../../support/builders.js';
import { fixesFor, outline } from '../../support/fixes.js';

describe('node selector and required node affinity', () => {
  it('a value that differs by letter case is fixed in the pod, not by relabelling the nodes', () => {
    const fixes = fixesFor(pod('p').nodeSelector({ disktype: 'SSD' }).obj(), [node('n').labels({ disktype: 'ssd' }).obj()]);
    expect(fixes.map((f) => f.changes)).toEqual([[{ kind: 'setNodeSelector', cause: 'NodeAffinity', from: { key: 'disktype', value: 'SSD' }, to: { key: 'disktype', value: 'ssd' } }]]);
  });

  it('a key typo in an affinity expression takes the nodes\' key; the nodes with another value stay blocked', () => {
    const target = pod('p').affinityTerm({ key: 'disk-type', operator: 'In', values: ['ssd'] }).obj();
    const fixes = fixesFor(target, [node('a').labels({ disktype: 'ssd' }).obj(), node('b').labels({ disktype: 'ssd' }).obj()]);
    expect(fixes[0]?.changes).toEqual([
      {
        kind: 'setAffinityExpression',
        cause: 'NodeAffinity',
        term: 0,
        expression: 0,
        from: { key: 'disk-type', operator: 'In', values: ['ssd'] },
        to: { key: 'disktype', operator: 'In', values: ['ssd'] },
        termAfter: [{ key: 'disktype', operator: 'In', values: ['ssd'] }],
      },
    ]);
    expect(fixes[0]?.makesFit).toEqual(['a', 'b']);
  });

  it('a missing label is added on the nodes that pass everything else, one command for all of them', () => {
    const nodes = [node('a').obj(), node('a2').obj(), node('b').labels({ disktype: 'hdd' }).obj(), node('c').taint('x', 'y', 'NoSchedule').obj()];
    const fixes = fixesFor(pod('p').nodeSelector({ disktype: 'ssd' }).obj(), nodes);
    // b says disktype=hdd: relabelling it ssd would lie to the scheduler, so it is left alone.
    expect(fixes[0]?.changes).toEqual([{ kind: 'labelNodes', cause: 'NodeAffinity', nodes: ['a', 'a2'], set: { disktype: 'ssd' }, remove: [] }]);
    expect(fixes[0]?.makesFit).toEqual(['a', 'a2']);
    expect(fixes.flatMap((f) => f.makesFit)).not.toContain('b');
    // The tainted node only with the toleration, as one fix.
    expect(outline(fixes.slice(1))).toEqual([{ kinds: ['tolerateTaint', 'labelNodes'], makesFit: ['c'] }]);
  });

  it('a NotIn expression is met by removing the label', () => {
    const fixes = fixesFor(pod('p').affinityTerm({ key: 'spot', operator: 'NotIn', values: ['true'] }).obj(), [node('n').labels({ spot: 'true' }).obj()]);
    expect(fixes.map((f) => f.changes[0])).toContainEqual({ kind: 'labelNodes', cause: 'NodeAffinity', nodes: ['n'], set: {}, remove: ['spot'] });
  });

  it('two expressions that forbid one key are one label to remove, in the count that picks the term and in the grouping', () => {
    // Term 0 forbids spot twice (one removal); term 1 asks for a zone (one label set): a tie, so
    // the first term. Counted twice, the removal lost to the zone on n and was offered apart
    // from m's removal of the same label.
    const target = pod('p')
      .affinityTerm({ key: 'spot', operator: 'NotIn', values: ['true'] }, { key: 'spot', operator: 'DoesNotExist' })
      .affinityTerm({ key: 'zone', operator: 'In', values: ['a'] })
      .obj();
    const fixes = fixesFor(target, [node('n').labels({ spot: 'true' }).obj(), node('m').labels({ spot: 'true', zone: 'b' }).obj()]);
    expect(fixes.map((f) => f.changes)).toContainEqual([{ kind: 'labelNodes', cause: 'NodeAffinity', nodes: ['n', 'm'], set: {}, remove: ['spot'] }]);
  });

  it('a pod pinned to a hostname a node carries means that node: no other node\'s near name is offered', () => {
    // node-08 and node-19 are one typo from node-09, and free; node-09 is tainted.
    const nodes = [node('node-08').obj(), node('node-09').taint('dedicated', 'gpu', 'NoSchedule').obj(), node('node-19').obj()];
    const fixes = fixesFor(pod('p').nodeSelector({ 'kubernetes.io/hostname': 'node-09' }).obj(), nodes);
    expect(outline(fixes)).toEqual([{ kinds: ['tolerateTaint'], makesFit: ['node-09'] }]);
    const affinity = fixesFor(pod('p').affinityTerm({ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-09'] }).obj(), nodes);
    expect(outline(affinity)).toEqual([{ kinds: ['tolerateTaint'], makesFit: ['node-09'] }]);
  });

  it('a pod pinned to a hostname is fixed on that node alone: the nodes it is pinned away from are not candidates', () => {
    // node-08 carries node-09's taint and is cordoned: a toleration or an uncordon there frees nothing.
    const nodes = [node('node-08').taint('dedicated', 'gpu', 'NoSchedule').cordon().obj(), node('node-09').taint('dedicated', 'gpu', 'NoSchedule').obj(), node('node-19').cordon().obj()];
    const fixes = fixesFor(pod('p').nodeSelector({ 'kubernetes.io/hostname': 'node-09' }).obj(), nodes);
    expect(outline(fixes)).toEqual([{ kinds: ['tolerateTaint'], makesFit: ['node-09'] }]);
    expect(fixes[0]?.stillBlockedBy).toEqual({});
  });

  it("a DaemonSet's pod, pinned by metadata.name, is fixed on its node alone", () => {
    const nodes = [node('node-08').taint('dedicated', 'gpu', 'NoSchedule').obj(), node('node-09').taint('dedicated', 'gpu', 'NoSchedule').obj(), node('node-19').cordon().obj()];
    const fixes = fixesFor(pod('p').matchFieldsTerm('node-09').obj(), nodes);
    expect(outline(fixes)).toEqual([{ kinds: ['tolerateTaint'], makesFit: ['node-09'] }]);
    expect(fixes[0]?.stillBlockedBy).toEqual({});
  });

  it('a hostname no node carries may be a typo: the node with the near name is offered', () => {
    const fixes = fixesFor(pod('p').nodeSelector({ 'kubernetes.io/hostname': 'node-9' }).obj(), [node('node-09').obj(), node('node-10').obj()]);
    expect(fixes.map((f) => f.changes)).toEqual([[{ kind: 'setNodeSelector', cause: 'NodeAffinity', from: { key: 'kubernetes.io/hostname', value: 'node-9' }, to: { key: 'kubernetes.io/hostname', value: 'node-09' } }]]);
  });

  it('a typo in the hostname key keeps the hostname the pod names', () => {
    const nodes = [node('node-08').obj(), node('node-09').obj()];
    const fixes = fixesFor(pod('p').nodeSelector({ 'kubernetes.io/hostnme': 'node-09' }).obj(), nodes);
    expect(fixes.map((f) => f.changes)).toEqual([[{ kind: 'setNodeSelector', cause: 'NodeAffinity', from: { key: 'kubernetes.io/hostnme', value: 'node-09' }, to: { key: 'kubernetes.io/hostname', value: 'node-09' } }]]);
    expect(fixes[0]?.makesFit).toEqual(['node-09']);
  });

  it('never proposes a label the API server would refuse', () => {
    const fixes = fixesFor(pod('p').nodeSelector({ tier: 'fast disk' }).obj(), [node('n').obj()]);
    expect(fixes).toEqual([]);
  });

  it('relaxes a term by dropping the expression that excludes otherwise good nodes', () => {
    const target = pod('p').affinityTerm({ key: 'zone', operator: 'In', values: ['a'] }, { key: 'gen', operator: 'Gt', values: ['5'] }).obj();
    const fixes = fixesFor(target, [node('n').labels({ zone: 'a', gen: '4' }).obj()]);
    expect(fixes.map((f) => f.changes)).toEqual([
      [{ kind: 'removeAffinityExpressions', cause: 'NodeAffinity', term: 0, expressions: [{ index: 1, requirement: { key: 'gen', operator: 'Gt', values: ['5'] } }], termAfter: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
    ]);
  });

  it('never empties a term (an empty term matches no node)', () => {
    const fixes = fixesFor(pod('p').affinityTerm({ key: 'gen', operator: 'Gt', values: ['5'] }).obj(), [node('n').labels({ gen: '4' }).obj()]);
    expect(fixes).toEqual([]);
  });
});

describe('label syntax (IsQualifiedName, IsValidLabelValue)', () => {
  it.each([
    ['disktype', true],
    ['node.kubernetes.io/instance-type', true],
    ['example.com/a_b.c', true],
    ['Example.com/x', false],
    ['/x', false],
    ['a/b/c', false],
    ['-x', false],
    ['x'.repeat(64), false],
  ])('key %s: %s', (key, ok) => expect(isLabelKey(key)).toBe(ok));

  it.each([
    ['', true],
    ['ssd', true],
    ['A-1_b.2', true],
    ['fast disk', false],
    ['nvme\u00a0', false],
    ['-x', false],
    ['x'.repeat(64), false],
  ])('value %j: %s', (value, ok) => expect(isLabelValue(value)).toBe(ok));
});
