// Which gaps of the input matter for this pod. A source records every collection it could not
// read (a dump records each kind it does not hold); only those a check of this pod would have
// read are reported, so "Not checked" names what changes the answer and nothing else.
import type { V1Pod } from '@kubernetes/client-node';
import { collectionOfKind, type CollectionName, type Gap, type Snapshot } from '../snapshot/types.js';
import type { ObjectRef } from './events.js';
import { podKey } from './facts.js';

/**
 * A dump that holds no pod but the target says nothing about what runs on the nodes: that is a
 * gap, exactly as a forbidden pod list is, not an empty cluster.
 */
export function withDerivedGaps(snapshot: Snapshot, target: V1Pod): Snapshot {
  if (snapshot.source.kind !== 'dump' || snapshot.gaps.some((g) => g.collection === 'pods')) return snapshot;
  const key = podKey(target);
  if (snapshot.objects.pods.some((p) => podKey(p) !== key)) return snapshot;
  return { ...snapshot, gaps: [...snapshot.gaps, { collection: 'pods', cause: 'onlyTarget' }] };
}

/** The collections of the owners the chain names (a missing owner ends the chain, named). */
function ownerCollections(owners: readonly ObjectRef[]): CollectionName[] {
  return owners.flatMap(({ kind }) => (Object.hasOwn(collectionOfKind, kind) ? [collectionOfKind[kind as keyof typeof collectionOfKind]] : []));
}

/**
 * The gaps that matter: those of the collections the judged rules read (`ruleCollections`),
 * the nodes and pods when nodes are judged, events (the scheduler's and kubelet's words), and
 * the owners the pod's chain names.
 */
export function relevantGaps(snapshot: Snapshot, pod: V1Pod | undefined, owners: readonly ObjectRef[], judged: boolean, ruleCollections: readonly CollectionName[]): Gap[] {
  const wanted = new Set<CollectionName>(['events', ...ownerCollections(owners), ...ruleCollections]);
  if (judged) {
    wanted.add('nodes');
    wanted.add('pods');
  } else if (pod?.spec?.nodeName) wanted.add('nodes');
  // A refused or failed read was made because the question needed it: always said. A kind a
  // dump lacks is said only where a check of this pod would have read it.
  return snapshot.gaps.filter((g) => g.cause === 'forbidden' || g.cause === 'error' || wanted.has(g.collection));
}
