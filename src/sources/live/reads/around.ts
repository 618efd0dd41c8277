// What a single pod's read reads around the pod once it has it: its events, its owner chain and
// theirs, the namespace's policies, and what the rules read for the pod (its claims, their
// volumes and classes, devices, its gang, namespace labels). Each read is named by the plan
// (engine/readPlan.ts) and sequenced by readPod.ts.
import type { V1ObjectMeta, V1OwnerReference, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { claimClassName, podGroupOf, volumeClassName } from '../../../engine/readPlan.js';
import type { NamespaceRecord } from '../../../snapshot/types.js';
import { namespaceRecord } from '../compact.js';
import { namespaceOf, type KeptCollection, type LiveReader, type Meta } from '../reader.js';
import { escapeField, kindWord, nonTerminal, ownerResource, resources } from '../resources.js';

function controllerOf(metadata: V1ObjectMeta | undefined): V1OwnerReference | undefined {
  const refs = metadata?.ownerReferences ?? [];
  return refs.find((ref) => ref.controller) ?? refs[0];
}

export function podEvents(reader: LiveReader, pod: V1Pod): Promise<boolean> {
  const ns = namespaceOf(pod);
  const name = pod.metadata?.name ?? '';
  const uid = pod.metadata?.uid;
  return uid ? reader.events(ns, `involvedObject.uid=${escapeField(uid)}`, `reading events of pod ${ns}/${name}`) : reader.eventsOf(ns, 'Pod', name);
}

/** The pod's controllers up the chain (ReplicaSet, Deployment...), and the events of each. */
export async function ownerChain(reader: LiveReader, pod: V1Pod): Promise<void> {
  const ns = namespaceOf(pod);
  const eventReads: Promise<boolean>[] = [];
  let metadata = pod.metadata;
  for (let depth = 0; depth < 5; depth++) {
    const ref = controllerOf(metadata);
    if (!ref) break;
    eventReads.push(reader.eventsOf(ns, ref.kind, ref.name));
    const r = ownerResource(ref.kind);
    if (!r) break;
    const owner = reader.find<Meta>(r.collection as KeptCollection, ns, ref.name) ?? (await reader.get<Meta>(r, ns, ref.name, `reading ${kindWord(ref.kind)} ${ns}/${ref.name}`));
    if (!owner) break;
    metadata = owner.metadata;
  }
  await Promise.all(eventReads);
}

export async function policies(reader: LiveReader, ns: string): Promise<void> {
  await Promise.all([
    reader.list(resources.limitRanges, ns, `listing limit ranges in namespace ${ns}`),
    reader.list(resources.resourceQuotas, ns, `listing resource quotas in namespace ${ns}`),
    reader.list(resources.priorityClasses, undefined, 'listing priority classes'),
  ]);
}

/**
 * What the structured allocator reads: every ResourceClaim in the cluster (the devices other
 * claims hold are taken), the DeviceClasses, the ResourceSlices and the DeviceTaintRules that
 * taint their devices. A refusal is a gap.
 */
export async function podDevices(reader: LiveReader): Promise<void> {
  await Promise.all([
    reader.list(resources.resourceClaims, undefined, 'listing resource claims'),
    reader.list(resources.deviceClasses, undefined, 'listing device classes'),
    reader.list(resources.resourceSlices, undefined, 'listing resource slices'),
    reader.list(resources.deviceTaintRules, undefined, 'listing device taint rules'),
  ]);
}

/**
 * A gang's PodGroup and its pods (engine/story/gang.ts): the namespace's PodGroups (a 404:
 * the cluster does not serve them) and, of its pods, those naming the same group.
 */
export async function gang(reader: LiveReader, pod: V1Pod): Promise<void> {
  const ns = namespaceOf(pod);
  const group = podGroupOf(pod);
  await Promise.all([
    reader.list(resources.podGroups, ns, `listing pod groups in namespace ${ns}`),
    reader.list<V1Pod>(resources.pods, ns, `listing the pods of pod group ${group ?? ''}`, { query: { fieldSelector: nonTerminal }, keep: (p) => podGroupOf(p) === group }),
  ]);
}

/** The pod's claims, their volumes (or, for a claim waiting for one, the volumes of its class), StorageClasses and CSINodes. */
export async function podVolumes(reader: LiveReader, pod: V1Pod, claims: readonly string[]): Promise<void> {
  const ns = namespaceOf(pod);
  await Promise.all([
    reader.list(resources.storageClasses, undefined, 'listing storage classes'),
    reader.list(resources.csiNodes, undefined, 'listing CSI nodes'),
    reader.named(resources.persistentVolumeClaims, claims.map((name) => ({ namespace: ns, name })), 'reading the claims of the pod'),
  ]);
  const found = claims.flatMap((name) => reader.find<V1PersistentVolumeClaim>('persistentVolumeClaims', ns, name) ?? []);
  const bound = found.flatMap((claim) => (claim.spec?.volumeName ? [claim.spec.volumeName] : []));
  const waiting = found.filter((claim) => !claim.spec?.volumeName);
  // Who provisions an unbound claim, and what it said (ExternalProvisioning, ProvisioningFailed).
  await Promise.all(waiting.map((claim) => reader.eventsOf(ns, 'PersistentVolumeClaim', claim.metadata?.name ?? '')));
  if (waiting.length === 0) {
    await reader.named(resources.persistentVolumes, bound.map((name) => ({ name })), 'reading the volumes of the claims');
    return;
  }
  // A claim waiting for a volume may match any available PV of its class.
  const classes = new Set(waiting.map(claimClassName));
  const names = new Set(bound);
  await reader.list<V1PersistentVolume>(resources.persistentVolumes, undefined, 'listing persistent volumes', { keep: (v) => classes.has(volumeClassName(v)) || names.has(v.metadata?.name ?? '') });
}

/** Every namespace's name and labels: the pod's own affinity terms select namespaces by label. */
export async function namespaces(reader: LiveReader): Promise<void> {
  reader.progress('listing namespaces (a pod affinity term selects them by label)');
  await reader.list<NamespaceRecord>(resources.namespaces, undefined, 'listing namespaces', { cut: { reduce: namespaceRecord } });
}

/**
 * The pod's own namespace, when a pod already read has required anti-affinity whose
 * namespaceSelector reads namespace labels: the scheduler matches that term against this
 * namespace's labels. One GET; refused, the nodes it would decide are not checked.
 */
export async function ownNamespace(reader: LiveReader, pod: V1Pod): Promise<void> {
  const ns = namespaceOf(pod);
  await reader.get<NamespaceRecord>(resources.namespaces, undefined, ns, `reading namespace ${ns}`, namespaceRecord);
}
