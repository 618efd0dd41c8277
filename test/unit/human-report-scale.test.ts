// The human report stays a page at any cluster size: a pod selecting a label each node carries
// with a value of its own (a rack, say) gives each of hundreds of nodes a reason of its own, and
// the report once printed a table row and a Reasons line for every one of them (1 MB at 5,000
// nodes). The table and the Reasons are bounded, say how much they leave out, and keep first
// what the reader needs: the node the pod selects, and the reasons most nodes share. A pod pinned
// to one node by hostname needs no bound at all: the other nodes are told alike, in one row.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import { reportHuman } from '../../src/report/human/index.js';
import { node, pod, snapshotOf } from '../support/builders.js';

/** `nodeCount` nodes, each with a hostname and a rack of its own, every tenth tainted; a pod selecting `key=value`. */
function report(nodeCount: number, key: 'rack' | 'kubernetes.io/hostname', value: string): string {
  const nodes = Array.from({ length: nodeCount }, (_, i) => {
    const name = `node-${String(i).padStart(4, '0')}`;
    const n = node(name).labels({ 'kubernetes.io/hostname': name, rack: `rack-${String(i).padStart(4, '0')}` });
    return (i % 10 === 7 ? n.taint('dedicated', 'gpu', 'NoSchedule') : n).obj();
  });
  const target = pod('pinned').nodeSelector({ [key]: value }).obj();
  const outcome = diagnose(ruleSet, snapshotOf({ nodes, pods: [target] }), { namespace: 'default', name: 'pinned' });
  if (outcome.kind !== 'diagnosis') throw new Error('not diagnosed');
  let text = '';
  reportHuman(outcome.diagnosis, { write: (s) => (text += s), color: false, columns: 200 }, { wide: false });
  return text;
}

const section = (text: string, heading: string) => {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end === -1 ? undefined : end);
};

describe('the human report at hundreds of nodes with a reason each', () => {
  const text = report(300, 'rack', 'rack-0287');

  it('shows at most 40 table rows, the node the pod selects first, and counts the rest', () => {
    const table = section(text, text.split('\n').find((l) => l.startsWith('NODE')) ?? 'NODE');
    const rows = table.filter((l) => l.startsWith('node-'));
    expect(rows).toHaveLength(40);
    expect(rows[0]).toMatch(/^node-0287 /);
    expect(table.at(-1)).toBe('(260 more nodes in 260 more rows; -o json lists every node)');
  });

  it('shows at most 20 reasons, the one most nodes share first, and counts the rest', () => {
    const reasons = section(text, 'Reasons');
    expect(reasons).toHaveLength(21);
    expect(reasons[0]).toContain('taint dedicated=gpu:NoSchedule is not tolerated');
    expect(reasons[0]).toContain('and 25 more]');
    // 300 nodes: 1 taint line, 20 rack lines shown, 20 racks one character from rack-0287
    // (rack-0280 to rack-0289, rack-0087, rack-0207, ...) told under Near misses instead, 260 left.
    expect(reasons.at(-1)).toBe('  (260 more reasons, on 260 nodes; -o json has them all)');
  });

  it('leaves a small cluster whole', () => {
    const small = report(12, 'rack', 'rack-0007');
    expect(small).not.toContain('more rows');
    expect(small).not.toContain('more reasons');
    expect(small.split('\n').filter((l) => /^node-\d{4} /.test(l))).toHaveLength(12);
  });
});

describe('the human report of a pod pinned to one of hundreds of nodes by hostname', () => {
  const text = report(300, 'kubernetes.io/hostname', 'node-0287');

  it('tells the other nodes alike: three rows, no node left out', () => {
    const rows = text.split('\n').filter((l) => l.startsWith('node-'));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^node-0287 .*dedicated=gpu:NoSchedule/);
    expect(rows[1]).toMatch(/^node-0000 and 269 more .*not node-0287/);
    expect(rows[2]).toMatch(/^node-0007 and 28 more .*dedicated=gpu:NoSchedule.*not node-0287/);
    expect(text).not.toContain('more rows');
  });

  it('gives the other nodes one line of Reasons, without their own names as values', () => {
    const reasons = section(text, 'Reasons');
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toContain('NodeAffinity: nodeSelector: wants kubernetes.io/hostname=node-0287: pinned by name to another node  [node-0000, node-0001');
    expect(reasons[0]).toContain('and 294 more]');
    expect(reasons[1]).toContain('TaintToleration: taint dedicated=gpu:NoSchedule is not tolerated');
  });
});
