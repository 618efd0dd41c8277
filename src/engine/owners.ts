// Owner chains: a pod's controllers up to the top (Pod -> ReplicaSet -> Deployment,
// Pod -> Job -> CronJob, Pod -> StatefulSet, Pod -> DaemonSet), and back down from an owner
// to its pods, so that a name like `deploy/web` can be diagnosed through its pods.
import type { V1ObjectMeta, V1OwnerReference, V1Pod } from '@kubernetes/client-node';
import { collectionOfKind, isOwnerKind, type OwnerKind, type Snapshot } from '../snapshot/types.js';
import type { ObjectRef } from './events.js';

interface Owned {
  metadata?: V1ObjectMeta;
}


// Each owner collection by namespace and name, built once per list: a triage of many pods
// walks every pod's owner chain.
// A live read appends to its lists: an index is kept for the length it was built at.
const ownerIndexes = new WeakMap<readonly Owned[], { length: number; byName: Map<string, Owned> }>();

export function findOwner(snapshot: Snapshot, kind: OwnerKind, namespace: string, name: string): Owned | undefined {
  const list = snapshot.objects[collectionOfKind[kind]] as Owned[];
  let index = ownerIndexes.get(list)?.byName;
  if (!index || ownerIndexes.get(list)?.length !== list.length) {
    index = new Map();
    // The first of a repeated name wins, as the scan it replaces found it.
    for (const o of list) {
      const key = `${o.metadata?.namespace ?? 'default'}\u0000${o.metadata?.name ?? ''}`;
      if (!index.has(key)) index.set(key, o);
    }
    ownerIndexes.set(list, { length: list.length, byName: index });
  }
  return index.get(`${namespace}\u0000${name}`);
}

function controllerOf(metadata: V1ObjectMeta | undefined): V1OwnerReference | undefined {
  const refs = metadata?.ownerReferences ?? [];
  return refs.find((ref) => ref.controller) ?? refs[0];
}

/** The pod's owners, nearest first. Owners missing from the snapshot end the chain but are still named. */
export function ownerChain(snapshot: Snapshot, pod: V1Pod): ObjectRef[] {
  return chainFrom(snapshot, pod.metadata?.namespace ?? 'default', pod.metadata);
}

/** `owner` and the owners above it, nearest first (a ReplicaSet, then its Deployment). */
export function ownerAndAbove(snapshot: Snapshot, owner: ObjectRef): ObjectRef[] {
  const found = isOwnerKind(owner.kind) ? findOwner(snapshot, owner.kind, owner.namespace, owner.name) : undefined;
  return [owner, ...chainFrom(snapshot, owner.namespace, found?.metadata)];
}

function chainFrom(snapshot: Snapshot, namespace: string, metadata: V1ObjectMeta | undefined): ObjectRef[] {
  const chain: ObjectRef[] = [];
  let ref = controllerOf(metadata);
  while (ref && chain.length < 5) {
    chain.push({ kind: ref.kind, namespace, name: ref.name, uid: ref.uid });
    if (!isOwnerKind(ref.kind)) break;
    ref = controllerOf(findOwner(snapshot, ref.kind, namespace, ref.name)?.metadata);
  }
  return chain;
}

function ownedBy(metadata: V1ObjectMeta | undefined, owner: ObjectRef): boolean {
  return (metadata?.ownerReferences ?? []).some(
    (ref) => ref.kind === owner.kind && ref.name === owner.name && (!owner.uid || !ref.uid || ref.uid === owner.uid),
  );
}

/** Every object below `owner` (children first by level), and the pods at the bottom. */
export function descendants(snapshot: Snapshot, owner: ObjectRef): { owners: ObjectRef[]; pods: V1Pod[] } {
  const owners: ObjectRef[] = [];
  let level: ObjectRef[] = [owner];
  const pods: V1Pod[] = [];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: ObjectRef[] = [];
    for (const parent of level) {
      pods.push(...snapshot.objects.pods.filter((p) => (p.metadata?.namespace ?? 'default') === parent.namespace && ownedBy(p.metadata, parent)));
      for (const kind of ['ReplicaSet', 'Job'] as const) {
        for (const child of snapshot.objects[collectionOfKind[kind]] as Owned[]) {
          if ((child.metadata?.namespace ?? 'default') === parent.namespace && ownedBy(child.metadata, parent)) {
            next.push({ kind, namespace: parent.namespace, name: child.metadata?.name ?? '', uid: child.metadata?.uid });
          }
        }
      }
    }
    owners.push(...next);
    level = next;
  }
  return { owners, pods };
}
