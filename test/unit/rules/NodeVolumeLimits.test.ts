import { describe, expect, it } from 'vitest';
import type { V1CSINode } from '@kubernetes/client-node';
import type { Reason } from '../../../src/engine/reasons.js';
import rule, { type NewVolume } from '../../../src/engine/rules/NodeVolumeLimits.js';
import { node, pod, type PodBuilder } from '../../support/builders.js';
import { claimVolume, csiNode, inlineVolume, pv, pvc, storageClass, type PvBuilder, type PvcBuilder } from '../../support/volume-builders.js';
import { evaluate } from '../../support/rules.js';

const EBS = 'ebs.csi.aws.com';
const limitTwo = csiNode('n1').driver(EBS, 2).driver('pd.csi.storage.gke.io', 1);

// A bound claim and its CSI PV, named after the volume handle.
function csiClaim(name: string, handle: string, driver = EBS): [PvcBuilder, PvBuilder] {
  return [pvc(name).storageClass('gp3').boundTo(`pv-${name}`), pv(`pv-${name}`).csi(driver, handle).claimRef('default', name)];
}

const [data, dataPv] = csiClaim('data', 'vol-new');
const [used1, used1Pv] = csiClaim('used1', 'vol-1');
const [used2, used2Pv] = csiClaim('used2', 'vol-2');
const [gce, gcePv] = csiClaim('gce', 'disk-1', 'pd.csi.storage.gke.io');
const [gce2, gce2Pv] = csiClaim('gce2', 'disk-2', 'pd.csi.storage.gke.io');
const onNode = (name: string, ...claims: string[]) => claims.reduce((p, c) => p.with(claimVolume(c)), pod(name)).on('n1');
const exceeded = (driver: string, limit: number, attached: number, adding: NewVolume[]): Reason => ({
  plugin: 'NodeVolumeLimits',
  code: 'Unschedulable',
  detail: { kind: 'csiVolumeLimitExceeded', driver, limit, attached, adding },
});

interface Case {
  name: string;
  pod: PodBuilder;
  others?: PodBuilder[];
  claims?: PvcBuilder[];
  volumes?: PvBuilder[];
  csiNodes?: V1CSINode[];
  n1?: Reason[];
  /** The scheduler's PreFilter returns Skip: no volume counts against a limit. */
  skip?: true;
}

