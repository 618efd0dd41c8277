// The node index (the scheduler's NodeInfo: each node's pods and their summed requests) is built
// once per read. A follow-up read adds the pods of a few nodes to a read whose other nodes' pods
// were left unread: those nodes keep their facts; the ones that gained pods get new ones, and
// the earlier read's index is left as it was.
import { describe, expect, it } from 'vitest';
import { nodeIndex } from '../../src/engine/facts.js';
import { emptyCollections, type Snapshot } from '../../src/snapshot/types.js';
import { node, pod } from '../support/builders.js';

describe('the node index across a follow-up read', () => {
  const nodes = [node('n1').obj(), node('n2').obj()];
  const first: Snapshot = { source: { kind: 'live', description: 'first' }, objects: { ...emptyCollections(), nodes, pods: [] }, gaps: [] };
  const bound = pod('web-0').req({ cpu: '500m' }).on('n2').obj();
  const second: Snapshot = { ...first, objects: { ...first.objects, pods: [bound] } };

  it('shares the facts of a node that has no pods in either read', () => {
    const [before] = nodeIndex(first);
    const [after] = nodeIndex(second);
    expect(after).toBe(before);
    expect(after?.pods).toEqual([]);
  });

  it('gives a node that gained pods facts of its own, and leaves the earlier index alone', () => {
    const before = nodeIndex(first)[1];
    const after = nodeIndex(second)[1];
    expect(after).not.toBe(before);
    expect(after?.pods).toEqual([bound]);
    expect(after?.requested['cpu']).toBe(500n);
    expect(before?.pods).toEqual([]);
    expect(before?.requested['cpu'] ?? 0n).toBe(0n);
  });

  it('does not share facts between two objects of the same node (a new read)', () => {
    const again: Snapshot = { ...first, objects: { ...first.objects, nodes: [node('n1').allocatable({ cpu: '8' }).obj(), nodes[1] as (typeof nodes)[number]] } };
    const [fresh] = nodeIndex(again);
    expect(fresh).not.toBe(nodeIndex(first)[0]);
    expect(fresh?.allocatable['cpu']).toBe(8000n);
  });
});
