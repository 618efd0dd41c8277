// The headline: one line of at most 240 characters, causes grouped by what distinguishes them,
// the nodes the pod selects told first. Built from whole diagnoses, as the report makes it.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { headlineLimit } from '../../src/messages/limits.js';
import { summarySentence } from '../../src/messages/summary.js';
import { ruleSet } from '../../src/messages/registry.js';
import { antiAffinity } from '../support/affinity-builders.js';
import { node, pod, snapshotOf } from '../support/builders.js';

function headline(target: ReturnType<typeof pod>, nodes: ReturnType<typeof node>[], others: ReturnType<typeof pod>[] = []): string {
  // Judged by the default scheduler and found unschedulable, as the pods these headlines are for
  // (no message: its counts would be compared with these made-up clusters, and disagree).
  const t = target.with((p) => (p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] })).obj();
  const snapshot = snapshotOf({ pods: [t, ...others.map((o) => o.obj())], nodes: nodes.map((n) => n.obj()) });
  const outcome = diagnose(ruleSet, snapshot, { namespace: t.metadata?.namespace ?? 'default', name: t.metadata?.name ?? '' });
  if (outcome.kind !== 'diagnosis') throw new Error('no diagnosis');
  return summarySentence(outcome.diagnosis);
}

const sized = (name: string) => node(name).allocatable({ cpu: '4', memory: '16Gi', pods: '110' });

describe('the headline', () => {
  it('tells 5,000 nodes rejected by one DaemonSet anti-affinity as one clause with a count', () => {
    const nodes = Array.from({ length: 5000 }, (_, i) => sized(`node-${i}`).labels({ 'kubernetes.io/hostname': `node-${i}` }));
    const exporters = nodes.map((_, i) =>
      pod(`node-exporter-${i.toString(36).padStart(5, '0')}`, 'monitoring')
        .labels({ app: 'node-exporter' })
        .on(`node-${i}`)
        .with(antiAffinity('kubernetes.io/hostname', { team: 'batch' }, { namespaceSelector: {} })),
    );
    const line = headline(pod('job-0', 'batch').labels({ team: 'batch' }).req({ cpu: '100m' }), nodes, exporters);
    expect(line.length).toBeLessThanOrEqual(headlineLimit);
    expect(line).toContain('0 of 5000 nodes fit: 5000 nodes share kubernetes.io/hostname with monitoring/node-exporter-* (5000 pods)');
    expect(line).not.toMatch(/more nodes? fails? for other reasons/);
  });

  it('groups taints by key and effect, not node by node, and counts in the right grammar', () => {
    const nodes = [sized('a').taint('team', 'ads', 'NoSchedule'), sized('b').taint('team', 'data', 'NoSchedule'), sized('c').cordon()];
    const line = headline(pod('web-0', 'shop').req({ cpu: '1' }), nodes);
    expect(line).toBe('Pod shop/web-0 cannot be scheduled. 0 of 3 nodes fit: 2 nodes carry taint team:NoSchedule (values ads, data), which it does not tolerate; 1 node is cordoned (spec.unschedulable).');
  });

  it('leads with the nodes the pod selects, then one clause for the rest', () => {
    const nodes = [
      sized('gpu-1').labels({ pool: 'gpu' }).taint('dedicated', 'gpu', 'NoSchedule'),
      sized('web-1').labels({ pool: 'web' }),
      sized('web-2').labels({ pool: 'web' }),
    ];
    const target = pod('train-0', 'ml').req({ cpu: '1' }).nodeSelector({ pool: 'gpu' }).tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' });
    expect(headline(target, nodes)).toBe(
      'Pod ml/train-0 cannot be scheduled. 0 of 3 nodes fit: the node it selects (gpu-1) carries taint dedicated=gpu:NoSchedule, which its toleration misses by value "GPU" (letter case); the other 2 do not match its nodeSelector pool=gpu.',
    );
  });

  it('says when free capacity is there in total but on no single node (fragmentation)', () => {
    const nodes = ['a', 'b', 'c'].map((n) => sized(n));
    const fillers = ['a', 'b', 'c'].map((n) => pod(`filler-${n}`).req({ cpu: '2800m' }).on(n));
    const line = headline(pod('big').req({ cpu: '1500m' }), nodes, fillers);
    expect(line).toContain('3 nodes have 3600m cpu free in total but at most 1200m on one (pod asks 1500m)');
  });

  it('stays within the limit however many different causes there are, counting what it leaves out', () => {
    const nodes = Array.from({ length: 40 }, (_, i) => sized(`node-${i}`).taint(`key-${i}-${'x'.repeat(20)}`, `value-${i}`, 'NoSchedule'));
    const line = headline(pod('p').req({ cpu: '1' }), nodes);
    expect(line.length).toBeLessThanOrEqual(headlineLimit);
    expect(line).toMatch(/; \d+ more nodes fail for other reasons\.$/);
    const shown = [...line.matchAll(/1 node carries taint/g)].length;
    expect(shown + Number(/(\d+) more nodes/.exec(line)?.[1])).toBe(40);
  });

  it('does not call different values a near miss', () => {
    const nodes = [sized('a').labels({ disktype: 'hdd', arch: 'arm64' })];
    const line = headline(pod('p').req({ cpu: '1' }).nodeSelector({ disktype: 'ssd' }), nodes);
    expect(line).toBe('Pod default/p cannot be scheduled. 0 of 1 node fit: 1 node does not match its nodeSelector disktype=ssd (has disktype=hdd).');
  });
});

