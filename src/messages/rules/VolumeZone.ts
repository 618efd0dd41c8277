// VolumeZone: what it checks, its messages and short forms, and the scheduler's wordings.
import rule, { type VolumeZoneMismatch } from '../../engine/rules/VolumeZone.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { quote } from '../format.js';
import { plugin, verb } from '../plugin.js';
import { podPinClause } from '../volumeStory.js';

function mismatchText(m: VolumeZoneMismatch): string {
  const wanted = m.values.length === 1 ? `${m.label}=${m.values[0] ?? ''}` : `${m.label} in (${m.values.join(', ')})`;
  const node = m.nodeValue === undefined ? `node has no ${m.nodeLabel} label` : `node has ${m.nodeLabel}=${m.nodeValue}`;
  return `PV ${quote(m.pv)} (claim ${quote(m.claim)}) is in ${wanted}, ${node}${podPinClause(m.podPin)}`;
}

export default plugin(rule, {
  purpose: "a bound volume's zone does not match the node's zone",
  wordings: [
    // volumezone/volume_zone.go ErrReasonConflict.
    filterWording(/^node\(s\) had no available volume zone$/, 'UnschedulableAndUnresolvable', 'all'),
  ],
  messages: {
    volumeZoneLookupFailed: (d) => {
      switch (d.cause) {
        case 'claimNotFound':
          return `PersistentVolumeClaim ${quote(d.claim)} does not exist in the pod's namespace`;
        case 'claimHasNoVolumeOrClass':
          return `PersistentVolumeClaim ${quote(d.claim)} has neither a volume nor a StorageClass`;
        case 'storageClassNotFound':
          return `StorageClass ${quote(d.storageClass ?? '')} of claim ${quote(d.claim)} does not exist`;
        case 'unboundImmediate':
          return `PersistentVolumeClaim ${quote(d.claim)} is not bound yet and its StorageClass ${quote(d.storageClass ?? '')} binds immediately, so it has no volume to take a zone from`;
        case 'volumeNotFound':
          return `PersistentVolume ${quote(d.pv ?? '')} of claim ${quote(d.claim)} does not exist`;
      }
    },
    volumeZoneConflict: (d) => `volume zone: ${d.mismatches.map(mismatchText).join('; ')}`,
  },
  short: {
    volumeZoneLookupFailed: () => 'zone lookup failed',
    volumeZoneConflict: () => 'PV in another zone',
  },
  headline: {
    volumeZoneConflict: {
      key: (d) => d.mismatches.map((m) => m.pv).join(','),
      says: (n, [d]) => {
        const m = d?.mismatches[0];
        return { text: `${verb(n, 'is', 'are')} outside the ${m?.label ?? 'zone'} of PV ${m?.pv ?? ''} (${m?.values.join(', ') ?? ''})` };
      },
    },
  },
});
