// Claim, volume and StorageClass lookups shared by the volume rules (VolumeBinding,
// VolumeRestrictions, NodeVolumeLimits, VolumeZone), with storagehelpers' class rules.
import type { V1ObjectMeta, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1StorageClass } from '@kubernetes/client-node';
import type { Snapshot } from '../snapshot/types.js';
import { readAnnotations } from './annotations.js';

export interface PodClaimRef {
  /** The pod's volume name. */
  volume: string;
  claim: string;
  /** A generic ephemeral volume: the claim is `<pod>-<volume>`, created by a controller. */
  ephemeral: boolean;
}

/** The claims a pod's volumes name, in volume order (ephemeral.VolumeClaimName for ephemeral ones). */
export function podClaimRefs(pod: V1Pod): PodClaimRef[] {
  const refs: PodClaimRef[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    if (volume.persistentVolumeClaim) refs.push({ volume: volume.name, claim: volume.persistentVolumeClaim.claimName, ephemeral: false });
    else if (volume.ephemeral) refs.push({ volume: volume.name, claim: `${pod.metadata?.name ?? ''}-${volume.name}`, ephemeral: true });
  }
  return refs;
}

export function findClaim(snapshot: Snapshot, namespace: string, name: string): V1PersistentVolumeClaim | undefined {
  return snapshot.objects.persistentVolumeClaims.find((c) => c.metadata?.name === name && (c.metadata?.namespace ?? 'default') === namespace);
}

export function findVolume(snapshot: Snapshot, name: string): V1PersistentVolume | undefined {
  return snapshot.objects.persistentVolumes.find((v) => v.metadata?.name === name);
}

export function findStorageClass(snapshot: Snapshot, name: string): V1StorageClass | undefined {
  return snapshot.objects.storageClasses.find((c) => c.metadata?.name === name);
}

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over the field. */
export function claimClassName(claim: V1PersistentVolumeClaim): string {
  const annotated = claim.metadata?.annotations?.[readAnnotations.betaStorageClass];
  if (annotated !== undefined) return annotated;
  return claim.spec?.storageClassName ?? '';
}

/** storagehelpers.GetPersistentVolumeClass. */
export function volumeClassName(volume: V1PersistentVolume): string {
  const annotated = volume.metadata?.annotations?.[readAnnotations.betaStorageClass];
  if (annotated !== undefined) return annotated;
  return volume.spec?.storageClassName ?? '';
}

/** metav1.IsControlledBy: a controller owner reference with the pod's UID. */
export function isControlledBy(meta: V1ObjectMeta | undefined, pod: V1Pod): boolean {
  const uid = pod.metadata?.uid;
  return (meta?.ownerReferences ?? []).some((ref) => ref.controller === true && uid !== undefined && ref.uid === uid);
}

/** The claims named by the pod's persistentVolumeClaim volumes (not ephemeral ones). */
export function pvcNames(pod: V1Pod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
}
