import { describe, expect, it } from 'vitest';
import type { PreFilterOutcome } from '../../../src/engine/model.js';
import type { Reason, ReasonDetail } from '../../../src/engine/reasons.js';
import type { PluginName } from '../../../src/engine/names.js';
import rule, { type VolumeBindingDetail } from '../../../src/engine/rules/VolumeBinding.js';
import { node, pod, type PodBuilder } from '../../support/builders.js';
import { claimVolume, ephemeralVolume, pv, pvc, storageClass, type PvBuilder, type PvcBuilder } from '../../support/volume-builders.js';
import { evaluate } from '../../support/rules.js';

const ZONE = 'topology.kubernetes.io/zone';
const unresolvable = (detail: VolumeBindingDetail): Reason => ({ plugin: 'VolumeBinding', code: 'UnschedulableAndUnresolvable', detail });
const classes = [
  storageClass('standard', 'ebs.csi.aws.com').obj(),
  storageClass('wffc', 'ebs.csi.aws.com').waitForFirstConsumer().obj(),
  storageClass('zonal', 'ebs.csi.aws.com').waitForFirstConsumer().allowedTopology({ [ZONE]: ['a'] }).obj(),
  storageClass('local', 'kubernetes.io/no-provisioner').waitForFirstConsumer().obj(),
];
const inZone = (zone: string) => ({ key: ZONE, operator: 'In', values: [zone] });
/** A local PV's affinity (`kubernetes.io/hostname In (host)`) does not admit `node`. */
const notOnHost = (claim: string, pv: string, host: string, node: string): Reason =>
  unresolvable({ kind: 'volumeNodeAffinityConflict', claim, pv, terms: [{ index: 0, unmet: [{ source: 'label', key: 'kubernetes.io/hostname', operator: 'In', values: [host], nodeValue: node }] }] });
const withClaims = (...names: string[]) => names.reduce((p, c) => p.with(claimVolume(c)), pod('p'));
const target = pod('p');
const targetUid = target.obj().metadata?.uid ?? '';

const everyPvListed = unresolvable({
  kind: 'noAvailableVolumeToBind',
  claims: [
    {
      claim: 'data',
      storageClass: 'local',
      candidates: [
        { pv: 'small', rejected: { why: 'tooSmall', capacity: '1Gi', requested: '5Gi' } },
        { pv: 'taken', rejected: { why: 'boundToOtherClaim', claimRef: 'default/other' } },
        { pv: 'block', rejected: { why: 'volumeModeMismatch', volumeMode: 'Block', requested: 'Filesystem' } },
        { pv: 'released', rejected: { why: 'notAvailable', phase: 'Released' } },
        { pv: 'unlabelled', rejected: { why: 'selectorMismatch' } },
        { pv: 'rwx', rejected: { why: 'accessModesMismatch', volumeModes: ['ReadWriteMany'], requested: ['ReadWriteOnce'] } },
        { pv: 'fancy', rejected: { why: 'volumeAttributesClassMismatch', volumeClass: 'gold', requested: '' } },
      ],
      cause: { why: 'noProvisioner', provisioner: 'kubernetes.io/no-provisioner' },
    },
  ],
});
const smallestFirst = unresolvable({
  kind: 'noAvailableVolumeToBind',
  claims: [{ claim: 'big', storageClass: 'local', candidates: [{ pv: 'only', rejected: { why: 'chosenForAnotherClaim' } }], cause: { why: 'noProvisioner', provisioner: 'kubernetes.io/no-provisioner' } }],
});

interface Case {
  name: string;
  pod: PodBuilder;
  claims?: PvcBuilder[];
  volumes?: PvBuilder[];
  preFilter?: PreFilterOutcome<PluginName, ReasonDetail>;
  n1?: Reason[];
  n2?: Reason[];
}

