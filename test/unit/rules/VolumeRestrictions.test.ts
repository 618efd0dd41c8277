import { describe, expect, it } from 'vitest';
import { podFacts } from '../../../src/engine/facts.js';
import type { Reason } from '../../../src/engine/reasons.js';
import rule, { type VolumeRestrictionsDetail } from '../../../src/engine/rules/VolumeRestrictions.js';
import { node, pod, type PodBuilder } from '../../support/builders.js';
import { claimVolume, inlineVolume, pvc, type PvcBuilder } from '../../support/volume-builders.js';
import { evaluate } from '../../support/rules.js';

const conflict = (detail: VolumeRestrictionsDetail): Reason => ({ plugin: 'VolumeRestrictions', code: 'Unschedulable', detail });
const gce = (pdName: string, readOnly = false) => inlineVolume({ name: 'disk', gcePersistentDisk: { pdName, readOnly } });
const ebs = (volumeID: string, readOnly = false) => inlineVolume({ name: 'disk', awsElasticBlockStore: { volumeID, readOnly } });
const iscsi = (iqn: string, readOnly = false) => inlineVolume({ name: 'disk', iscsi: { iqn, lun: 0, targetPortal: '10.0.0.1:3260', readOnly } });
const rbd = (monitors: string[], image: string, readOnly = false) => inlineVolume({ name: 'disk', rbd: { monitors, image, pool: 'kube', readOnly } });
const rwop = pvc('data').accessModes('ReadWriteOncePod');

interface Case {
  name: string;
  pod: PodBuilder;
  others?: PodBuilder[];
  claims?: PvcBuilder[];
  preFilter?: Reason[];
  /** The scheduler's PreFilter returns Skip: neither a claim nor a disk that can conflict. */
  skip?: true;
  n1?: Reason[];
  n2?: Reason[];
}

