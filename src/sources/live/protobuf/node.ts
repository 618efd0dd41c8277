// A page of nodes in the apiserver's protobuf encoding, decoded straight into NodeRecord
// (snapshot/types.ts): the fields named there and nothing else. The rest of a Node (its
// images, often most of its bytes, managedFields but who cordoned it, annotations, addresses, nodeInfo) is skipped
// by its length, never decoded.
//
// The record must equal compactNode(the same node read as JSON), so JSON's rules are kept (see
// fields.ts): `unschedulable` false, an empty taint value or condition reason is left out;
// a taint's key and effect and a condition's type and status are never omitted by JSON, so
// they are always set. A zero time (an empty message) is no time, as compactNode drops JSON's
// null. Field numbers: k8s.io/api core/v1 and k8s.io/apimachinery meta/v1 generated.proto.
// test/e2e/protobuf.test.ts compares both encodings on a real apiserver.
import type { V1ManagedFieldsEntry, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import { cordonEntry, cordonMarker } from '../../cordon.js';
import type { NodeRecord } from '../../../snapshot/types.js';
import { addEntry, objectMessage, push, setNonEmpty, time, type Obj, type Pass } from './fields.js';
import { type Reader, WireType } from './wire.js';

// A taint and a condition are built in the order JSON writes their fields (the Go struct's), so
// that a report quoting one reads the same whichever encoding the node came in.

/** Taint: key 1, value 2, effect 3, timeAdded 4. */
function taint(r: Reader, end: number, pass: Pass): V1Taint {
  let key = '';
  let value = '';
  let effect = '';
  let timeAdded: string | undefined;
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) key = pass.intern.read(r);
    else if (field === 2) value = pass.intern.read(r);
    else if (field === 3) effect = pass.intern.read(r);
    else if (field === 4) timeAdded = time(r, r.enter(), pass);
    else r.skip(wire);
  }
  const out: Obj = { key };
  setNonEmpty(out, 'value', value);
  out['effect'] = effect;
  if (timeAdded !== undefined) out['timeAdded'] = timeAdded;
  return out as unknown as V1Taint;
}

/** NodeCondition: type 1, status 2, lastHeartbeatTime 3, lastTransitionTime 4, reason 5, message 6. */
function condition(r: Reader, end: number, pass: Pass): V1NodeCondition {
  let type = '';
  let status = '';
  let heartbeat: string | undefined;
  let transition: string | undefined;
  let reason = '';
  let message = '';
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) type = pass.intern.read(r);
    else if (field === 2) status = pass.intern.read(r);
    else if (field === 3) heartbeat = time(r, r.enter(), pass);
    else if (field === 4) transition = time(r, r.enter(), pass);
    else if (field === 5) reason = pass.intern.read(r);
    else if (field === 6) message = pass.intern.read(r);
    else r.skip(wire);
  }
  const out: Obj = { type, status };
  if (heartbeat !== undefined) out['lastHeartbeatTime'] = heartbeat;
  if (transition !== undefined) out['lastTransitionTime'] = transition;
  setNonEmpty(out, 'reason', reason);
  setNonEmpty(out, 'message', message);
  return out as unknown as V1NodeCondition;
}

/** Whether FieldsV1 (Raw 1, the JSON of the fields) names spec.unschedulable. */
function setsCordon(r: Reader, end: number): boolean {
  let found = false;
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) found ||= r.string().includes(cordonMarker);
    else r.skip(wire);
  }
  return found;
}

/**
 * ManagedFieldsEntry: manager 1, operation 2, time 4, fieldsV1 7; kept, as the JSON read keeps
 * it (../../cordon.ts), only when it set spec.unschedulable.
 */
function managedFieldsEntry(r: Reader, end: number, pass: Pass): V1ManagedFieldsEntry | undefined {
  let manager = '';
  let operation = '';
  let at: string | undefined;
  let cordon = false;
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) manager = r.string();
    else if (field === 2) operation = r.string();
    else if (field === 4) at = time(r, r.enter(), pass);
    else if (field === 7) cordon = setsCordon(r, r.enter());
    else r.skip(wire);
  }
  return cordon && manager !== '' ? cordonEntry(manager, operation, at) : undefined;
}

/** ObjectMeta: name 1, uid 5, labels 11, managedFields 17 (who cordoned the node only). */
function metadata(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) setNonEmpty(out, 'name', r.string());
    else if (field === 5) setNonEmpty(out, 'uid', r.string());
    else if (field === 11) out['labels'] = addEntry(out['labels'] as Obj | undefined, r, pass, false);
    else if (field === 17) {
      const entry = managedFieldsEntry(r, r.enter(), pass);
      if (entry) push(out, 'managedFields', entry);
    } else r.skip(wire);
  }
  return out;
}

/** NodeSpec: unschedulable 4, taints 5. */
function spec(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 4 && wire === WireType.Varint) setNonEmpty(out, 'unschedulable', r.bool());
    else if (field === 5 && wire === WireType.LengthDelimited) push(out, 'taints', taint(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out;
}

/**
 * NodeStatus: capacity 1, allocatable 2, conditions 4, declaredFeatures 14 (repeated string,
 * k8s.io/api v0.37 generated.proto); images (8) and the rest skipped.
 */
function status(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['capacity'] = addEntry(out['capacity'] as Obj | undefined, r, pass, true);
    else if (field === 2) out['allocatable'] = addEntry(out['allocatable'] as Obj | undefined, r, pass, true);
    else if (field === 4) push(out, 'conditions', condition(r, r.enter(), pass));
    else if (field === 14) push(out, 'declaredFeatures', pass.intern.read(r));
    else r.skip(wire);
  }
  return out;
}

/** One Node message, as compactNode would keep it. */
export function nodeRecord(r: Reader, end: number, pass: Pass): NodeRecord {
  return objectMessage(r, end, pass, { metadata, spec, status }) as NodeRecord;
}
