// Fixes come safest class first (correction, wait, capacity, policy), pod-side changes before
// node-side ones within a class; a policy change carries the caution a careful engineer would
// want said; capacity changes stay within bounds.
import { describe, expect, it } from 'vitest';
import { qosClassOf } from '../../../src/engine/fixes/classes.js';
import { node, pod } from '../../support/builders.js';
import { fixesFor } from '../../support/fixes.js';

const classes = (fixes: ReturnType<typeof fixesFor>) => fixes.map((f) => [f.class, f.changes.map((c) => c.kind).join('+')]);

describe('fix classes and their order', () => {
  it('a near-miss toleration is corrected before any node is labelled with a fact it may not have', () => {
    // GPU nodes tainted dedicated=gpu, the pod tolerates dedicated=GPU and selects accelerator=v100,
    // which only the GPU nodes carry; the CPU nodes are untainted and lack the label.
    const target = pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' }).with((p) => (p.spec!.nodeSelector = { accelerator: 'v100' })).obj();
    const gpu = (name: string) => node(name).labels({ accelerator: 'v100' }).taint('dedicated', 'gpu', 'NoSchedule').obj();
    const fixes = fixesFor(target, [gpu('gpu-1'), node('cpu-1').obj(), node('cpu-2').obj(), node('cpu-3').obj()]);
    expect(classes(fixes)[0]).toEqual(['correction', 'tolerateTaint']);
    const label = fixes.find((f) => f.changes.some((c) => c.kind === 'labelNodes'));
    expect(label?.class).toBe('policy');
    expect(label?.cautions).toEqual([{ kind: 'labelStatesFact', labels: ['accelerator=v100'], nodes: ['cpu-1', 'cpu-2', 'cpu-3'] }]);
  });

  it('a taint the pod never mentioned is a policy change, with the caution that it keeps others off', () => {
    const fixes = fixesFor(pod('p').obj(), [node('infra-1').taint('dedicated', 'infra', 'NoSchedule').obj(), node('infra-2').taint('dedicated', 'infra', 'NoSchedule').obj()]);
    expect(fixes.map((f) => [f.class, f.cautions])).toEqual([['policy', [{ kind: 'taintKeepsOthersOff', taint: 'dedicated=infra:NoSchedule', nodes: ['infra-1', 'infra-2'] }]]]);
  });

  it('the one node spelled unlike its peers is relabelled (--overwrite), a correction ahead of dropping the requirement', () => {
    // disk=ssd is what the pod asks and two nodes carry (both full); one node spells it SSD.
    const target = pod('p').req({ cpu: '1' }).with((p) => (p.spec!.nodeSelector = { disk: 'ssd' })).obj();
    const full = (name: string) => node(name).labels({ disk: 'ssd' }).allocatable({ cpu: '1' }).obj();
    const fixes = fixesFor(target, [full('ssd-1'), full('ssd-2'), node('odd').labels({ disk: 'SSD' }).obj(), node('hdd-1').labels({ disk: 'hdd' }).obj()], {
      pods: [pod('a').req({ cpu: '1' }).on('ssd-1').obj(), pod('b').req({ cpu: '1' }).on('ssd-2').obj()],
    });
    expect(fixes[0]).toMatchObject({ class: 'correction', makesFit: ['odd'], changes: [{ kind: 'labelNodes', nodes: ['odd'], set: { disk: 'ssd' }, overwrite: { disk: 'SSD' } }] });
    // Rewriting the pod's selector to the odd spelling parts it from its peers: a policy change, said so.
    const rewrite = fixes.find((f) => f.changes.some((c) => c.kind === 'setNodeSelector'));
    if (rewrite) expect(rewrite).toMatchObject({ class: 'policy', cautions: [{ kind: 'selectorRetargeted', from: 'disk=ssd', to: 'disk=SSD' }] });
  });

  it('never relabels a node whose value is another fact, however near its spelling (a zone)', () => {
    const target = pod('p').with((p) => (p.spec!.nodeSelector = { zone: 'eu-central-1a' })).obj();
    const fixes = fixesFor(target, [node('a1').labels({ zone: 'eu-central-1a' }).cordon().obj(), node('b1').labels({ zone: 'eu-central-1b' }).obj()]);
    expect(fixes.filter((f) => f.changes.some((c) => c.kind === 'labelNodes' && c.overwrite))).toEqual([]);
  });

  it('a selector the pod spells unlike every node is a correction', () => {
    const target = pod('p').with((p) => (p.spec!.nodeSelector = { disk: 'SSD' })).obj();
    const fixes = fixesFor(target, [node('a').labels({ disk: 'ssd' }).obj(), node('b').labels({ disk: 'ssd' }).obj()]);
    expect(classes(fixes)[0]).toEqual(['correction', 'setNodeSelector']);
  });

  it('a request cut is capacity, ahead of an uncordon (policy); a large cut and a QoS change are said', () => {
    const guaranteed = pod('p').req({ cpu: '2', memory: '1Gi' }, { cpu: '2', memory: '1Gi' }).obj();
    const busy = node('busy').allocatable({ cpu: '2' }).obj();
    const fixes = fixesFor(guaranteed, [busy, node('cordoned').allocatable({ cpu: '4' }).cordon().obj()], { pods: [pod('x').req({ cpu: '1500m' }).on('busy').obj()] });
    expect(classes(fixes)).toEqual([
      ['capacity', 'setRequest'],
      ['policy', 'uncordon'],
    ]);
    expect(fixes[0]?.cautions).toEqual([
      // The alternative named: busy has 500m free of 2, so freeing 1500m fits the 2 cpu as asked.
      { kind: 'largeCut', resource: 'cpu', percent: 75, instead: { node: 'busy', free: 1500n } },
      { kind: 'qosChanges', from: 'Guaranteed', to: 'Burstable' },
    ]);
    expect(fixes[1]?.cautions).toEqual([{ kind: 'cordoned', node: 'cordoned' }]);
  });

  it('never cuts a request down to a whole empty node', () => {
    const fixes = fixesFor(pod('p').req({ cpu: '12' }).obj(), [node('n').allocatable({ cpu: '8' }).obj()]);
    expect(fixes.filter((f) => f.class === 'capacity')).toEqual([]);
  });
});

describe('QoS class', () => {
  it.each([
    ['requests equal limits for cpu and memory in every container', pod('p').req({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }).obj(), 'Guaranteed'],
    ['a request below its limit', pod('p').req({ cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }).obj(), 'Burstable'],
    ['no requests or limits', pod('p').obj(), 'BestEffort'],
  ] as const)('%s: %s', (_name, target, want) => {
    expect(qosClassOf(target)).toBe(want);
  });
});
