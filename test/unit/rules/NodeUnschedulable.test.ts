import { describe, expect, it } from 'vitest';
import nodeName from '../../../src/engine/rules/NodeName.js';
import rule from '../../../src/engine/rules/NodeUnschedulable.js';
import { node, pod } from '../../support/builders.js';
import { runRule } from '../../support/rules.js';

describe('NodeUnschedulable', () => {
  it.each([
    { name: 'a schedulable node passes', node: node('n'), pod: pod('p'), fails: false },
    { name: 'a cordoned node rejects', node: node('n').cordon(), pod: pod('p'), fails: true },
    { name: 'a cordoned node takes a pod tolerating the unschedulable taint', node: node('n').cordon(), pod: pod('p').tolerate({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }), fails: false },
    { name: 'a toleration of every taint passes a cordoned node', node: node('n').cordon(), pod: pod('p').tolerate({ operator: 'Exists' }), fails: false },
  ])('$name', ({ node: n, pod: p, fails }) => {
    const reasons = runRule(rule, p.obj(), n.obj());
    expect(reasons).toEqual(fails ? [{ plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', detail: { kind: 'nodeCordoned' } }] : []);
  });
});

describe('NodeName', () => {
  it.each([
    { name: 'no nodeName fits every node', pod: pod('p'), fails: false },
    { name: 'the named node fits', pod: pod('p').with((x) => (x.spec!.nodeName = 'n')), fails: false },
    { name: 'another node does not', pod: pod('p').with((x) => (x.spec!.nodeName = 'other')), fails: true },
  ])('$name', ({ pod: p, fails }) => {
    const reasons = runRule(nodeName, p.obj(), node('n').obj());
    expect(reasons).toEqual(fails ? [{ plugin: 'NodeName', code: 'UnschedulableAndUnresolvable', detail: { kind: 'nodeNameMismatch', wanted: 'other' } }] : []);
  });
});
