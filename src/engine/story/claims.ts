// Who is meant to provision an unbound claim, and what the PV controller and the provisioner
// have said about it: the StorageClass's provisioner, the claim's storage-provisioner
// annotation (set by the PV controller once it hands the claim to an external provisioner), and
// the claim's events (ExternalProvisioning while it waits, ProvisioningFailed with the
// provisioner's error), newest first.
import type { V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import type { EventGroup } from './events.js';
import { eventsAbout } from '../events.js';
import { groupByReason } from './events.js';
import { readAnnotations } from '../annotations.js';


/** Event reasons kept per claim, newest first. */
const reasonsKept = 4;

export interface ClaimProvisioning {
  /** The StorageClass's provisioner. */
  provisioner?: string;
  /** The claim's storage-provisioner annotation: the PV controller is waiting for that provisioner. */
  annotatedProvisioner?: string;
  /** The claim's events by reason, newest first. */
  events: EventGroup[];
}

export function claimProvisioning(snapshot: Snapshot, claim: V1PersistentVolumeClaim, storageClass: V1StorageClass | undefined): ClaimProvisioning {
  const annotations = claim.metadata?.annotations ?? {};
  const annotated = annotations[readAnnotations.storageProvisioner] ?? annotations[readAnnotations.betaStorageProvisioner];
  const events = eventsAbout(snapshot, {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata?.namespace ?? 'default',
    name: claim.metadata?.name ?? '',
    ...(claim.metadata?.uid ? { uid: claim.metadata.uid } : {}),
  });
  return {
    ...(storageClass?.provisioner ? { provisioner: storageClass.provisioner } : {}),
    ...(annotated ? { annotatedProvisioner: annotated } : {}),
    events: groupByReason(events).slice(0, reasonsKept),
  };
}
