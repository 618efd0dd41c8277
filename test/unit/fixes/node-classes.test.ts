// The selector, label and relabel fixes are worked out once per list of NodeAffinity reasons, which
// nodes of one class share (rules/NodeAffinity.ts). If the class left out something a fix
// reads, nodes would be grouped under another node's fix: each generator's candidates for the
// whole cluster must be those it finds node by node, alone, grouped in node order.
import fc from 'fast-check';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { proposeLabels } from '../../../src/engine/fixes/label.js';
import { proposeRelabels } from '../../../src/engine/fixes/relabel.js';
import { proposeSelectorFixes } from '../../../src/engine/fixes/selector.js';
import type { Candidate, Change, FixInput } from '../../../src/engine/fixes/types.js';
import { judge } from '../../../src/engine/judge.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { contextFor, node, pod } from '../../support/builders.js';
import { labelledNodes, selectingPod } from '../../support/node-affinity-arbitraries.js';

function inputFor(target: V1Pod, nodes: V1Node[]): FixInput {
  const ctx = contextFor(target, nodes);
  return { rules: ruleSet.rules, ctx, judgement: judge(ruleSet.rules, ctx) };
}

/** A candidate's changes without the node names a labelling carries. */
function changeKey(candidate: Candidate): string {
  return JSON.stringify(candidate.changes.map((c) => (c.kind === 'labelNodes' ? { ...c, nodes: [] } : c)));
}

/** Candidates as change -> nodes, in the order the generator gave them. */
function grouped(candidates: readonly Candidate[]): [string, string[]][] {
  return candidates.map((c) => [changeKey(c), c.nodes]);
}

/** Each node alone (a copy of the pod each time), its candidates grouped by change in node order. */
function nodeByNode(generator: (input: FixInput) => Candidate[], target: V1Pod, nodes: V1Node[]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const n of nodes) {
    for (const [key, names] of grouped(generator(inputFor(structuredClone(target), [n])))) groups.set(key, [...(groups.get(key) ?? []), ...names]);
  }
  return [...groups];
}

describe('fixes over nodes of one NodeAffinity class', () => {
  it('the selector fixes: the same changes for the same nodes as node by node', () => {
    fc.assert(
      fc.property(selectingPod, labelledNodes, (target, nodes) => {
        expect(grouped(proposeSelectorFixes(inputFor(target, nodes)))).toEqual(nodeByNode(proposeSelectorFixes, target, nodes));
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  it('the relabellings: the same respellings for the same nodes as node by node', () => {
    fc.assert(
      fc.property(selectingPod, labelledNodes, (target, nodes) => {
        // Node by node, a node alone carries no peer's spelling: the peers are given as nodes
        // that fail elsewhere (a taint), so someNodeCarries sees the same cluster both ways.
        const relabels = grouped(proposeRelabels(inputFor(target, nodes)));
        const alone = new Map<string, string[]>();
        for (const n of nodes) {
          const peers = nodes.filter((o) => o !== n).map((o) => ({ ...o, spec: { taints: [{ key: 'elsewhere', effect: 'NoSchedule' }] } }));
          const input = inputFor(structuredClone(target), [n, ...peers]);
          for (const [key, names] of grouped(proposeRelabels(input))) alone.set(key, [...(alone.get(key) ?? []), ...names.filter((name) => name === n.metadata?.name)]);
        }
        expect(relabels).toEqual([...alone].filter(([, names]) => names.length > 0));
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  it('the relabellings: lists of reasons that differ get their own answers', () => {
    // Each failing node's reasons are a list of its own: a respelling, another value, a respelling.
    const target = pod('p').nodeSelector({ disk: 'ssd' }).obj();
    const nodes = [node('n0').labels({ disk: 'ssd' }).obj(), node('n1').labels({ disk: 'SSD' }).obj(), node('n2').labels({ disk: 'hdd' }).obj(), node('n3').labels({ disk: 'SSD' }).obj()];
    const relabel: Change = { kind: 'labelNodes', cause: 'NodeAffinity', nodes: [], set: { disk: 'ssd' }, remove: [], overwrite: { disk: 'SSD' } };
    expect(grouped(proposeRelabels(inputFor(target, nodes)))).toEqual([[changeKey({ changes: [relabel], nodes: [] }), ['n1', 'n3']]]);
  });

  it('the labellings: the same labels for the same nodes as node by node (the two that label most)', () => {
    fc.assert(
      fc.property(selectingPod, labelledNodes, (target, nodes) => {
        const alone = nodeByNode(proposeLabels, target, nodes).sort((a, b) => b[1].length - a[1].length).slice(0, 2);
        expect(grouped(proposeLabels(inputFor(target, nodes)))).toEqual(alone);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });
});