const prefilterCases: Case[] = [
  { name: 'a pod without claims is not looked at', pod: pod('p'), preFilter: { skip: true } },
  {
    name: 'a missing claim fails the pod, unresolvably',
    pod: withClaims('data'),
    preFilter: { reasons: [unresolvable({ kind: 'bindingClaimNotFound', claim: 'data', ephemeral: false })] },
  },
  {
    name: 'a missing ephemeral claim is waiting for its controller',
    pod: pod('p').with(ephemeralVolume('scratch', 'wffc')),
    preFilter: { reasons: [unresolvable({ kind: 'bindingClaimNotFound', claim: 'p-scratch', ephemeral: true })] },
  },
  {
    name: 'a Lost claim fails the pod',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('standard').volumeName('gone').phase('Lost')],
    preFilter: { reasons: [unresolvable({ kind: 'bindingClaimLost', claim: 'data', volume: 'gone' })] },
  },
  {
    name: 'a claim being deleted fails the pod',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('standard').boundTo('pv-data').deleting()],
    volumes: [pv('pv-data')],
    preFilter: { reasons: [unresolvable({ kind: 'bindingClaimBeingDeleted', claim: 'data' })] },
  },
  {
    name: 'an ephemeral claim not owned by the pod fails it',
    pod: pod('p').with(ephemeralVolume('scratch', 'wffc')),
    claims: [pvc('p-scratch').storageClass('wffc')],
    preFilter: { reasons: [unresolvable({ kind: 'ephemeralClaimNotForPod', claim: 'p-scratch', pod: 'default/p' })] },
  },
  {
    name: 'an ephemeral claim owned by the pod is provisioned like any WaitForFirstConsumer claim',
    pod: pod('p').with(ephemeralVolume('scratch', 'wffc')),
    claims: [pvc('p-scratch').storageClass('wffc').with((c) => (c.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: targetUid, controller: true }]))],
  },
  {
    name: 'unbound claims that are not WaitForFirstConsumer fail the pod, each with its cause',
    pod: withClaims('imm', 'noclass', 'ghostclass', 'prebound', 'later'),
    claims: [
      pvc('imm').storageClass('standard'),
      pvc('noclass'),
      pvc('ghostclass').storageClass('ghost'),
      pvc('prebound').storageClass('wffc').volumeName('pv-x'),
      pvc('later').storageClass('wffc'),
    ],
    preFilter: {
      reasons: [
        unresolvable({
          kind: 'unboundImmediateClaims',
          claims: [
            { claim: 'imm', storageClass: 'standard', cause: 'immediateMode', provisioner: 'ebs.csi.aws.com', events: [] },
            { claim: 'noclass', storageClass: '', cause: 'noStorageClass', events: [] },
            { claim: 'ghostclass', storageClass: 'ghost', cause: 'storageClassNotFound', events: [] },
            { claim: 'prebound', storageClass: 'wffc', cause: 'bindingInProgress', volumeName: 'pv-x', provisioner: 'ebs.csi.aws.com', events: [] },
          ],
        }),
      ],
    },
  },
  {
    name: 'a bound local PV narrows the nodes to its host',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('local').boundTo('pv-local')],
    volumes: [pv('pv-local').storageClass('local').onHost('n1').claimRef('default', 'data')],
    preFilter: { nodeNames: new Set(['n1']), outsideDetail: { kind: 'outsideLocalVolumeNodes', nodes: ['n1'], volumes: [{ claim: 'data', pv: 'pv-local' }] } },
    n2: [notOnHost('data', 'pv-local', 'n1', 'n2')],
  },
  {
    name: 'a bound claim whose PV is missing cancels the narrowing',
    pod: withClaims('data', 'gone'),
    claims: [pvc('data').storageClass('local').boundTo('pv-local'), pvc('gone').storageClass('standard').boundTo('pv-gone')],
    volumes: [pv('pv-local').onHost('n1')],
    n1: [unresolvable({ kind: 'boundVolumeMissing', claim: 'gone', pv: 'pv-gone' })],
    n2: [notOnHost('data', 'pv-local', 'n1', 'n2')],
  },
  {
    name: 'local PVs pinned to different nodes leave no node at all',
    pod: withClaims('a', 'b'),
    claims: [pvc('a').storageClass('local').boundTo('pv-a'), pvc('b').storageClass('local').boundTo('pv-b')],
    volumes: [pv('pv-a').onHost('n1'), pv('pv-b').onHost('n2')],
    preFilter: {
      reasons: [
        unresolvable({
          kind: 'localVolumesNoCommonNode',
          volumes: [
            { claim: 'a', pv: 'pv-a', nodes: ['n1'] },
            { claim: 'b', pv: 'pv-b', nodes: ['n2'] },
          ],
        }),
      ],
    },
    n1: [notOnHost('b', 'pv-b', 'n2', 'n1')],
    n2: [notOnHost('a', 'pv-a', 'n1', 'n2')],
  },
];

