import { describe, expect, it } from 'vitest';
import type { NodeAffinityDetail } from '../../../src/engine/rules/NodeAffinity.js';
import rule from '../../../src/engine/rules/NodeAffinity.js';
import { contextFor, node, pod } from '../../support/builders.js';
import { runRule, verdicts } from '../../support/rules.js';

const ssd = () => node('n').labels({ disktype: 'ssd', 'topology.kubernetes.io/zone': 'eu-1a' });

describe('NodeAffinity passes', () => {
  it.each([
    { name: 'no selector and no affinity', pod: pod('p') },
    { name: 'a matching nodeSelector', pod: pod('p').nodeSelector({ disktype: 'ssd' }) },
    { name: 'one of two ORed terms matches', pod: pod('p').affinityTerm({ key: 'disktype', operator: 'In', values: ['hdd'] }).affinityTerm({ key: 'disktype', operator: 'In', values: ['ssd'] }) },
    { name: 'NotIn with an absent label', pod: pod('p').affinityTerm({ key: 'gpu', operator: 'NotIn', values: ['true'] }) },
    { name: 'DoesNotExist', pod: pod('p').affinityTerm({ key: 'gpu', operator: 'DoesNotExist' }) },
    { name: 'Gt compares integers', pod: pod('p').with((x) => x).affinityTerm({ key: 'cores', operator: 'Gt', values: ['8'] }), node: node('n').labels({ cores: '16' }) },
    { name: 'matchFields on the node name', pod: pod('p').matchFieldsTerm('n') },
  ])('$name', ({ pod: p, node: n }) => {
    expect(runRule(rule, p.obj(), (n ?? ssd()).obj())).toEqual([]);
  });
});

function detailOf(reasons: ReturnType<typeof runRule>): NodeAffinityDetail[] {
  return reasons.map((r) => r.detail as NodeAffinityDetail);
}

describe('NodeAffinity rejects', () => {
  it('a nodeSelector value differing by case, showing the node value', () => {
    const [d] = detailOf(runRule(rule, pod('p').nodeSelector({ disktype: 'SSD' }).obj(), ssd().obj()));
    if (d?.kind !== 'nodeSelectorMismatch') throw new Error('wrong kind');
    const miss = d.misses[0];
    expect(miss).toMatchObject({ key: 'disktype', wanted: ['SSD'], actual: 'ssd' });
    expect(miss?.closest?.valueDiff?.kinds).toEqual(['case']);
  });

  it('a nodeSelector key with a typo, showing the closest label', () => {
    const [d] = detailOf(runRule(rule, pod('p').nodeSelector({ 'disk-type': 'ssd' }).obj(), ssd().obj()));
    if (d?.kind !== 'nodeSelectorMismatch') throw new Error('wrong kind');
    expect(d.misses[0]).toMatchObject({ key: 'disk-type', closest: { key: 'disktype', value: 'ssd' } });
    expect(d.misses[0]?.actual).toBeUndefined();
  });

  it('a trailing space in a selector value', () => {
    const [d] = detailOf(runRule(rule, pod('p').nodeSelector({ disktype: 'ssd ' }).obj(), ssd().obj()));
    if (d?.kind !== 'nodeSelectorMismatch') throw new Error('wrong kind');
    expect(d.misses[0]?.closest?.valueDiff?.kinds).toEqual(['trailingWhitespace']);
  });

  it('every term of the required affinity, with its unmet requirements', () => {
    const p = pod('p').affinityTerm({ key: 'disktype', operator: 'In', values: ['nvme'] }).affinityTerm({ key: 'gpu', operator: 'Exists' });
    const [d] = detailOf(runRule(rule, p.obj(), ssd().obj()));
    if (d?.kind !== 'requiredAffinityMismatch') throw new Error('wrong kind');
    expect(d.terms.map((t) => [t.index, t.misses.map((m) => m.key)])).toEqual([
      [0, ['disktype']],
      [1, ['gpu']],
    ]);
  });

  it('both the selector and the affinity when both fail', () => {
    const p = pod('p').nodeSelector({ disktype: 'hdd' }).affinityTerm({ key: 'gpu', operator: 'Exists' });
    expect(detailOf(runRule(rule, p.obj(), ssd().obj())).map((d) => d.kind)).toEqual(['nodeSelectorMismatch', 'requiredAffinityMismatch']);
  });
});