describe('node affinity with several terms', () => {
  it('tells each node against the term it comes closest to, the others counted', async () => {
    const { describeReason } = await import('../../src/messages/reasons.js');
    const target = pod('p')
      .req({ cpu: '1' })
      .affinityTerm({ key: 'zone', operator: 'In', values: ['a'] }, { key: 'disk', operator: 'In', values: ['ssd'] })
      .affinityTerm({ key: 'pool', operator: 'In', values: ['gpu'] })
      .obj();
    const t = { ...target, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '' }] } };
    const snapshot = snapshotOf({ pods: [t], nodes: [sized('n').labels({ zone: 'a', pool: 'cpu' }).obj()] });
    const outcome = diagnose(ruleSet, snapshot, { namespace: 'default', name: 'p' });
    if (outcome.kind !== 'diagnosis') throw new Error('no diagnosis');
    const reason = outcome.diagnosis.nodes[0]?.reasons[0];
    if (!reason) throw new Error('no reason');
    // Term 1 misses one requirement (disk), term 2 one (pool): the first of the closest is told.
    expect(describeReason(reason.detail)).toBe('required node affinity term 1 (closest of 2 terms; the others miss too): wants disk=ssd, node has no label "disk"');
  });
});

describe('the headline where the scheduler and the replay disagree', () => {
  it("says so first, in the scheduler's words, before the replay's counts; the node in dispute is unknown, not fitting", () => {
    const t = pod('p', 'shop')
      .req({ cpu: '1' })
      .with((p) => (p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.' }] }))
      .obj();
    // Another pod on the node: the dump holds what runs there (not only the target).
    const outcome = diagnose(ruleSet, snapshotOf({ pods: [t, pod('other', 'shop').req({ cpu: '1' }).on('n1').obj()], nodes: [sized('n1').obj()] }), { namespace: 'shop', name: 'p' });
    if (outcome.kind !== 'diagnosis') throw new Error('no diagnosis');
    // Nothing dated after the scheduler's attempt explains why n1 would fit: in dispute.
    expect(outcome.diagnosis.nodes.map((n) => [n.name, n.verdict, n.disputed])).toEqual([['n1', 'unproven', true]]);
    expect(summarySentence(outcome.diagnosis)).toBe(
      'Pod shop/p cannot be scheduled. The scheduler and why-pending disagree: the scheduler said "0/1 nodes are available: 1 Insufficient cpu"; why-pending finds 0 of 1 node fit and 1 in dispute (unknown) (see "The scheduler said").',
    );
  });
});
