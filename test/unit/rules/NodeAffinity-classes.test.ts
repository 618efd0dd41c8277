// NodeAffinity works its reasons out once per class of nodes (what it reads of their labels)
// and shares them. A class that leaves out something the reasons depend on would hand one
// node another's reasons: each node's reasons, filtered after all the others with the same
// pod, must equal those filtered first, alone, with a copy of the pod (a memo of its own).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import rule from '../../../src/engine/rules/NodeAffinity.js';
import { node, pod } from '../../support/builders.js';
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
