// NodeAffinity works its reasons out once per class of nodes (what it reads of their labels)
// and shares them. A class that leaves out something the reasons depend on would hand one
// node another's reasons: each node's reasons, filtered after all the others with the same
// pod, must equal those filtered first, alone, with a copy of the pod (a memo of its own).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import rule from '../../../src/engine/rules/NodeAffinity.js';
import { contextFor, node, pod } from '../../support/builders.js';
import { labelledNodes, selectingPod } from '../../support/node-affinity-arbitraries.js';
import { runRule, verdicts } from '../../support/rules.js';

describe('NodeAffinity classes of nodes', () => {
  it('give every node the reasons it has alone', () => {
    fc.assert(
      fc.property(selectingPod, labelledNodes, (target, nodes) => {
        const together = verdicts(rule, target, nodes);
        for (const n of nodes) {
          const name = n.metadata?.name ?? '';
          expect(together[name], name).toEqual(runRule(rule, structuredClone(target), n));
        }
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  // A pin to a node by name depends on the cluster (match/pins.ts): the copy is filtered first
  // in the same cluster, so that the property holds whether or not the pin names a node.
  it('give every node the reasons it has first, in the same cluster, where the pod is pinned to a name', () => {
    const names = ['n0', 'n1', 'N1', 'n1 ', 'n9'];
    const pinning = fc.oneof(
      fc.constantFrom(...names).map((name) => pod('p').nodeSelector({ 'kubernetes.io/hostname': name }).obj()),
      fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 }).map((values) => pod('p').affinityTerm({ key: 'kubernetes.io/hostname', operator: 'In', values }).obj()),
      fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 }).map((values) => pod('p').matchFieldsTerm(...values).obj()),
    );
    fc.assert(
      fc.property(pinning, labelledNodes, (target, nodes) => {
        const together = verdicts(rule, target, nodes);
        for (const n of nodes) {
          const name = n.metadata?.name ?? '';
          const ctx = contextFor(structuredClone(target), nodes);
          const first = ctx.nodes.find((f) => f.name === name);
          if (!first) throw new Error(`no ${name}`);
          expect(together[name], name).toEqual(rule.filter(ctx, first));
        }
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  it('are not carried from one cluster to another for the same pod: a pin depends on the nodes', () => {
    const target = pod('p').nodeSelector({ 'kubernetes.io/hostname': 'node-00001' }).obj();
    const n0 = node('node-00000').labels({ 'kubernetes.io/hostname': 'node-00000' }).obj();
    const n1 = node('node-00001').labels({ 'kubernetes.io/hostname': 'node-00001' }).obj();
    // With node-00001 in the cluster the pod means it, and node-00000 is not a near miss of it.
    const withN1 = verdicts(rule, target, [n0, n1]);
    expect(withN1['node-00000']?.[0]?.detail).toMatchObject({ misses: [{ actual: 'node-00000' }] });
    expect(withN1['node-00000']?.[0]?.detail).not.toMatchObject({ misses: [{ closest: {} }] });
    // Without it, node-00001 may be a typo of node-00000: the same pod object, in another cluster, says so.
    const withoutN1 = verdicts(rule, target, [n0]);
    expect(withoutN1['node-00000']?.[0]?.detail).toMatchObject({ misses: [{ closest: { key: 'kubernetes.io/hostname', value: 'node-00000' } }] });
  });

  it('share reasons between nodes of one class, and only there', () => {
    const target = pod('p').nodeSelector({ 'disk-type': 'ssd' }).obj();
    const shared = verdicts(rule, target, [
      node('a').labels({ disktype: 'ssd', 'kubernetes.io/hostname': 'a' }).obj(),
      node('b').labels({ disktype: 'ssd', 'kubernetes.io/hostname': 'b' }).obj(),
      // The near key's value differs: the closest label shown differs.
      node('c').labels({ disktype: 'hdd', 'kubernetes.io/hostname': 'c' }).obj(),
    ]);
    expect(shared['a']).toHaveLength(1);
    expect(shared['b']).toBe(shared['a']);
    expect(shared['c']).not.toBe(shared['a']);
    expect(shared['c']?.[0]?.detail).toMatchObject({ misses: [{ closest: { key: 'disktype', value: 'hdd' } }] });
  });

  it('work reasons out for each node where a term reads the node name', () => {
    const target = pod('p').matchFieldsTerm('x').obj();
    const byName = verdicts(rule, target, [node('a').obj(), node('b').obj()]);
    expect(byName['a']).toHaveLength(1);
    expect(byName['b']).not.toBe(byName['a']);
  });
});
