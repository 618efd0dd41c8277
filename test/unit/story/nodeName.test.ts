// A spec.nodeName no node has, against the node names it nearly is (engine/story/nodeName.ts):
// only cosmetic differences count, and the stage carries the nearest with its diff.
import { describe, expect, it } from 'vitest';
import type { StageDetail } from '../../../src/engine/stage.js';
import type { DiffKind } from '../../../src/engine/nearmiss/index.js';
import { decideStage } from '../../../src/engine/stages/index.js';
import { nearNodes } from '../../../src/engine/story/nodeName.js';
import { explainDiff } from '../../../src/messages/nearmiss.js';
import { node, pod, snapshotOf } from '../../support/builders.js';

const ZWSP = '\u200B';
const CYRILLIC_O = '\u043E';

describe('nearNodes', () => {
  it.each<{ name: string; wanted: string; nodes: string[]; near: { name: string; kinds: DiffKind[] }[] }>([
    { name: 'a lower-case L for the digit one is a look-alike', wanted: 'worker-l', nodes: ['worker-1', 'worker-2', 'worker-3'], near: [{ name: 'worker-1', kinds: ['lookAlike'] }] },
    { name: 'a letter o for the digit zero is a look-alike', wanted: 'node-o7', nodes: ['node-07', 'node-08'], near: [{ name: 'node-07', kinds: ['lookAlike'] }] },
    { name: 'a capital I for a lower-case L is a look-alike', wanted: 'ci-poIl-a', nodes: ['ci-poll-a'], near: [{ name: 'ci-poll-a', kinds: ['lookAlike'] }] },
    { name: 'a Cyrillic o is a look-alike', wanted: `gpu-n${CYRILLIC_O}de-1`, nodes: ['gpu-node-1', 'gpu-node-2'], near: [{ name: 'gpu-node-1', kinds: ['lookAlike'] }] },
    { name: 'a zero-width space is an invisible character', wanted: `worker${ZWSP}-1`, nodes: ['worker-1', 'worker-2'], near: [{ name: 'worker-1', kinds: ['invisibleCharacter'] }] },
    { name: 'upper case is letter case', wanted: 'Worker-1', nodes: ['worker-1', 'worker-2'], near: [{ name: 'worker-1', kinds: ['case'] }] },
    { name: 'a trailing space is trailing white space', wanted: 'worker-1 ', nodes: ['worker-1'], near: [{ name: 'worker-1', kinds: ['trailingWhitespace'] }] },
    { name: 'every node as near is listed, nearest first', wanted: 'Worker-l', nodes: ['worker-I', 'worker-1', 'Worker-1'], near: [{ name: 'Worker-1', kinds: ['lookAlike'] }, { name: 'worker-I', kinds: ['case', 'lookAlike'] }, { name: 'worker-1', kinds: ['case', 'lookAlike'] }] },
    { name: 'another digit is a node that is gone, not a slip', wanted: 'node-9', nodes: ['node-1', 'node-2', 'node-3'], near: [] },
    { name: 'a missing dash is a typo, not offered', wanted: 'worker1', nodes: ['worker-1'], near: [] },
    { name: 'an upper-case L for a one is a typo, not a look-alike', wanted: 'node-L', nodes: ['node-1'], near: [] },
    { name: 'no nodes, nothing near', wanted: 'worker-l', nodes: [], near: [] },
  ])('$name', ({ wanted, nodes, near }) => {
    const found = nearNodes(nodes.map((n) => node(n).obj()), wanted);
    expect(found.map((n) => ({ name: n.name, kinds: n.diff.kinds }))).toEqual(near);
  });

  it('carries the diff of the column that differs, as explained under Near misses', () => {
    const [near] = nearNodes([node('worker-1').obj()], 'worker-l');
    expect(explainDiff(near?.diff ?? { equal: true, kinds: [], ops: [] })).toEqual(['look-alike characters: "l" U+006C LATIN SMALL LETTER L (wanted) vs "1" U+0031 DIGIT ONE (node) at position 8']);
  });
});

describe('the NodeNameSet stage', () => {
  const nodes = [node('worker-1').obj(), node('worker-2').obj()];
  const stageOf = (nodeName: string, gaps = false): StageDetail => {
    const target = pod('pg-debug').with((p) => ((p.spec ??= { containers: [] }).nodeName = nodeName)).obj();
    return decideStage(snapshotOf({ nodes, pods: [target] }, gaps ? [{ collection: 'nodes', cause: 'absentFromDump' }] : []), target, []);
  };

  it.each<{ name: string; nodeName: string; gaps?: boolean; near: string[] | undefined; exists: boolean | undefined }>([
    { name: 'a missing node with a look-alike carries the near node', nodeName: 'worker-l', near: ['worker-1'], exists: false },
    { name: 'a missing node with no near node carries none', nodeName: 'worker-9', near: undefined, exists: false },
    { name: 'an existing node is not compared', nodeName: 'worker-1', near: undefined, exists: true },
    { name: 'nodes not read: not known to be missing, not compared', nodeName: 'worker-l', gaps: true, near: undefined, exists: undefined },
  ])('$name', ({ nodeName, gaps, near, exists }) => {
    const s = stageOf(nodeName, gaps);
    if (s.stage !== 'NodeNameSet') throw new Error(`stage ${s.stage}`);
    expect({ exists: s.nodeExists, near: s.nearNodes?.map((n) => n.name) }).toEqual({ exists, near });
  });
});