const filterCases: Case[] = [
  { name: 'a bound PV without node affinity fits every node', pod: withClaims('data'), claims: [pvc('data').storageClass('standard').boundTo('pv-data')], volumes: [pv('pv-data')] },
  {
    name: 'a bound PV in zone a does not fit a node in zone b',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('standard').boundTo('pv-data')],
    volumes: [pv('pv-data').affinityTerm(inZone('a'))],
    n2: [unresolvable({ kind: 'volumeNodeAffinityConflict', claim: 'data', pv: 'pv-data', terms: [{ index: 0, unmet: [{ source: 'label', key: ZONE, operator: 'In', values: ['a'], nodeValue: 'b' }] }] })],
  },
  {
    name: 'a PV affinity naming a node by field never matches, as the scheduler checks labels only',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('standard').boundTo('pv-data')],
    volumes: [pv('pv-data').with((v) => (v.spec!.nodeAffinity = { required: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } }))],
    n1: [unresolvable({ kind: 'volumeNodeAffinityConflict', claim: 'data', pv: 'pv-data', terms: [{ index: 0, unmet: [{ source: 'field', key: 'metadata.name', operator: 'In', values: ['n1'] }] }] })],
    n2: [unresolvable({ kind: 'volumeNodeAffinityConflict', claim: 'data', pv: 'pv-data', terms: [{ index: 0, unmet: [{ source: 'field', key: 'metadata.name', operator: 'In', values: ['n1'] }] }] })],
  },
  {
    name: 'a claim bound to a PV that does not exist fails every node',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('standard').boundTo('pv-gone')],
    n1: [unresolvable({ kind: 'boundVolumeMissing', claim: 'data', pv: 'pv-gone' })],
    n2: [unresolvable({ kind: 'boundVolumeMissing', claim: 'data', pv: 'pv-gone' })],
  },
  { name: 'a WaitForFirstConsumer claim with a dynamic provisioner fits anywhere', pod: withClaims('data'), claims: [pvc('data').storageClass('wffc')] },
  {
    name: 'allowedTopologies keep provisioning to zone a',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('zonal')],
    n2: [unresolvable({ kind: 'noAvailableVolumeToBind', claims: [{ claim: 'data', storageClass: 'zonal', candidates: [], cause: { why: 'topologyNotAllowed', allowedTopologies: [`${ZONE} in (a)`] } }] })],
  },
  {
    name: 'a local claim binds only where an available PV fits',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('local')],
    volumes: [pv('pv-a').storageClass('local').affinityTerm(inZone('a'))],
    n2: [
      unresolvable({
        kind: 'noAvailableVolumeToBind',
        claims: [
          {
            claim: 'data',
            storageClass: 'local',
            candidates: [{ pv: 'pv-a', rejected: { why: 'nodeAffinityMismatch', prebound: false } }],
            cause: { why: 'noProvisioner', provisioner: 'kubernetes.io/no-provisioner' },
          },
        ],
      }),
    ],
  },
  {
    name: 'every PV of the class is listed with the first check it failed',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('local').request('5Gi').selector({ matchLabels: { tier: 'db' } })],
    volumes: [
      pv('small').storageClass('local').capacity('1Gi'),
      pv('taken').storageClass('local').claimRef('default', 'other'),
      pv('block').storageClass('local').with((v) => (v.spec!.volumeMode = 'Block')),
      pv('released').storageClass('local').phase('Released'),
      pv('unlabelled').storageClass('local'),
      pv('rwx').storageClass('local').labels({ tier: 'db' }).accessModes('ReadWriteMany'),
      pv('fancy').storageClass('local').labels({ tier: 'db' }).with((v) => (v.spec!.volumeAttributesClassName = 'gold')),
      pv('other-class').storageClass('standard').labels({ tier: 'db' }),
    ],
    n1: [everyPvListed],
    n2: [everyPvListed],
  },
  {
    name: 'the smallest claim is matched first and the PV is not given twice',
    pod: withClaims('big', 'tiny'),
    claims: [pvc('big').storageClass('local').request('5Gi'), pvc('tiny').storageClass('local').request('1Gi')],
    volumes: [pv('only').storageClass('local').capacity('10Gi')],
    n1: [smallestFirst],
    n2: [smallestFirst],
  },
  {
    name: 'a PV pre-bound to the claim is its only candidate',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('local')],
    volumes: [pv('mine').storageClass('local').claimRef('default', 'data').affinityTerm(inZone('a')), pv('spare').storageClass('local')],
    n2: [
      unresolvable({
        kind: 'noAvailableVolumeToBind',
        claims: [{ claim: 'data', storageClass: 'local', candidates: [{ pv: 'mine', rejected: { why: 'nodeAffinityMismatch', prebound: true } }], cause: { why: 'noProvisioner', provisioner: 'kubernetes.io/no-provisioner' } }],
      }),
    ],
  },
  {
    name: 'a claim already being provisioned for n1 cannot go to n2',
    pod: withClaims('data'),
    claims: [pvc('data').storageClass('wffc').selectedNode('n1')],
    n2: [unresolvable({ kind: 'noAvailableVolumeToBind', claims: [{ claim: 'data', storageClass: 'wffc', candidates: [], cause: { why: 'selectedNodeElsewhere', selectedNode: 'n1' } }] })],
  },
  {
    name: 'an affinity conflict comes before a claim that cannot bind',
    pod: withClaims('data', 'scratch'),
    claims: [pvc('data').storageClass('standard').boundTo('pv-data'), pvc('scratch').storageClass('zonal')],
    volumes: [pv('pv-data').affinityTerm(inZone('a'))],
    n2: [
      unresolvable({ kind: 'volumeNodeAffinityConflict', claim: 'data', pv: 'pv-data', terms: [{ index: 0, unmet: [{ source: 'label', key: ZONE, operator: 'In', values: ['a'], nodeValue: 'b' }] }] }),
      unresolvable({ kind: 'noAvailableVolumeToBind', claims: [{ claim: 'scratch', storageClass: 'zonal', candidates: [], cause: { why: 'topologyNotAllowed', allowedTopologies: [`${ZONE} in (a)`] } }] }),
    ],
  },
];

function run(c: Case) {
  return evaluate(rule, c.pod.obj(), [node('n1').zone('a').obj(), node('n2').zone('b').obj()], {
    persistentVolumeClaims: (c.claims ?? []).map((o) => o.obj()),
    persistentVolumes: (c.volumes ?? []).map((o) => o.obj()),
    storageClasses: classes,
  });
}

describe('VolumeBinding', () => {
  describe('PreFilter', () => {
    it.each(prefilterCases)('$name', (c) => {
      expect(run(c)).toEqual({ preFilter: c.preFilter ?? {}, nodes: { n1: c.n1 ?? [], n2: c.n2 ?? [] } });
    });
  });
  describe('Filter', () => {
    it.each(filterCases)('$name', (c) => {
      expect(run(c)).toEqual({ preFilter: c.preFilter ?? {}, nodes: { n1: c.n1 ?? [], n2: c.n2 ?? [] } });
    });
  });
});
