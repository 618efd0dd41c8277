// Finding the events about one object. Events name their object by kind, namespace, name
// and (usually) uid; a uid match is preferred, since a recreated object reuses its name.
import type { ClusterEvent, Snapshot } from '../snapshot/types.js';

export interface ObjectRef {
  kind: string;
  namespace: string;
  name: string;
  uid?: string;
}

// The events of a read, by involved object, oldest first: built once per list of events, so that
// a triage of many pending pods does not scan every event for each pod and each owner.
// A live read (and --watch) appends to its lists: an index is kept for the length it was built at.
const indexes = new WeakMap<readonly ClusterEvent[], { length: number; byObject: Map<string, ClusterEvent[]> }>();
const involvedKey = (kind: string, namespace: string | undefined, name: string) => `${kind}\u0000${namespace ?? ''}\u0000${name}`;

function eventIndex(events: readonly ClusterEvent[]): Map<string, ClusterEvent[]> {
  const known = indexes.get(events);
  if (known?.length === events.length) return known.byObject;
  const index = new Map<string, ClusterEvent[]>();
  for (const event of events) {
    const key = involvedKey(event.involved.kind, event.involved.namespace, event.involved.name);
    const list = index.get(key);
    if (list) list.push(event);
    else index.set(key, [event]);
  }
  for (const list of index.values()) list.sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
  indexes.set(events, { length: events.length, byObject: index });
  return index;
}

export function eventsAbout(snapshot: Snapshot, ref: ObjectRef): ClusterEvent[] {
  const about = eventIndex(snapshot.objects.events).get(involvedKey(ref.kind, ref.namespace, ref.name)) ?? [];
  return about.filter((event) => !ref.uid || !event.involved.uid || event.involved.uid === ref.uid);
}

/**
 * client-go's event correlator rewrites the message of an event that keeps recurring with small
 * differences as "(combined from similar events): <message>"; the reader wants the message.
 */
export function withoutAggregation(message: string): string {
  return message.replace(/^\(combined from similar events\): /, '');
}
