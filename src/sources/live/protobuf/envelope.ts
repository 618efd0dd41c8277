// The apiserver's protobuf answers (Accept: application/vnd.kubernetes.protobuf): four magic
// bytes "k8s\0", then a runtime.Unknown whose `raw` field holds the object (a PodList or a
// NodeList, or a Status for an error). https://kubernetes.io/docs/reference/using-api/api-concepts/#protobuf-encoding
import type { V1Pod } from '@kubernetes/client-node';
import type { NodeRecord } from '../../../snapshot/types.js';
import type { Pass } from './fields.js';
import { nodeRecord } from './node.js';
import { neighbourPod } from './pod.js';
import { Pieces, type PageBytes } from './pieces.js';
import { Interner, ProtobufError, Reader, WireType } from './wire.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/**
 * The bounds of the Unknown's `raw` field, the page read up to its start; undefined when the page
 * holds less than that start.
 */
function rawSpan(page: Pieces, complete: boolean): { start: number; end: number } | undefined {
  if (!complete && page.length < magic.length) return undefined;
  for (const byte of magic) {
    if (page.pos >= page.length || page.byte() !== byte) throw new ProtobufError('the answer does not start with the protobuf magic bytes');
  }
  while (page.pos < page.length) {
    const { field, wire } = page.key();
    if (field === 2 && wire === WireType.LengthDelimited) {
      const length = page.varint();
      return { start: page.pos, end: page.pos + length };
    }
    page.skip(wire);
  }
  return undefined;
}

/** ListMeta's continue token (field 3); "" (the last page) reads as undefined. */
function continueOf(r: Reader, end: number): string | undefined {
  let token: string | undefined;
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 3 && wire === WireType.LengthDelimited) token = r.string();
    else r.skip(wire);
  }
  return token || undefined;
}

/**
 * The continue token in the start of a list's bytes (ListMeta comes before the items): the
 * token, undefined for the last page, null when the start does not hold it yet.
 */
export function continueInProtobufHead(head: Buffer): string | undefined | null {
  try {
    const raw = rawSpan(new Pieces(head), false);
    if (!raw) return null;
    const list = new Reader(head, raw.start, Math.min(raw.end, head.length));
    const { field, wire } = list.key();
    if (field !== 1 || wire !== WireType.LengthDelimited) return null;
    const length = list.varint();
    if (list.pos + length > head.length) return null;
    return continueOf(list, list.pos + length);
  } catch {
    return null;
  }
}

export interface DecodedList<T> {
  metadata: { continue?: string };
  items: T[];
}

export type DecodedPodList = DecodedList<V1Pod>;

/** A page of a list (ListMeta 1, items 2), each item read by `item`. */
function decodeList<T>(bytes: PageBytes, pass: Pass, item: (r: Reader, end: number, pass: Pass) => T): DecodedList<T> {
  const page = new Pieces(bytes);
  const raw = rawSpan(page, true);
  if (!raw || raw.end > page.length) throw new ProtobufError('the answer holds no object');
  const items: T[] = [];
  let token: string | undefined;
  while (page.pos < raw.end) {
    const { field, wire } = page.key();
    if (field === 1 && wire === WireType.LengthDelimited) {
      const r = page.message();
      token = continueOf(r, r.end);
    } else if (field === 2 && wire === WireType.LengthDelimited) {
      const r = page.message();
      items.push(item(r, r.end, pass));
    } else page.skip(wire);
  }
  if (page.pos > raw.end) throw new ProtobufError('a field runs past the end of its message');
  return { metadata: token ? { continue: token } : {}, items };
}

/** A page of pods as the records compact.ts keeps (protobuf/pod.ts); `pass` is shared by a read's pages. */
export function decodePodList(bytes: PageBytes, pass: Pass = decodingPass()): DecodedPodList {
  return decodeList(bytes, pass, neighbourPod);
}

/** A page of nodes as NodeRecords (protobuf/node.ts); `pass` is shared by a read's pages. */
export function decodeNodeList(bytes: PageBytes, pass: Pass = decodingPass()): DecodedList<NodeRecord> {
  return decodeList(bytes, pass, nodeRecord);
}

/** An error's metav1.Status (status 2, message 3, reason 4, code 6), as its JSON would read. */
export function decodeStatus(bytes: Buffer): { kind: 'Status'; status?: string; message?: string; reason?: string; code?: number } | undefined {
  try {
    const raw = rawSpan(new Pieces(bytes), true);
    if (!raw) return undefined;
    const r = new Reader(bytes, raw.start, Math.min(raw.end, bytes.length));
    const out: { kind: 'Status'; status?: string; message?: string; reason?: string; code?: number } = { kind: 'Status' };
    while (r.more()) {
      const { field, wire } = r.key();
      if (field === 2 && wire === WireType.LengthDelimited) out.status = r.string();
      else if (field === 3 && wire === WireType.LengthDelimited) out.message = r.string();
      else if (field === 4 && wire === WireType.LengthDelimited) out.reason = r.string();
      else if (field === 6 && wire === WireType.Varint) out.code = r.signed();
      else r.skip(wire);
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * The decoder of one read's pages of pods on nodes (Transport's decodeProtobuf): records as
 * compactNeighbour keeps them, label keys and values, resource names and the like kept once
 * across every page of the read.
 */
export function neighbourPodPages(): (bytes: PageBytes) => DecodedPodList & { reduced: true } {
  const pass = decodingPass();
  return (bytes) => ({ ...decodePodList(bytes, pass), reduced: true });
}

/** The decoder of one read's pages of nodes: NodeRecords, as compactNode keeps them. */
export function nodePages(): (bytes: PageBytes) => DecodedList<NodeRecord> & { reduced: true } {
  const pass = decodingPass();
  return (bytes) => ({ ...decodeNodeList(bytes, pass), reduced: true });
}

function decodingPass(): Pass {
  return { intern: new Interner(), times: new Map() };
}
