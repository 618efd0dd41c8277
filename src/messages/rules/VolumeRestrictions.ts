// Messages for VolumeRestrictions.
import type { DiskRef } from '../../engine/rules/VolumeRestrictions.js';
import { list, quote } from '../format.js';
import type { MessageTable } from '../types.js';

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

export const messages: MessageTable<'restrictionsClaimNotFound' | 'diskConflict' | 'readWriteOncePodInUse'> = {
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
};
