// Who cordoned a node: of its managedFields, only the entry of the field manager that set
// spec.unschedulable is kept by every read (a dump's cut, a live JSON page, the protobuf
// decoder), so that the uncordon fix can name it (engine/fixes/uncordon.ts) at the cost of a
// few bytes on cordoned nodes only.
import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { isObject } from './object.js';

/** The bytes a managedFields array holds when some entry set spec.unschedulable. */
export const cordonMarker = '"f:unschedulable"';

/** The one entry's reduced form: its manager, operation and time, and the field itself. */
export function cordonEntry(manager: string, operation: string | undefined, time: string | undefined): V1ManagedFieldsEntry {
  return {
    manager,
    ...(operation ? { operation } : {}),
    ...(time ? { time: time as unknown as Date } : {}),
    fieldsV1: { 'f:spec': { 'f:unschedulable': {} } },
  };
}

/** Of managedFields as read, the entries that set spec.unschedulable, reduced; undefined when none. */
export function cordonEntries(entries: unknown): V1ManagedFieldsEntry[] | undefined {
  if (!Array.isArray(entries)) return undefined;
  const kept = entries.flatMap((e): V1ManagedFieldsEntry[] => {
    if (!isObject(e) || typeof e['manager'] !== 'string') return [];
    const fields = e['fieldsV1'];
    const spec = isObject(fields) ? fields['f:spec'] : undefined;
    if (!isObject(spec) || !('f:unschedulable' in spec)) return [];
    const time = e['time'];
    return [cordonEntry(e['manager'], typeof e['operation'] === 'string' ? e['operation'] : undefined, typeof time === 'string' ? time : time instanceof Date ? time.toISOString().replace('.000Z', 'Z') : undefined)];
  });
  return kept.length > 0 ? kept : undefined;
}
