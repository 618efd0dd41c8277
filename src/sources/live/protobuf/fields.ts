// Fields that the protobuf readers of pods (pod.ts) and nodes (node.ts) share: times, maps of
// strings and of quantities, repeated fields, and JSON's rule for an `omitempty` field that
// protobuf writes anyway (an empty string, zero or false: left out, as the JSON read has it).
import { type Interner, type Reader, WireType } from './wire.js';

export type Obj = Record<string, unknown>;

/** A decoding pass: strings that repeat across a read's objects are kept once, and so are times. */
export interface Pass {
  intern: Interner;
  /** Times written, by seconds since the epoch: objects stamped in the same second share one. */
  times: Map<number, string>;
}

/** metav1.Time: RFC 3339 in whole seconds, UTC; a zero time (an empty message) is no time. */
export function time(r: Reader, end: number, pass: Pass): string | undefined {
  let seconds: number | undefined;
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.Varint) seconds = r.signed();
    else r.skip(wire);
  }
  if (seconds === undefined) return undefined;
  let text = pass.times.get(seconds);
  if (text === undefined) {
    text = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    pass.times.set(seconds, text);
  }
  return text;
}

/** A map<string, string> entry (labels, matchLabels) or map<string, Quantity> entry (resources). */
function entry(r: Reader, end: number, pass: Pass, quantity: boolean): [string, string] {
  let key = '';
  let value = '';
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) key = pass.intern.read(r);
    else if (field === 2 && wire === WireType.LengthDelimited) value = quantity ? quantityString(r, r.enter(), pass) : pass.intern.read(r);
    else r.skip(wire);
  }
  return [key, value];
}

function quantityString(r: Reader, end: number, pass: Pass): string {
  let s = '';
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) s = pass.intern.read(r);
    else r.skip(wire);
  }
  return s;
}

/** Adds the next map entry to `into` (made on the first one). */
export function addEntry(into: Obj | undefined, r: Reader, pass: Pass, quantity: boolean): Record<string, string> {
  const map = (into ?? {}) as Record<string, string>;
  const [key, value] = entry(r, r.enter(), pass, quantity);
  map[key] = value;
  return map;
}

/**
 * Appends a decoded element to an array field, made on the first one. Each time a new array of
 * the exact length: a push grows an array's store by half plus 16 slots, so a pod's two
 * containers held 19 slots, and at 150,000 pods the slack of such arrays was tens of megabytes
 * of a read's peak. The arrays here are short (containers, ports, statuses).
 */
export function push<T>(into: Obj, name: string, value: T): void {
  const list = into[name] as T[] | undefined;
  into[name] = list ? list.concat([value]) : [value];
}

/** A field that JSON omits when empty (`omitempty` on a non-pointer): set only when not "", 0 or false. */
export function setNonEmpty(into: Obj, name: string, value: string | number | boolean): void {
  if (value !== '' && value !== 0 && value !== false) into[name] = value;
}

type PartReader = (r: Reader, end: number, pass: Pass) => Obj;

/** An API object's message: metadata 1, spec 2, status 3 (Pod, Node), each read by its own reader. */
export function objectMessage(r: Reader, end: number, pass: Pass, parts: { metadata: PartReader; spec: PartReader; status: PartReader }): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['metadata'] = parts.metadata(r, r.enter(), pass);
    else if (field === 2) out['spec'] = parts.spec(r, r.enter(), pass);
    else if (field === 3) out['status'] = parts.status(r, r.enter(), pass);
    else r.skip(wire);
  }
  return out;
}
