import { describe, expect, it } from 'vitest';
import type { NodeAffinityDetail } from '../../../src/engine/rules/NodeAffinity.js';
import rule from '../../../src/engine/rules/NodeAffinity.js';
import { contextFor, node, pod } from '../../support/builders.js';
import { runRule } from '../../support/rules.js';

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
