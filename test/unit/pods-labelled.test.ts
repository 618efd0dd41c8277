import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { anchorOf, findLabelledOnEveryNode, mayMatch, type LabelAnchor } from '../../src/engine/match/podsLabelled.js';
import type { NodeFacts } from '../../src/engine/model.js';

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
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { nodeName: node, containers: [] },
    ...(phase ? { status: { phase } } : {}),
  });
  const names = (pods: readonly V1Pod[]) => pods.map((p) => p.metadata?.name);
  // Only what the function reads of a node's facts: its name, labels and list.
  const facts = (name: string, pods: V1Pod[]) => ({ name, pods, labels: { zone: 'z1' } }) as unknown as NodeFacts;
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
    const pods = [a, pending, b, c, done, elsewhere, d];
    const nodes = [facts('n1', [a, c, d]), facts('n2', [b]), facts('n3', [])];
    const anchor: LabelAnchor = ['app', 'web'];
    findLabelledOnEveryNode(pods, nodes, anchor, 'zone');
    expect(nodes.map((n) => names(mayMatch(n.pods, anchor)))).toEqual([['a', 'd'], ['b'], []]);
    expect(nodes.map((n) => names(mayMatch(n.pods, anchor)))).toEqual(scanned(nodes, anchor));
  });

  it("a pod bound to the node but left off its list (nodeIndexWithout's target) is not found there", () => {
    const a = bound('a', 'n1', { tier: 'front' });
    const target = bound('target', 'n1', { tier: 'front' });
    const nodes = [facts('n1', [a])];
    const anchor: LabelAnchor = ['tier', 'front'];
    findLabelledOnEveryNode([a, target], nodes, anchor, 'zone');
    expect(names(mayMatch(nodes[0]!.pods, anchor))).toEqual(['a']);
  });

  it('finds nothing ahead when two nodes share a name: each list is scanned', () => {
    const a = bound('a', 'twin', { role: 'x' });
    const b = bound('b', 'twin', { role: 'x' });
    const nodes = [facts('twin', [a]), facts('twin', [b])];
    const anchor: LabelAnchor = ['role', 'x'];
    findLabelledOnEveryNode([a, b], nodes, anchor, 'zone');
    expect(nodes.map((n) => names(mayMatch(n.pods, anchor)))).toEqual([['a'], ['b']]);
  });

  it('an inherited property is no label, and an empty value is a value', () => {
    const x = bound('x', 'n1', { app: '' });
    const y = bound('y', 'n1');
    const nodes = [facts('n1', [x, y])];
    findLabelledOnEveryNode([x, y], nodes, ['app', ''], 'zone');
    findLabelledOnEveryNode([x, y], nodes, ['constructor', ''], 'zone');
    expect(names(mayMatch(nodes[0]!.pods, ['app', '']))).toEqual(['x']);
    expect(names(mayMatch(nodes[0]!.pods, ['constructor', '']))).toEqual([]);
  });
});
