// Flattens parsed documents (Lists, typed lists like PodList, single objects) into objects with
// a kind; collect.ts sorts them into the snapshot's collections.
import type { CoreV1Event, EventsV1Event, V1ObjectReference } from '@kubernetes/client-node';
import { apiResources, collectionOfKind, toTime, type ClusterEvent, type CollectionName } from '../../snapshot/types.js';
import { InputError } from '../../errors.js';
import { collectionOfItemKind } from './captured.js';
import { validateObject } from './validate.js';
import { isObject } from '../object.js';

export interface Located {
  object: Record<string, unknown>;
  where: string;
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

/**
 * `kubectl version -o json|yaml` output: no kind, a `clientVersion` and (when the server
 * answered) a `serverVersion` (k8s.io/apimachinery version.Info). Undefined for anything else;
 * otherwise the server's gitVersion, or null when the output has none.
 */
function serverVersionOf(document: unknown): string | null | undefined {
  if (!isObject(document) || document['kind'] !== undefined) return undefined;
  const server = document['serverVersion'];
  if (!isObject(server) && !isObject(document['clientVersion'])) return undefined;
  if (!isObject(server)) return null;
  const git = server['gitVersion'];
  if (typeof git === 'string' && git !== '') return git;
  const { major, minor } = server;
  return typeof major === 'string' && typeof minor === 'string' && major !== '' ? `v${major}.${minor.replace(/\+$/, '')}` : null;
}

/** What a dump reader finds, in file order, already parsed. */
export interface DocumentSink {
  /** A document read whole: one object, a list, an array. */
  document(value: unknown, where: string): void;
  /** A list whose items come one by one; its kind when already read (else at listEnd). */
  listStart(kind: string | undefined): void;
  listItem(value: unknown, where: string): void;
  /** The list without its items (apiVersion, kind, metadata). */
  listEnd(list: unknown): void;
}

/** The kind a typed list (PodList) gives its items when they omit theirs. */
function itemKindOf(listKind: unknown): string | undefined {
  return typeof listKind === 'string' && listKind !== 'List' && listKind.endsWith('List') ? listKind.slice(0, -'List'.length) : undefined;
}

/**
 * Flattens what the readers find into objects, as flatten() does for a whole document. A list's
 * items arrive before its kind is known (kubectl writes `kind: List` last): an item without a
 * kind waits for it; the others go on at once.
 */
export class ObjectReader implements DocumentSink {
  /** Objects found so far, of every kind. */
  count = 0;
  /** Collections a typed list (PodList) was seen for, even an empty one. */
  readonly listed = new Set<CollectionName>();
  /** The cluster's version, from the first `kubectl version` output that has the server's. */
  serverVersion: string | undefined;
  private list: { kindKnown: boolean; itemKind: string | undefined; waiting: { item: unknown; where: string }[] } | undefined;

  constructor(private readonly emit: (found: Located) => void) {}

  private emitAll(found: Located[]): void {
    for (const one of found) {
      this.count++;
      this.emit(one);
    }
  }

  private emitItem(item: unknown, itemKind: string | undefined, where: string): void {
    if (itemKind === undefined || !isObject(item) || item['kind'] !== undefined) return this.emitAll(flatten(item, where));
    item['kind'] = itemKind;
    this.emitAll([{ object: item, where }]);
  }

  document(value: unknown, where: string): void {
    // `kubectl version -o json` beside the objects: the cluster's version, not an object.
    const version = serverVersionOf(value);
    if (version !== undefined) {
      if (version !== null) this.serverVersion ??= version;
      return;
    }
    this.noteList(isObject(value) ? value['kind'] : undefined);
    this.emitAll(flatten(value, where));
  }

  private noteList(kind: unknown): void {
    // A typed list (PodList), even an empty one, says its kind was captured.
    const collection = collectionOfItemKind(itemKindOf(kind));
    if (collection) this.listed.add(collection);
  }

  listStart(kind: string | undefined): void {
    this.noteList(kind);
    this.list = { kindKnown: kind !== undefined, itemKind: itemKindOf(kind), waiting: [] };
  }

  listItem(value: unknown, where: string): void {
    const list = this.list;
    // Once an item waits, the ones after it wait too: objects keep the file's order.
    if (list && !list.kindKnown && (list.waiting.length > 0 || (isObject(value) && value['kind'] === undefined))) {
      list.waiting.push({ item: value, where });
      return;
    }
    this.emitItem(value, list?.itemKind, where);
  }

  listEnd(head: unknown): void {
    const list = this.list;
    this.list = undefined;
    if (!list) return;
    if (!list.kindKnown) this.noteList(isObject(head) ? head['kind'] : undefined);
    const itemKind = list.kindKnown ? list.itemKind : itemKindOf(isObject(head) ? head['kind'] : undefined);
    for (const { item, where } of list.waiting) this.emitItem(item, itemKind, where);
  }
}

/**
 * Where one object goes in the snapshot, once checked; undefined for kinds the engine does not
 * read. Events are reduced to a ClusterEvent here.
 */
export function sortObject({ object, where }: Located): { collection: CollectionName; value: unknown } | undefined {
  const kind = object['kind'] as string;
  if (kind === 'Event') {
    validateObject(object, where);
    return { collection: 'events', value: toClusterEvent(object, where) };
  }
  const collection = Object.hasOwn(collectionOfKind, kind) ? collectionOfKind[kind as keyof typeof collectionOfKind] : undefined;
  if (!collection) return undefined;
  const metadata = object['metadata'];
  if (!isObject(metadata) || typeof metadata['name'] !== 'string') {
    throw new InputError(`${where}: ${kind} has no metadata.name`);
  }
  // A collection of one named object (cluster-autoscaler's status ConfigMap): every other
  // object of the kind is dropped here, unread and unchecked, so its data never goes further.
  const only = apiResources[collection].only;
  if (only && (metadata['name'] !== only.name || (metadata['namespace'] ?? 'default') !== only.namespace)) return undefined;
  validateObject(object, where);
  return { collection, value: object };
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
