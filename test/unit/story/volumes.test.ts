// The pod's pin against a volume's zone (engine/story/pin.ts) and who provisions an unbound
// claim (engine/story/claims.ts).
import type { V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { claimProvisioning } from '../../../src/engine/story/claims.js';
import { podPinAgainst } from '../../../src/engine/story/pin.js';
import type { ClusterEvent } from '../../../src/snapshot/types.js';
import { pod, snapshotOf } from '../../support/builders.js';

const zone = 'topology.kubernetes.io/zone';

describe('podPinAgainst', () => {
  it.each([
    ['no pin on the label says nothing', pod('p').nodeSelector({ 'kubernetes.io/os': 'linux' }), undefined],
    ["a nodeSelector on another zone excludes the volume", pod('p').nodeSelector({ [zone]: 'us-east-1b' }), true],
    ['a nodeSelector on the same zone does not', pod('p').nodeSelector({ [zone]: 'us-east-1a' }), false],
    ['an affinity In on other zones excludes it', pod('p').affinityTerm({ key: zone, operator: 'In', values: ['us-east-1b', 'us-east-1c'] }), true],
    ['an affinity In that includes the zone does not', pod('p').affinityTerm({ key: zone, operator: 'In', values: ['us-east-1a', 'us-east-1b'] }), false],
    [
      'a second term without a zone pin leaves a way out (terms are ORed)',
      pod('p').affinityTerm({ key: zone, operator: 'In', values: ['us-east-1b'] }).affinityTerm({ key: 'disk', operator: 'In', values: ['ssd'] }),
      false,
    ],
    [
      'every term pinning other zones excludes it',
      pod('p').affinityTerm({ key: zone, operator: 'In', values: ['us-east-1b'] }).affinityTerm({ key: zone, operator: 'In', values: ['us-east-1c'] }),
      true,
    ],
  ] as const)('%s', (_name, builder, excludes) => {
    const pin = podPinAgainst(builder.obj(), [zone], ['us-east-1a']);
    expect(pin?.excludesVolume).toBe(excludes);
  });

  it('NotIn does not pin: only In and the nodeSelector say which values the pod accepts', () => {
    expect(podPinAgainst(pod('p').affinityTerm({ key: zone, operator: 'NotIn', values: ['us-east-1a'] }).obj(), [zone], ['us-east-1a'])).toBeUndefined();
  });

  it('names each pin with its source and term', () => {
    const p = pod('p').nodeSelector({ [zone]: 'us-east-1b' }).affinityTerm({ key: zone, operator: 'In', values: ['us-east-1b'] }).obj();
    expect(podPinAgainst(p, [zone], ['us-east-1a'])).toEqual({
      pins: [
        { source: 'nodeSelector', key: zone, values: ['us-east-1b'] },
        { source: 'nodeAffinity', key: zone, values: ['us-east-1b'], term: 0 },
      ],
      excludesVolume: true,
    });
  });
});

describe('claimProvisioning', () => {
  const claim: V1PersistentVolumeClaim = {
    metadata: { name: 'data', namespace: 'db', uid: 'u1', annotations: { 'volume.kubernetes.io/storage-provisioner': 'ebs.csi.aws.com' } },
    spec: { storageClassName: 'gp3' },
  };
  const storageClass: V1StorageClass = { metadata: { name: 'gp3' }, provisioner: 'ebs.csi.aws.com' };
  const ev = (reason: string, message: string, time: number, type = 'Warning', uid = 'u1'): ClusterEvent => ({
    type,
    reason,
    message,
    involved: { kind: 'PersistentVolumeClaim', namespace: 'db', name: 'data', uid },
    time,
    count: 2,
    reporter: 'persistentvolume-controller',
  });

  it('the class provisioner, the annotation and the claim events by reason, newest first; an older claim of the same name is not this one', () => {
    const events = [
      ev('ExternalProvisioning', 'Waiting for a volume to be created either by the external provisioner ...', 100, 'Normal'),
      ev('ProvisioningFailed', 'failed to provision volume with StorageClass "gp3": rpc error: InvalidParameter', 200),
      ev('ProvisioningFailed', 'from a deleted claim', 300, 'Warning', 'old-uid'),
    ];
    const story = claimProvisioning(snapshotOf({ events }), claim, storageClass);
    expect(story.provisioner).toBe('ebs.csi.aws.com');
    expect(story.annotatedProvisioner).toBe('ebs.csi.aws.com');
    expect(story.events.map((g) => [g.reason, g.messages])).toEqual([
      ['ProvisioningFailed', ['failed to provision volume with StorageClass "gp3": rpc error: InvalidParameter']],
      ['ExternalProvisioning', ['Waiting for a volume to be created either by the external provisioner ...']],
    ]);
  });

  it('a claim without class or annotation has neither', () => {
    expect(claimProvisioning(snapshotOf({}), { metadata: { name: 'x', namespace: 'db' } }, undefined)).toEqual({ events: [] });
  });
});
