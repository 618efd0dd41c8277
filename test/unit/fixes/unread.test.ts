// A candidate whose nodes' pods were all left unread is judged in name order until the first
// few would fit (fixes/unread.ts), not whole. The fixes and the nodes to read must be those of
// whole replays, in every scenario and in clusters drawn at random, whichever nodes' pods
// were read; and the shortcut must be taken where it can be.
import fc from 'fast-check';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../../src/engine/context.js';
import { proposeFixes } from '../../../src/engine/fixes/index.js';
import { firstUnreadFits } from '../../../src/engine/fixes/unread.js';
import { judge } from '../../../src/engine/judge.js';
import { ruleSet } from '../../../src/messages/registry.js';
import type { Snapshot } from '../../../src/snapshot/types.js';
import { node, pod, snapshotOf } from '../../support/builders.js';
import { labelledNodes, selectingPod } from '../../support/node-affinity-arbitraries.js';
import { folderNames, scenarioPod, scenariosRoot } from '../../support/scenario-folders.js';

/** proposeFixes with the shortcut and with whole replays, on `snapshot` read as `podsReadOn` says. */
function both(snapshot: Snapshot, target: V1Pod, podsReadOn: string[]) {
  const ctx = buildContext({ ...snapshot, podsReadOn }, target);
  const judgement = judge(ruleSet.rules, ctx);
  return {
    shortcut: proposeFixes(ruleSet.rules, ctx, judgement, []),
    whole: proposeFixes(ruleSet.rules, ctx, judgement, [], { wholeReplays: true }),
  };
}

/** Which nodes' pods were read: none, every other one, all but the first. */
function readings(names: string[]): string[][] {
  return [[], names.filter((_, i) => i % 2 === 1), names.slice(1)];
}

describe('fixes where no pod of a candidate was read', () => {
  it.each(folderNames(scenariosRoot))('scenario %s: the same fixes and nodes to read as whole replays', async (folder) => {
    const found = await scenarioPod(scenariosRoot, folder);
    if (!found) return;
    for (const read of readings(found.snapshot.objects.nodes.map((n) => n.metadata?.name ?? ''))) {
      const { shortcut, whole } = both(found.snapshot, found.pod, read);
      expect(shortcut).toEqual(whole);
    }
  });

  it('clusters drawn at random, pods read on a random part of the nodes: the same as whole replays', () => {
    fc.assert(
      fc.property(selectingPod, labelledNodes, fc.infiniteStream(fc.boolean()), (target, nodes, coin) => {
        const names = nodes.map((n) => n.metadata?.name ?? '');
        const read = names.filter(() => coin.next().value);
        const { shortcut, whole } = both(snapshotOf({ nodes, pods: [target] }), target, read);
        expect(shortcut).toEqual(whole);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  // 100 nodes a selector misses, unread: labelling them all is a candidate. Some are tainted (a
  // labelling leaves them failing), at names drawn at random, so that failures come before,
  // among and after the first 20 that would fit, across batches.
  const selectorPod = () => pod('p').nodeSelector({ pool: 'gpu' }).obj();
  const cluster = (tainted: ReadonlySet<number>): V1Node[] =>
    Array.from({ length: 100 }, (_, i) => {
      const n = node(`n-${String(i).padStart(3, '0')}`).labels({ pool: 'cpu' });
      return (tainted.has(i) ? n.taint('dedicated', 'db', 'NoSchedule') : n).obj();
    });

  it('many unread nodes, failing ones anywhere among them: the same as whole replays', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { maxLength: 30 }), (tainted) => {
        const target = selectorPod();
        const { shortcut, whole } = both(snapshotOf({ nodes: cluster(new Set(tainted)), pods: [target] }), target, []);
        expect(shortcut).toEqual(whole);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 100) },
    );
  });

  it('takes the shortcut where it can: the first 20 names that would fit, having judged a batch, not 100 nodes', () => {
    const target = selectorPod();
    const ctx = buildContext({ ...snapshotOf({ nodes: cluster(new Set([40, 70])), pods: [target] }), podsReadOn: [] }, target);
    const names = ctx.nodes.map((n) => n.name).reverse();
    const label = { kind: 'labelNodes' as const, cause: 'NodeAffinity' as const, nodes: names, set: { pool: 'gpu' }, remove: [] };
    const first = Array.from({ length: 20 }, (_, i) => `n-${String(i).padStart(3, '0')}`);
    expect(firstUnreadFits(ruleSet.rules, ctx, [label], names, 20, true)).toEqual({ names: first });
    // A failing node before the 20th: a second change might name it, so the whole replay, on
    // the cluster already patched.
    const early = buildContext({ ...snapshotOf({ nodes: cluster(new Set([5])), pods: [target] }), podsReadOn: [] }, target);
    const bailed = firstUnreadFits(ruleSet.rules, early, [label], names, 20, true);
    expect(bailed && 'patched' in bailed && bailed.patched.nodes.every((n) => n.labels['pool'] === 'gpu')).toBe(true);
    // ... unless no second change follows: failing nodes are passed over.
    expect(firstUnreadFits(ruleSet.rules, early, [label], names, 20, false)).toEqual({ names: [...first.filter((n) => n !== 'n-005'), 'n-020'] });
    // One node's pods read: the replay can prove something, so the whole replay.
    const oneRead = buildContext({ ...snapshotOf({ nodes: cluster(new Set()), pods: [target] }), podsReadOn: ['n-099'] }, target);
    expect(firstUnreadFits(ruleSet.rules, oneRead, [label], names, 20, true)).toBeUndefined();
  });
});
