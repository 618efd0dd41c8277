import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { anchorOf, findLabelledOnEveryNode, mayMatch, type LabelAnchor } from '../../src/engine/match/podsLabelled.js';
import type { NodeFacts } from '../../src/engine/model.js';
import { nodeIndex, nodeIndexWithout } from '../../src/engine/facts.js';
import { node, snapshotOf } from '../support/builders.js';

const podsLabelled = (pods: readonly V1Pod[], key: string, value: string) => mayMatch(pods, [key, value]);

const pod = (name: string, labels?: Record<string, string>): V1Pod => ({ metadata: { name, ...(labels ? { labels } : {}) } });

describe('mayMatch', () => {
  const pods = [pod('a', { app: 'web', tier: 'front' }), pod('b'), pod('c', { app: 'db' }), pod('d', { app: 'web' }), pod('e', { App: 'web', 'app ': 'web' })];

  it('is the pods whose label has exactly that value, in their order', () => {
    expect(podsLabelled(pods, 'app', 'web').map((p) => p.metadata?.name)).toEqual(['a', 'd']);
    expect(podsLabelled(pods, 'app', 'db').map((p) => p.metadata?.name)).toEqual(['c']);
    expect(podsLabelled(pods, 'app', 'Web')).toEqual([]);
    expect(podsLabelled(pods, 'tier', 'front').map((p) => p.metadata?.name)).toEqual(['a']);
  });

  it('an empty value is a value, and an inherited property is no label', () => {
    const list = [pod('x', { app: '' }), pod('y')];
    expect(podsLabelled(list, 'app', '').map((p) => p.metadata?.name)).toEqual(['x']);
    expect(podsLabelled(list, 'constructor', '')).toEqual([]);
    expect(podsLabelled(list, 'toString', '')).toEqual([]);
  });

  it('indexes each list of pods apart', () => {
    const other = [pod('z', { app: 'web' })];
    expect(podsLabelled(other, 'app', 'web').map((p) => p.metadata?.name)).toEqual(['z']);
    expect(podsLabelled(pods, 'app', 'web').map((p) => p.metadata?.name)).toEqual(['a', 'd']);
  });

  it('is every pod for a selector without a matchLabels entry', () => {
    expect(anchorOf({ matchExpressions: [{ key: 'app', operator: 'Exists' }] })).toBeUndefined();
    expect(anchorOf(undefined)).toBeUndefined();
    expect(mayMatch(pods, anchorOf({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }))).toBe(pods);
    expect(anchorOf({ matchLabels: { app: 'web' } })).toEqual(['app', 'web']);
  });
});

describe('findLabelledOnEveryNode', () => {
  const bound = (name: string, node: string, labels?: Record<string, string>, phase?: string): V1Pod => ({
    metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
    spec: { nodeName: node, containers: [] },
    ...(phase ? { status: { phase } } : {}),
  });
  const names = (pods: readonly V1Pod[]) => pods.map((p) => p.metadata?.name);
  const zoned = (name: string) => node(name).labels({ zone: 'z1' }).obj();
  // The answer node by node, on copies of the lists (a copy is a list nothing was found in yet).
  const scanned = (nodes: readonly NodeFacts[], anchor: LabelAnchor) => nodes.map((n) => names(mayMatch([...n.pods], anchor)));

  it("finds, for every node's list, the pods carrying the entry, as the scan of that list would", () => {
    const a = bound('a', 'n1', { app: 'web' });
    const b = bound('b', 'n2', { app: 'web' });
    const c = bound('c', 'n1', { app: 'db' });
    const d = bound('d', 'n1', { app: 'web' });
    // Carrying the entry but on no list: finished (the index leaves terminal pods out), bound to
    // a node the read does not hold, pending.
    const done = bound('done', 'n1', { app: 'web' }, 'Succeeded');
    const elsewhere = bound('elsewhere', 'gone', { app: 'web' });
    const pending: V1Pod = { metadata: { name: 'pending', labels: { app: 'web' } }, spec: { containers: [] } };
    const snapshot = snapshotOf({ nodes: [zoned('n1'), zoned('n2'), zoned('n3')], pods: [a, pending, b, c, done, elsewhere, d] });
    const nodes = nodeIndex(snapshot);
    const anchor: LabelAnchor = ['app', 'web'];
    findLabelledOnEveryNode(snapshot, anchor, 'zone');
    expect(nodes.map((n) => names(mayMatch(n.pods, anchor)))).toEqual([['a', 'd'], ['b'], []]);
    expect(nodes.map((n) => names(mayMatch(n.pods, anchor)))).toEqual(scanned(nodes, anchor));
  });

  it("a pod bound to the node but left off its list (nodeIndexWithout's target) is not found there", () => {
    const a = bound('a', 'n1', { tier: 'front' });
    const target = bound('target', 'n1', { tier: 'front' });
    const snapshot = snapshotOf({ nodes: [zoned('n1')], pods: [a, target] });
    nodeIndex(snapshot);
    const anchor: LabelAnchor = ['tier', 'front'];
    findLabelledOnEveryNode(snapshot, anchor, 'zone');
    expect(names(mayMatch(nodeIndexWithout(snapshot, target)[0]!.pods, anchor))).toEqual(['a']);
  });

  it('two nodes of one name share their list, and its answer', () => {
    const a = bound('a', 'twin', { role: 'x' });
    const b = bound('b', 'twin', { role: 'x' });
    const snapshot = snapshotOf({ nodes: [zoned('twin'), zoned('twin')], pods: [a, b] });
    const nodes = nodeIndex(snapshot);
    const anchor: LabelAnchor = ['role', 'x'];
    findLabelledOnEveryNode(snapshot, anchor, 'zone');
    expect(nodes.map((n) => names(mayMatch(n.pods, anchor)))).toEqual([['a', 'b'], ['a', 'b']]);
  });

  it('an inherited property is no label, and an empty value is a value', () => {
    const x = bound('x', 'n1', { app: '' });
    const y = bound('y', 'n1');
    const snapshot = snapshotOf({ nodes: [zoned('n1')], pods: [x, y] });
    const nodes = nodeIndex(snapshot);
    findLabelledOnEveryNode(snapshot, ['app', ''], 'zone');
    findLabelledOnEveryNode(snapshot, ['constructor', ''], 'zone');
    expect(names(mayMatch(nodes[0]!.pods, ['app', '']))).toEqual(['x']);
    expect(names(mayMatch(nodes[0]!.pods, ['constructor', '']))).toEqual([]);
  });

  it('a pod whose labels a dump holds as null carries none (found by malformed-dump.test.ts, seed 2025367169)', () => {
    const a = bound('a', 'n1', { app: 'web' });
    const unlabelled: V1Pod = { ...bound('nulled', 'n1'), metadata: { name: 'nulled', namespace: 'default', labels: null as unknown as Record<string, string> } };
    const snapshot = snapshotOf({ nodes: [zoned('n1')], pods: [unlabelled, a] });
    const nodes = nodeIndex(snapshot);
    findLabelledOnEveryNode(snapshot, ['app', 'web'], 'zone');
    expect(names(mayMatch(nodes[0]!.pods, ['app', 'web']))).toEqual(['a']);
    expect(names(mayMatch([unlabelled, a], ['app', 'web']))).toEqual(['a']);
  });
});
