// A protobuf list page as the apiserver writes it: "k8s\0", then runtime.Unknown{typeMeta 1,
// raw 2, contentEncoding 3, contentType 4} whose raw holds the list: ListMeta{selfLink 1,
// resourceVersion 2, continue 3, remainingItemCount 4} then each item (field 2). Taken apart
// into each item's bytes as served, and put together again the way the apiserver's generated
// marshallers do (strings written even when empty, remainingItemCount only when set), so that
// a replayed page differs from a served one only where paging differs. Read with the project's
// own wire reader (src/sources/live/protobuf/wire.ts).
import { ProtobufError, Reader, WireType } from '../../../src/sources/live/protobuf/wire.js';
import type { ListMeta } from './json-items.js';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function varint(value: number): Buffer {
  const out: number[] = [];
  let v = value;
  do {
    let byte = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) byte |= 0x80;
    out.push(byte);
  } while (v > 0);
  return Buffer.from(out);
}

function key(field: number, wire: WireType): Buffer {
  return varint(field * 8 + wire);
}

/** A length-delimited field: key, length, then the parts' bytes. */
function delimited(field: number, parts: readonly Buffer[]): Buffer[] {
  const length = parts.reduce((n, p) => n + p.length, 0);
  return [key(field, WireType.LengthDelimited), varint(length), ...parts];
}

function stringField(field: number, value: string): Buffer[] {
  return delimited(field, [Buffer.from(value, 'utf8')]);
}

/** The `raw` bytes of the Unknown in a protobuf answer. */
function rawOf(page: Buffer): { raw: Reader; end: number; kind: string; apiVersion: string } {
  if (!page.subarray(0, magic.length).equals(magic)) throw new ProtobufError('no protobuf magic bytes');
  const r = new Reader(page, magic.length);
  let kind = '';
  let apiVersion = '';
  while (r.more()) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) {
      const end = r.enter();
      while (r.within(end)) {
        const f = r.key();
        if (f.field === 1 && f.wire === WireType.LengthDelimited) apiVersion = r.string();
        else if (f.field === 2 && f.wire === WireType.LengthDelimited) kind = r.string();
        else r.skip(f.wire);
      }
    } else if (field === 2 && wire === WireType.LengthDelimited) {
      const end = r.enter();
      return { raw: r, end, kind, apiVersion };
    } else {
      r.skip(wire);
    }
  }
  throw new ProtobufError('no raw object in the answer');
}

/** The list's metadata and each item's bytes (views into `page`). */
export function splitProtobufList(page: Buffer): { kind: string; apiVersion: string; meta: ListMeta; items: Buffer[] } {
  const { raw: r, end, kind, apiVersion } = rawOf(page);
  const meta: ListMeta = { resourceVersion: '' };
  const items: Buffer[] = [];
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) {
      const metaEnd = r.enter();
      while (r.within(metaEnd)) {
        const f = r.key();
        if (f.field === 2 && f.wire === WireType.LengthDelimited) meta.resourceVersion = r.string();
        else if (f.field === 3 && f.wire === WireType.LengthDelimited) {
          const token = r.string();
          if (token) meta.continue = token;
        } else if (f.field === 4 && f.wire === WireType.Varint) meta.remainingItemCount = r.signed();
        else r.skip(f.wire);
      }
    } else if (field === 2 && wire === WireType.LengthDelimited) {
      const { start, end: itemEnd } = r.span();
      items.push(page.subarray(start, itemEnd));
    } else {
      r.skip(wire);
    }
  }
  return { kind, apiVersion, meta, items };
}

/** A list page in protobuf, as the apiserver writes it. */
export function protobufList(kind: string, apiVersion: string, meta: ListMeta, items: readonly Buffer[]): Buffer {
  const listMeta = [
    ...stringField(1, ''),
    ...stringField(2, meta.resourceVersion),
    ...stringField(3, meta.continue ?? ''),
    ...(meta.remainingItemCount !== undefined ? [key(4, WireType.Varint), varint(meta.remainingItemCount)] : []),
  ];
  const list = [...delimited(1, listMeta), ...items.flatMap((item) => delimited(2, [item]))];
  const typeMeta = [...stringField(1, apiVersion), ...stringField(2, kind)];
  return Buffer.concat([magic, ...delimited(1, typeMeta), ...delimited(2, list), ...stringField(3, ''), ...stringField(4, '')]);
}

export interface Span {
  start: number;
  end: number;
}

/** ObjectMeta's fields of an object (its field 1): name 1, namespace 3, uid 5. */
export function objectMetaSpans(item: Buffer): { name?: Span; namespace?: Span; uid?: Span } {
  const r = new Reader(item);
  while (r.more()) {
    const { field, wire } = r.key();
    if (field !== 1 || wire !== WireType.LengthDelimited) {
      r.skip(wire);
      continue;
    }
    const out: { name?: Span; namespace?: Span; uid?: Span } = {};
    const end = r.enter();
    while (r.within(end)) {
      const f = r.key();
      if (f.wire !== WireType.LengthDelimited) r.skip(f.wire);
      else if (f.field === 1) out.name = r.span();
      else if (f.field === 3) out.namespace = r.span();
      else if (f.field === 5) out.uid = r.span();
      else r.skip(f.wire);
    }
    return out;
  }
  return {};
}

/** Walks into the length-delimited field `field` of the message in [start, end), each occurrence. */
function eachField(bytes: Buffer, start: number, end: number, field: number, visit: (span: Span) => void): void {
  const r = new Reader(bytes, start, end);
  while (r.more()) {
    const f = r.key();
    if (f.field === field && f.wire === WireType.LengthDelimited) visit(r.span());
    else r.skip(f.wire);
  }
}

/**
 * The quantity strings of every container's requests in a Pod's bytes: spec 2 -> containers 2
 * and initContainers 20 -> resources 8 -> requests 2 (map entries: key 1, Quantity 2) -> string 1.
 */
export function requestSpans(pod: Buffer): Span[] {
  const out: Span[] = [];
  eachField(pod, 0, pod.length, 2, (spec) => {
    for (const containers of [2, 20]) {
      eachField(pod, spec.start, spec.end, containers, (container) =>
        eachField(pod, container.start, container.end, 8, (resources) =>
          eachField(pod, resources.start, resources.end, 2, (entry) => eachField(pod, entry.start, entry.end, 2, (quantity) => eachField(pod, quantity.start, quantity.end, 1, (s) => out.push(s)))),
        ),
      );
    }
  });
  return out;
}
