// A fix's replay judges only the nodes it names (judge's `only`): a few of thousands are found by
// their places in the list, many by marking the list. Either way the verdicts must be those the
// whole judgement gives those nodes, in the list's order, and a name no node holds adds nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/engine/judge.js';
import { ruleSet } from '../../src/messages/registry.js';
import { contextFor } from '../support/builders.js';
import { labelledNodes, selectingPod } from '../support/node-affinity-arbitraries.js';

/** Up to 240 nodes: up to 12 drawn, repeated under new names, so that a few names are under a sixteenth of them. */
const manyNodes = labelledNodes.chain((drawn) =>
  fc.integer({ min: 1, max: 20 }).map((copies) =>
    Array.from({ length: copies }, (_, c) =>
      drawn.map((n, i) => ({ ...n, metadata: { ...n.metadata, name: `n${c}-${i}`, labels: { ...n.metadata?.labels, 'kubernetes.io/hostname': `n${c}-${i}` } } })),
    ).flat(),
  ),
);

describe('judge, only some nodes', () => {
  it('gives the whole judgement\'s verdicts of the nodes named, in the list\'s order', () => {
    fc.assert(
      fc.property(selectingPod, manyNodes, fc.array(fc.nat(), { maxLength: 4 }), fc.infiniteStream(fc.boolean()), fc.boolean(), (target, nodes, places, picks, few) => {
        const ctx = contextFor(target, nodes);
        const whole = judge(ruleSet.rules, ctx).nodes;
        const names = nodes.map((n) => n.metadata?.name ?? '');
        // A few names (up to four places, in any order) or about half of them, with a name no node holds.
        const chosen = few ? places.map((p) => names[p % names.length] ?? '') : names.filter(() => picks.next().value).reverse();
        const only = new Set([...chosen, 'no-such-node']);
        expect(judge(ruleSet.rules, ctx, only).nodes).toEqual(whole.filter((v) => only.has(v.name)));
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 200) },
    );
  });
});
