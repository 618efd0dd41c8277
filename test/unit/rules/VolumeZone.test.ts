import { describe, expect, it } from 'vitest';
import type { PreFilterOutcome } from '../../../src/engine/model.js';
import type { Reason } from '../../../src/engine/reasons.js';
import rule, { type VolumeZoneDetail } from '../../../src/engine/rules/VolumeZone.js';
import { node, pod, type PodBuilder } from '../../support/builders.js';
import { claimVolume, ephemeralVolume, pv, pvc, storageClass, type PvBuilder, type PvcBuilder } from '../../support/volume-builders.js';
import { evaluate } from '../../support/rules.js';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const unresolvable = (detail: VolumeZoneDetail): Reason => ({ plugin: 'VolumeZone', code: 'UnschedulableAndUnresolvable', detail });
const withData = pod('p').with(claimVolume('data'));
const bound = pvc('data').storageClass('standard').boundTo('pv-data');

interface Case {
  name: string;
  pod?: PodBuilder;
  claims?: PvcBuilder[];
  volumes?: PvBuilder[];
  preFilter?: Reason[];
  /** The scheduler's PreFilter returns Skip: no claim. */
  skip?: true;
  n1?: Reason[];
  n2?: Reason[];
}

const cases: Case[] = [
  { name: 'a pod without claims passes', pod: pod('p'), skip: true },
  { name: 'a PV without topology labels fits everywhere', volumes: [pv('pv-data')] },
  {
    name: 'a PV in zone a does not fit a node in zone b, and a node without zone labels takes it',
    volumes: [pv('pv-data').zone('a')],
    n2: [unresolvable({ kind: 'volumeZoneConflict', mismatches: [{ claim: 'data', pv: 'pv-data', label: ZONE, values: ['a'], nodeLabel: ZONE, nodeValue: 'b' }] })],
  },
  {
    name: 'a PV spread over zones a and b fits both',
    volumes: [pv('pv-data').labels({ [ZONE]: 'a__b' })],
  },
  {
    name: 'a beta zone label on the PV is compared with the node’s GA label',
    volumes: [pv('pv-data').labels({ [BETA_ZONE]: 'a' })],
    n2: [unresolvable({ kind: 'volumeZoneConflict', mismatches: [{ claim: 'data', pv: 'pv-data', label: BETA_ZONE, values: ['a'], nodeLabel: ZONE, nodeValue: 'b' }] })],
  },
  {
    name: 'every mismatching label is listed, a missing node label included',
    volumes: [pv('pv-data').labels({ [ZONE]: 'b', [REGION]: 'r2', [BETA_ZONE]: 'b' })],
    n1: [
      unresolvable({
        kind: 'volumeZoneConflict',
        mismatches: [
          { claim: 'data', pv: 'pv-data', label: BETA_ZONE, values: ['b'], nodeLabel: ZONE, nodeValue: 'a' },
          { claim: 'data', pv: 'pv-data', label: ZONE, values: ['b'], nodeLabel: ZONE, nodeValue: 'a' },
          { claim: 'data', pv: 'pv-data', label: REGION, values: ['r2'], nodeLabel: REGION },
        ],
      }),
    ],
    n2: [unresolvable({ kind: 'volumeZoneConflict', mismatches: [{ claim: 'data', pv: 'pv-data', label: REGION, values: ['r2'], nodeLabel: REGION, nodeValue: 'r1' }] })],
  },
  { name: 'a label with an empty zone in its list is ignored', volumes: [pv('pv-data').labels({ [ZONE]: 'c__' })] },
  { name: 'an unbound WaitForFirstConsumer claim is skipped', claims: [pvc('data').storageClass('wffc')] },
  { name: 'generic ephemeral volumes are not looked at', pod: pod('p').with(ephemeralVolume('scratch')), claims: [], skip: true },
  {
    name: 'a missing claim fails the pod in PreFilter',
    claims: [],
    preFilter: [unresolvable({ kind: 'volumeZoneLookupFailed', cause: 'claimNotFound', claim: 'data' })],
  },
  {
    name: 'an unbound claim without a StorageClass fails the pod',
    claims: [pvc('data')],
    preFilter: [unresolvable({ kind: 'volumeZoneLookupFailed', cause: 'claimHasNoVolumeOrClass', claim: 'data' })],
  },
  {
    name: 'an unbound claim whose StorageClass is missing fails the pod',
    claims: [pvc('data').storageClass('ghost')],
    preFilter: [unresolvable({ kind: 'volumeZoneLookupFailed', cause: 'storageClassNotFound', claim: 'data', storageClass: 'ghost' })],
  },
  {
    name: 'an unbound Immediate claim fails the pod: it has no PV yet',
    claims: [pvc('data').storageClass('standard')],
    preFilter: [unresolvable({ kind: 'volumeZoneLookupFailed', cause: 'unboundImmediate', claim: 'data', storageClass: 'standard' })],
  },
  {
    name: 'a claim bound to a missing PV fails the pod',
    volumes: [],
    preFilter: [unresolvable({ kind: 'volumeZoneLookupFailed', cause: 'volumeNotFound', claim: 'data', pv: 'pv-data' })],
  },
];

describe('VolumeZone', () => {
  it.each(cases)('$name', (c) => {
    const outcome = evaluate(rule, (c.pod ?? withData).obj(), [node('n1').zone('a').obj(), node('n2').zone('b').labels({ [REGION]: 'r1' }).obj(), node('n3').obj()], {
      persistentVolumeClaims: (c.claims ?? [bound]).map((o) => o.obj()),
      persistentVolumes: (c.volumes ?? [pv('pv-data')]).map((o) => o.obj()),
      storageClasses: [storageClass('standard', 'ebs.csi.aws.com').obj(), storageClass('wffc', 'ebs.csi.aws.com').waitForFirstConsumer().obj()],
    });
    const preFilter: PreFilterOutcome = c.preFilter ? { reasons: c.preFilter } : c.skip ? { skip: true } : {};
    expect(outcome).toEqual({ preFilter, nodes: { n1: c.n1 ?? [], n2: c.n2 ?? [], n3: [] } });
  });
});
