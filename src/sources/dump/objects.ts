// Flattens parsed documents (Lists, typed lists like PodList, single objects) into objects with
// a kind, and sorts them into the snapshot's collections. Kinds we do not read are ignored.
import type { CoreV1Event, EventsV1Event, V1ObjectReference } from '@kubernetes/client-node';
import { collectionOfKind, emptyCollections, toTime, type ClusterEvent, type Collections } from '../../snapshot/types.js';
import { InputError } from '../../errors.js';

interface Located {
  object: Record<string, unknown>;
  where: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every object in a document, with where it was found for error messages. */
export function flatten(document: unknown, where: string): Located[] {
  if (Array.isArray(document)) return document.flatMap((item, i) => flatten(item, `${where}, item ${i + 1}`));
  if (!isObject(document)) throw new InputError(`${where}: expected a Kubernetes object or list, found ${typeof document}`);
  const kind = document['kind'];
  const items = document['items'];
  if (Array.isArray(items) && (kind === undefined || (typeof kind === 'string' && kind.endsWith('List')))) {
    // Typed lists (PodList) may omit each item's kind; the list's kind says it.
    const itemKind = typeof kind === 'string' && kind !== 'List' ? kind.slice(0, -'List'.length) : undefined;
    return items.flatMap((item, i) => {
      const here = `${where}, item ${i + 1}`;
      if (isObject(item) && item['kind'] === undefined && itemKind) return [{ object: { ...item, kind: itemKind }, where: here }];
      return flatten(item, here);
    });
  }
  if (typeof kind !== 'string' || kind === '') {
    const name = isObject(document['metadata']) ? document['metadata']['name'] : undefined;
    throw new InputError(`${where}: object${typeof name === 'string' ? ` "${name}"` : ''} has no kind; dump with kubectl get ... -o yaml`);
  }
  return [{ object: document, where }];
}

export function sortIntoCollections(objects: Located[]): { collections: Collections; kindsSeen: Set<string> } {
  const collections = emptyCollections();
  const kindsSeen = new Set<string>();
  for (const { object, where } of objects) {
    const kind = object['kind'] as string;
    kindsSeen.add(kind);
    if (kind === 'Event') {
      collections.events.push(toClusterEvent(object, where));
      continue;
    }
    const collection = Object.hasOwn(collectionOfKind, kind) ? collectionOfKind[kind as keyof typeof collectionOfKind] : undefined;
    if (!collection) continue;
    const metadata = object['metadata'];
    if (!isObject(metadata) || typeof metadata['name'] !== 'string') {
      throw new InputError(`${where}: ${kind} has no metadata.name`);
    }
    (collections[collection] as unknown[]).push(object);
  }
  return { collections, kindsSeen };
}

// core/v1 events carry involvedObject/source/count; events.k8s.io/v1 ones regarding/
// reportingController/series. The API server serves each style in the other's shape too.
export function toClusterEvent(object: Record<string, unknown>, where: string): ClusterEvent {
  const isNewStyle = typeof object['apiVersion'] === 'string' && object['apiVersion'].startsWith('events.k8s.io/');
  if (isNewStyle) {
    const e = object as unknown as EventsV1Event;
    const regarding = e.regarding ?? {};
    const time = toTime(e.series?.lastObservedTime as unknown as string) ?? toTime(e.eventTime as unknown as string) ?? toTime(e.deprecatedLastTimestamp);
    return {
      type: e.type ?? 'Normal',
      reason: e.reason ?? '',
      message: e.note ?? '',
      involved: { kind: regarding.kind ?? '', namespace: regarding.namespace ?? e.metadata?.namespace ?? '', name: regarding.name ?? '', ...(regarding.uid ? { uid: regarding.uid } : {}) },
      ...(time !== undefined ? { time } : {}),
      count: e.series?.count ?? e.deprecatedCount ?? 1,
      reporter: e.reportingController ?? e.deprecatedSource?.component ?? '',
    };
  }
  const e = object as unknown as CoreV1Event;
  if (!isObject(e.involvedObject)) throw new InputError(`${where}: Event has no involvedObject`);
  const inv: V1ObjectReference = e.involvedObject;
  const time = toTime(e.series?.lastObservedTime as unknown as string) ?? toTime(e.lastTimestamp) ?? toTime(e.eventTime as unknown as string) ?? toTime(e.firstTimestamp);
  return {
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    message: e.message ?? '',
    involved: { kind: inv.kind ?? '', namespace: inv.namespace ?? e.metadata?.namespace ?? '', name: inv.name ?? '', ...(inv.uid ? { uid: inv.uid } : {}) },
    ...(time !== undefined ? { time } : {}),
    count: e.series?.count ?? e.count ?? 1,
    reporter: e.reportingComponent || e.source?.component || '',
  };
}