const cases: Case[] = [
  { name: 'a pod without volumes passes everywhere', pod: pod('p'), skip: true, others: [pod('a').with(gce('pd-1')).on('n1')] },
  { name: 'a ReadWriteOnce claim used by another pod is no conflict', pod: pod('p').with(claimVolume('data')), others: [pod('a').with(claimVolume('data')).on('n1')], claims: [pvc('data')] },
  {
    name: 'a missing claim fails the pod in PreFilter, unresolvably',
    pod: pod('p').with(claimVolume('data')),
    preFilter: [{ plugin: 'VolumeRestrictions', code: 'UnschedulableAndUnresolvable', detail: { kind: 'restrictionsClaimNotFound', claim: 'data' } }],
  },
  {
    name: 'the same GCE PD mounted read-write on the node conflicts there only',
    pod: pod('p').with(gce('pd-1')),
    others: [pod('a').with(gce('pd-1', true)).on('n1')],
    n1: [conflict({ kind: 'diskConflict', conflicts: [{ volume: 'disk', disk: { type: 'gcePersistentDisk', id: 'pd-1' }, pod: 'default/a' }] })],
  },
  { name: 'a GCE PD mounted read-only by every pod is shared', pod: pod('p').with(gce('pd-1', true)), others: [pod('a').with(gce('pd-1', true)).on('n1')] },
  { name: 'a different GCE PD is no conflict', pod: pod('p').with(gce('pd-1')), others: [pod('a').with(gce('pd-2')).on('n1')] },
  {
    name: 'an EBS volume conflicts even when both mount it read-only',
    pod: pod('p').with(ebs('vol-1', true)),
    others: [pod('a', 'other').with(ebs('vol-1', true)).on('n2')],
    n2: [conflict({ kind: 'diskConflict', conflicts: [{ volume: 'disk', disk: { type: 'awsElasticBlockStore', id: 'vol-1' }, pod: 'other/a' }] })],
  },
  {
    name: 'the same iSCSI IQN with one writer conflicts',
    pod: pod('p').with(iscsi('iqn.2001-04.com.example:disk')),
    others: [pod('a').with(iscsi('iqn.2001-04.com.example:disk', true)).on('n1')],
    n1: [conflict({ kind: 'diskConflict', conflicts: [{ volume: 'disk', disk: { type: 'iscsi', id: 'iqn.2001-04.com.example:disk' }, pod: 'default/a' }] })],
  },
  { name: 'the same iSCSI IQN read-only everywhere is shared', pod: pod('p').with(iscsi('iqn.x', true)), others: [pod('a').with(iscsi('iqn.x', true)).on('n1')] },
  {
    name: 'an RBD image conflicts when one Ceph monitor is shared',
    pod: pod('p').with(rbd(['m1', 'm2'], 'img')),
    others: [pod('a').with(rbd(['m2', 'm3'], 'img')).on('n1')],
    n1: [conflict({ kind: 'diskConflict', conflicts: [{ volume: 'disk', disk: { type: 'rbd', id: 'kube/img' }, pod: 'default/a' }] })],
  },
  { name: 'an RBD image behind other monitors is another image', pod: pod('p').with(rbd(['m1'], 'img')), others: [pod('a').with(rbd(['m9'], 'img')).on('n1')] },
  {
    name: 'a ReadWriteOncePod claim in use fails every node, not only the user’s',
    pod: pod('p').with(claimVolume('data')),
    others: [pod('a').with(claimVolume('data')).on('n2')],
    claims: [rwop],
    n1: [conflict({ kind: 'readWriteOncePodInUse', claims: [{ claim: 'data', usedBy: [{ pod: 'default/a', node: 'n2' }] }] })],
    n2: [conflict({ kind: 'readWriteOncePodInUse', claims: [{ claim: 'data', usedBy: [{ pod: 'default/a', node: 'n2' }] }] })],
  },
  {
    name: 'a claim of the same name in another namespace is another claim',
    pod: pod('p').with(claimVolume('data')),
    others: [pod('a', 'other').with(claimVolume('data')).on('n1')],
    claims: [rwop],
  },
  {
    name: 'a finished pod no longer holds a ReadWriteOncePod claim',
    pod: pod('p').with(claimVolume('data')),
    others: [pod('a').with(claimVolume('data')).on('n1').phase('Succeeded')],
    claims: [rwop],
  },
  {
    name: 'a disk conflict comes before the ReadWriteOncePod conflict',
    pod: pod('p').with(claimVolume('data')).with(gce('pd-1')),
    others: [pod('a').with(claimVolume('data')).with(gce('pd-1')).on('n1')],
    claims: [rwop],
    n1: [
      conflict({ kind: 'diskConflict', conflicts: [{ volume: 'disk', disk: { type: 'gcePersistentDisk', id: 'pd-1' }, pod: 'default/a' }] }),
      conflict({ kind: 'readWriteOncePodInUse', claims: [{ claim: 'data', usedBy: [{ pod: 'default/a', node: 'n1' }] }] }),
    ],
    n2: [conflict({ kind: 'readWriteOncePodInUse', claims: [{ claim: 'data', usedBy: [{ pod: 'default/a', node: 'n1' }] }] })],
  },
];

describe('VolumeRestrictions', () => {
  it.each(cases)('$name', (c) => {
    const outcome = evaluate(rule, c.pod.obj(), [node('n1').obj(), node('n2').obj()], {
      pods: (c.others ?? []).map((o) => o.obj()),
      persistentVolumeClaims: (c.claims ?? []).map((o) => o.obj()),
    });
    expect(outcome).toEqual({ preFilter: c.preFilter ? { reasons: c.preFilter } : c.skip ? { skip: true } : {}, nodes: { n1: c.n1 ?? [], n2: c.n2 ?? [] } });
  });

  it('needs pods and claims only for pods that have them', () => {
    const facts = (p: PodBuilder) => podFacts(p.obj());
    expect(rule.needs(facts(pod('p')))).toEqual([]);
    expect(rule.needs(facts(pod('p').with(gce('pd'))))).toEqual(['pods']);
    expect(rule.needs(facts(pod('p').with(claimVolume('data'))))).toEqual(['pods', 'persistentVolumeClaims']);
  });
});
