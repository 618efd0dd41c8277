// A recording on disk (~/.cache/why-pending/replay/<nodes>x<pods>/): per collection, the items
// as served, each encoding in its own files (JSON item text, protobuf item bytes), and an index
// of where each item is with what the server filters it by (namespace, name, the fields a field
// selector reads, labels). Items, not pages: the replay server pages them again with its own
// limits and continue tokens. Item files roll over at 1 GiB (readFileSync reads at most 2 GiB).
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ItemRef {
  segment: number;
  offset: number;
  length: number;
}

export interface IndexEntry {
  /** The etcd key's tail: `namespace/name`, or `name` for a cluster-scoped object. */
  key: string;
  namespace?: string;
  name: string;
  uid: string;
  /** What a field selector on this kind reads (metadata.name, spec.nodeName, involvedObject.uid...). */
  fields: Record<string, string>;
  labels: Record<string, string>;
  json: ItemRef;
  protobuf?: ItemRef;
}

export interface RecordedCollection {
  /** The URL's group ('' for the core group), version and plural. */
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  /** Whether the recorded apiserver served it; a collection it did not is a 404 in the replay too. */
  served: boolean;
  resourceVersion: string;
  count: number;
  protobuf: boolean;
}

export interface Manifest {
  recordedAt: string;
  from: string;
  nodes: number;
  pods: number;
  /** Pods bound to a node (the pods the measured reads read; `pods` adds the pending ones). */
  boundPods: number;
  /** The pending pods measured: namespace and names, with their case ids. */
  cases: { id: string; namespace: string; name: string }[];
  collections: Record<string, RecordedCollection>;
  /** Other GETs, their bodies as served: /version, /api, /apis. */
  documents: Record<string, string>;
  /** What re-encoding a served page from its items gave (fidelity.ts). */
  fidelity: { what: string; identical: boolean; detail?: string }[];
}

export function defaultStore(nodes: number, pods: number): string {
  return path.join(os.homedir(), '.cache', 'why-pending', 'replay', `${nodes}x${pods}`);
}

const segmentBytes = 1 << 30;

/** Appends items to numbered files, starting a new one past 1 GiB. */
class SegmentWriter {
  private segment = 0;
  private offset = 0;
  private fd: number;

  constructor(private readonly base: string) {
    this.fd = openSync(`${base}.0`, 'w');
  }

  append(bytes: Buffer): ItemRef {
    if (this.offset > 0 && this.offset + bytes.length > segmentBytes) {
      closeSync(this.fd);
      this.segment++;
      this.offset = 0;
      this.fd = openSync(`${this.base}.${this.segment}`, 'w');
    }
    writeSync(this.fd, bytes);
    const ref = { segment: this.segment, offset: this.offset, length: bytes.length };
    this.offset += bytes.length;
    return ref;
  }

  close(): number {
    closeSync(this.fd);
    return this.segment + 1;
  }
}

export class CollectionWriter {
  readonly entries = new Map<string, IndexEntry>();
  private readonly json: SegmentWriter;
  private protobuf: SegmentWriter | undefined;

  constructor(
    private readonly dir: string,
    readonly name: string,
  ) {
    mkdirSync(dir, { recursive: true });
    this.json = new SegmentWriter(path.join(dir, `${name}.json`));
  }

  addJson(entry: Omit<IndexEntry, 'json' | 'protobuf'>, bytes: Buffer): void {
    if (this.entries.has(entry.key)) throw new Error(`${this.name}: ${entry.key} recorded twice`);
    this.entries.set(entry.key, { ...entry, json: this.json.append(bytes) });
  }

  addProtobuf(key: string, bytes: Buffer): void {
    const entry = this.entries.get(key);
    if (!entry) throw new Error(`${this.name}: ${key} served in protobuf but not in JSON`);
    this.protobuf ??= new SegmentWriter(path.join(this.dir, `${this.name}.protobuf`));
    entry.protobuf = this.protobuf.append(bytes);
  }

  close(): { segments: { json: number; protobuf: number } } {
    const segments = { json: this.json.close(), protobuf: this.protobuf?.close() ?? 0 };
    writeFileSync(path.join(this.dir, `${this.name}.index.json`), JSON.stringify({ segments, entries: [...this.entries.values()] }));
    return { segments };
  }
}

export function writeManifest(dir: string, manifest: Manifest): void {
  writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** An index entry with its bytes in place of where they are. */
export type LoadedItem = Omit<IndexEntry, 'json' | 'protobuf'> & { json: Buffer; protobuf?: Buffer };

/** A collection's items with their bytes (views into the item files, read whole). */
export function loadCollection(dir: string, name: string): LoadedItem[] {
  const { segments, entries } = JSON.parse(readFileSync(path.join(dir, `${name}.index.json`), 'utf8')) as { segments: { json: number; protobuf: number }; entries: IndexEntry[] };
  const read = (kind: string, n: number) => Array.from({ length: n }, (_, i) => readFileSync(path.join(dir, `${name}.${kind}.${i}`)));
  const json = read('json', segments.json);
  const protobuf = read('protobuf', segments.protobuf);
  const slice = (files: Buffer[], ref: ItemRef) => (files[ref.segment] as Buffer).subarray(ref.offset, ref.offset + ref.length);
  return entries.map((e) => ({
    key: e.key,
    ...(e.namespace !== undefined ? { namespace: e.namespace } : {}),
    name: e.name,
    uid: e.uid,
    fields: e.fields,
    labels: e.labels,
    json: slice(json, e.json),
    ...(e.protobuf ? { protobuf: slice(protobuf, e.protobuf) } : {}),
  }));
}
