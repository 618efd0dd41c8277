// Finding the events about one object. Events name their object by kind, namespace, name
// and (usually) uid; a uid match is preferred, since a recreated object reuses its name.
import type { ClusterEvent, Snapshot } from '../snapshot/types.js';

export interface ObjectRef {
  kind: string;
  namespace: string;
  name: string;
  uid?: string;
}

export function eventsAbout(snapshot: Snapshot, ref: ObjectRef): ClusterEvent[] {
  return snapshot.objects.events
    .filter((event) => {
      const inv = event.involved;
      if (inv.kind !== ref.kind || inv.name !== ref.name || inv.namespace !== ref.namespace) return false;
      return !ref.uid || !inv.uid || inv.uid === ref.uid;
    })
    .sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
}

/**
 * client-go's event correlator rewrites the message of an event that keeps recurring with small
 * differences as "(combined from similar events): <message>"; the reader wants the message.
 */
export function withoutAggregation(message: string): string {
  return message.replace(/^\(combined from similar events\): /, '');
}