describe('NodeAffinity PreFilter', () => {
  it('narrows to the nodes named by matchFields', () => {
    const ctx = contextFor(pod('p').matchFieldsTerm('a', 'b').obj(), [node('a').obj(), node('c').obj()]);
    const outcome = rule.preFilter?.(ctx);
    expect([...(outcome?.nodeNames ?? [])]).toEqual(['a', 'b']);
  });

  it('fails the pod when intersected names are empty', () => {
    const p = pod('p').with((x) => {
      x.spec!.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }, { key: 'metadata.name', operator: 'In', values: ['b'] }] }] } } };
    });
    const outcome = rule.preFilter?.(contextFor(p.obj(), [node('a').obj()]));
    expect(outcome?.reasons?.map((r) => [r.plugin, r.code, r.detail.kind])).toEqual([['NodeAffinity', 'UnschedulableAndUnresolvable', 'affinityTermsConflict']]);
  });

  it('does not narrow when one term has no matchFields', () => {
    const p = pod('p').matchFieldsTerm('a').affinityTerm({ key: 'disktype', operator: 'Exists' });
    expect(rule.preFilter?.(contextFor(p.obj(), [node('a').obj()]))).toEqual({});
  });
});

// A pod pinned to a node by name means that node (match/pins.ts): the other nodes' names, one
// character apart as sequential names are, are not near misses of it.
describe('NodeAffinity and a pin to a node by name', () => {
  const named = (name: string) => node(name).labels({ 'kubernetes.io/hostname': name });
  const missesOn = (reasons: Record<string, ReturnType<typeof runRule>>, name: string) =>
    detailOf(reasons[name] ?? []).flatMap((d) => (d.kind === 'nodeSelectorMismatch' ? d.misses : d.kind === 'requiredAffinityMismatch' ? d.terms.flatMap((t) => t.misses) : []));

  it('a hostname some node carries: the other nodes show their own name, no near miss', () => {
    const reasons = verdicts(rule, pod('p').nodeSelector({ 'kubernetes.io/hostname': 'node-2' }).obj(), [named('node-1'), named('node-2'), named('node-3')].map((n) => n.obj()));
    expect(reasons['node-2']).toEqual([]);
    for (const name of ['node-1', 'node-3']) {
      const [miss] = missesOn(reasons, name);
      expect(miss).toMatchObject({ key: 'kubernetes.io/hostname', wanted: ['node-2'], actual: name, pinnedElsewhere: true });
      expect(miss?.closest).toBeUndefined();
    }
  });

  it('a hostname no node carries may be a typo: the near name is shown', () => {
    const reasons = verdicts(rule, pod('p').nodeSelector({ 'kubernetes.io/hostname': 'Node-2' }).obj(), [named('node-1'), named('node-2')].map((n) => n.obj()));
    expect(missesOn(reasons, 'node-2')[0]?.closest?.valueDiff?.kinds).toEqual(['case']);
    expect(missesOn(reasons, 'node-2')[0]?.pinnedElsewhere).toBeUndefined();
  });

  it('by required affinity, as by nodeSelector', () => {
    const p = pod('p').affinityTerm({ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-2'] });
    const reasons = verdicts(rule, p.obj(), [named('node-1'), named('node-2')].map((n) => n.obj()));
    expect(missesOn(reasons, 'node-1')[0]).toMatchObject({ actual: 'node-1' });
    expect(missesOn(reasons, 'node-1')[0]?.closest).toBeUndefined();
  });

  it('by matchFields metadata.name (a DaemonSet pod), the other names are no near miss either', () => {
    const reasons = verdicts(rule, pod('p').matchFieldsTerm('node-2').obj(), [node('node-1'), node('node-2')].map((n) => n.obj()));
    const [miss] = missesOn(reasons, 'node-1');
    expect(miss).toMatchObject({ key: 'metadata.name', actual: 'node-1', pinnedElsewhere: true });
    expect(miss?.closest).toBeUndefined();
  });

  it('another label with near values is still compared: only names pin', () => {
    const reasons = verdicts(rule, pod('p').nodeSelector({ rack: 'rack-2' }).obj(), [node('a').labels({ rack: 'rack-1' }), node('b').labels({ rack: 'rack-2' })].map((n) => n.obj()));
    expect(missesOn(reasons, 'a')[0]?.closest?.value).toBe('rack-1');
  });
});