const cases: Case[] = [
  { name: 'a pod without volumes passes', pod: pod('p'), skip: true, others: [onNode('a', 'used1', 'used2')] },
  { name: 'one new volume under the limit fits', pod: pod('p').with(claimVolume('data')), others: [onNode('a', 'used1')] },
  {
    name: 'a new volume over the driver limit fails, unlike a node without a CSINode',
    pod: pod('p').with(claimVolume('data')),
    others: [onNode('a', 'used1'), onNode('b', 'used2')],
    n1: [exceeded(EBS, 2, 2, [{ volume: 'data', claim: 'data', handle: 'ebs.csi.aws.com/vol-new' }])],
  },
  {
    name: 'a volume the node already uses is not counted twice',
    pod: pod('p').with(claimVolume('used1')),
    others: [onNode('a', 'used1'), onNode('b', 'used2')],
  },
  {
    name: 'two pods on the node sharing one volume count it once',
    pod: pod('p').with(claimVolume('data')),
    others: [onNode('a', 'used1'), onNode('b', 'used1')],
  },
  {
    name: 'an unbound claim counts as a new volume of its StorageClass provisioner',
    pod: pod('p').with(claimVolume('fresh')),
    claims: [pvc('fresh').storageClass('gp3')],
    others: [onNode('a', 'used1', 'used2')],
    n1: [exceeded(EBS, 2, 2, [{ volume: 'fresh', claim: 'fresh', handle: 'ebs.csi.aws.com/unbound:default/fresh' }])],
  },
  {
    name: 'an unbound claim without a StorageClass is not counted',
    pod: pod('p').with(claimVolume('fresh')),
    claims: [pvc('fresh')],
    others: [onNode('a', 'used1', 'used2')],
  },
  {
    name: 'an in-tree EBS PV counts against the EBS CSI driver through migration',
    pod: pod('p').with(claimVolume('legacy')),
    claims: [pvc('legacy').boundTo('pv-legacy')],
    volumes: [pv('pv-legacy').ebs('aws://us-east-1a/vol-9')],
    others: [onNode('a', 'used1', 'used2')],
    n1: [exceeded(EBS, 2, 2, [{ volume: 'legacy', claim: 'legacy', handle: 'ebs.csi.aws.com/vol-9' }])],
  },
  {
    name: 'an in-tree EBS volume is the same disk as the CSI volume with its bare ID',
    pod: pod('p').with(claimVolume('used1')),
    others: [pod('a').with(inlineVolume({ name: 'old', awsElasticBlockStore: { volumeID: 'aws://us-east-1a/vol-1' } })).on('n1'), onNode('b', 'used2')],
  },
  {
    name: 'inline Portworx volumes count only where the CSINode lists the migration',
    pod: pod('p').with(inlineVolume({ name: 'px', portworxVolume: { volumeID: 'px-1' } })),
    csiNodes: [csiNode('n1').driver('pxd.portworx.com', 0).obj()],
  },
  {
    name: 'an inline Portworx volume over a migrated driver limit fails',
    pod: pod('p').with(inlineVolume({ name: 'px', portworxVolume: { volumeID: 'px-1' } })),
    csiNodes: [csiNode('n1').driver('pxd.portworx.com', 0).migrated('kubernetes.io/portworx-volume').obj()],
    n1: [exceeded('pxd.portworx.com', 0, 0, [{ volume: 'px', handle: 'pxd.portworx.com/px-1' }])],
  },
  {
    name: 'volumes of another driver do not use this driver’s slots',
    pod: pod('p').with(claimVolume('gce')),
    others: [onNode('a', 'used1', 'used2')],
  },
  {
    name: 'a driver without allocatable count has no limit',
    pod: pod('p').with(claimVolume('data')),
    others: [onNode('a', 'used1', 'used2')],
    csiNodes: [csiNode('n1').driver(EBS).obj()],
  },
  {
    name: 'every driver over its limit is reported, by name',
    pod: pod('p').with(claimVolume('data')).with(claimVolume('gce')),
    others: [onNode('a', 'used1', 'used2'), onNode('b', 'gce2')],
    n1: [
      exceeded(EBS, 2, 2, [{ volume: 'data', claim: 'data', handle: 'ebs.csi.aws.com/vol-new' }]),
      exceeded('pd.csi.storage.gke.io', 1, 1, [{ volume: 'gce', claim: 'gce', handle: 'pd.csi.storage.gke.io/disk-1' }]),
    ],
  },
  {
    name: 'a missing claim adds no per-node reason (PreFilter of other plugins rejects it)',
    pod: pod('p').with(claimVolume('nothere')),
    others: [onNode('a', 'used1', 'used2')],
  },
];

describe('NodeVolumeLimits', () => {
  it.each(cases)('$name', (c) => {
    const outcome = evaluate(rule, c.pod.obj(), [node('n1').obj(), node('n2').obj()], {
      pods: (c.others ?? []).map((o) => o.obj()),
      persistentVolumeClaims: [data, used1, used2, gce, gce2, ...(c.claims ?? [])].map((o) => o.obj()),
      persistentVolumes: [dataPv, used1Pv, used2Pv, gcePv, gce2Pv, ...(c.volumes ?? [])].map((o) => o.obj()),
      storageClasses: [storageClass('gp3', EBS).obj()],
      csiNodes: c.csiNodes ?? [limitTwo.obj()],
    });
    expect(outcome).toEqual({ preFilter: c.skip ? { skip: true } : {}, nodes: { n1: c.n1 ?? [], n2: [] } });
  });
});
