// VolumeRestrictions: what it checks, its messages and short forms, and the scheduler's wordings.
import rule, { type DiskRef } from '../../engine/rules/VolumeRestrictions.js';
import { filterWording, preFilterWording, quotedClaim } from '../../engine/scheduler-message/catalog.js';
import { list, quote } from '../format.js';
import { plugin, verb } from '../plugin.js';

const diskNames: Record<DiskRef['type'], string> = {
  gcePersistentDisk: 'GCE persistent disk',
  awsElasticBlockStore: 'AWS EBS volume',
  rbd: 'Ceph RBD image',
  iscsi: 'iSCSI target',
};

// Why two pods cannot share it, by disk type (isVolumeConflict).
const shareRule: Record<DiskRef['type'], string> = {
  gcePersistentDisk: 'it can be shared only when every pod mounts it read-only',
  awsElasticBlockStore: 'an EBS volume is never shared, even read-only',
  rbd: 'it can be shared only when every pod mounts it read-only',
  iscsi: 'it can be shared only when every pod mounts it read-only',
};

export default plugin(rule, {
  purpose: 'a volume the pod uses is already in use in a way that excludes this node',
  wordings: [
    // volumerestrictions/volume_restrictions.go ErrReasonDiskConflict,
    // ErrReasonReadWriteOncePodConflict (PreFilter-time check before v1.27, Filter since).
    filterWording(/^node\(s\) had no available disk$/, 'Unschedulable', 'all'),
    filterWording(/^node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode$/, 'Unschedulable', 'v1.22+'),
    // The PVC lister's NotFound error. VolumeRestrictions' PreFilter reads every PVC first since
    // ReadWriteOncePod is on by default (v1.27); before that VolumeBinding's podHasPVCs said it.
    preFilterWording(new RegExp(`^persistentvolumeclaim ${quotedClaim} not found$`), 'v1.27+ (VolumeBinding before)'),
  ],
  messages: {
    restrictionsClaimNotFound: (d) => `PersistentVolumeClaim ${quote(d.claim)} does not exist in the pod's namespace; the scheduler waits until it is created`,
    diskConflict: (d) => {
      const first = d.conflicts[0];
      const uses = d.conflicts.map((c) => `volume ${quote(c.volume)} uses ${diskNames[c.disk.type]} ${quote(c.disk.id)}, already used by ${c.pod}`);
      return `disk already in use on this node: ${uses.join('; ')}${first ? ` (${shareRule[first.disk.type]})` : ''}`;
    },
    readWriteOncePodInUse: (d) =>
      d.claims
        .map((c) => `PersistentVolumeClaim ${quote(c.claim)} is ReadWriteOncePod and already used by ${list(c.usedBy.map((u) => `${u.pod} on ${u.node}`))}`)
        .join('; ') + '; only one pod at a time may use it, on any node',
  },
  short: {
    restrictionsClaimNotFound: () => 'claim not found',
    diskConflict: () => 'disk in use',
    readWriteOncePodInUse: () => 'RWOP claim in use',
  },
  headline: {
    readWriteOncePodInUse: {
      key: (d) => d.claims.map((c) => c.claim).join(','),
      says: (n, [d]) => {
        const c = d?.claims[0];
        return { text: `cannot take ReadWriteOncePod claim ${c?.claim ?? ''}, already used by ${c?.usedBy.map((u) => u.pod).join(', ') ?? ''}`, brief: `cannot take ReadWriteOncePod claim ${c?.claim ?? ''}` };
      },
    },
    diskConflict: {
      key: (d) => d.conflicts.map((c) => c.volume).join(','),
      says: (n, [d]) => ({ text: `already ${verb(n, 'has', 'have')} a pod using the disk of volume ${d?.conflicts[0]?.volume ?? ''}` }),
    },
  },
});
