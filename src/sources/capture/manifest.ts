// A capture's manifest: what the capture holds and how each collection was read, so that its
// reader knows rather than guesses (schema/capture.v1.json). The snapshot's own account of its
// input (gaps, the nodes whose pods were read, the cluster's version) is kept whole in
// `snapshot`, and a diagnosis from the capture starts from exactly what the live one had.
import { apiResources, collectionNames, type CollectionName, type Gap, type Snapshot, type SourceNote } from '../../snapshot/types.js';

export const captureApiVersion = 'why-pending.capture/v1';
export const manifestFile = 'manifest.json';

/** How one request read a collection. */
export interface ReadRecord {
  verb: 'get' | 'list';
  /** `cluster`: all namespaces or a cluster-scoped kind; `namespace`: one. */
  scope: 'cluster' | 'namespace';
  namespace?: string;
  /** The one object a GET named. */
  name?: string;
  /** The node whose pods a `spec.nodeName=` field selector read. */
  node?: string;
  fieldSelector?: string;
  labelSelector?: string;
  /** The HTTP status of its last attempt, or `failed` when no answer came. */
  status: number | 'failed';
  /** A LIST: the items the server sent, and how many the reader kept. */
  items?: number;
  kept?: number;
}

export type CollectionState = 'complete' | 'partial' | 'refused' | 'failed' | 'notRead' | 'fromDump' | 'absentFromDump';

export interface CollectionRecord {
  /**
   * complete: listed across the cluster without a selector and kept whole; partial: read for
   * this question only (named objects, one namespace, selectors, one node's pods); refused: the
   * permission below is missing; failed: see `error`; notRead: the question did not need it.
   * A capture of a dump: fromDump (as whole as the dump was), absentFromDump (the dump had none).
   */
  state: CollectionState;
  objects: number;
  /** The file holding its objects, when it has any. */
  file?: string;
  reads: ReadRecord[];
  permission?: { verb: string; resource: string; scope: string };
  error?: string;
}

export interface CaptureSelection {
  namespace?: string;
  name?: string;
  allNamespaces?: boolean;
  selector?: string;
}

export interface CaptureManifest {
  apiVersion: typeof captureApiVersion;
  kind: 'Capture';
  tool: { name: 'kubectl-why-pending'; version: string };
  /** What was read: a cluster (live), or a dump or capture file (`capture --from-dump`). */
  source: 'live' | 'dump' | 'capture';
  /** The API server's `/version` gitVersion; null when it could not be read. */
  server: { gitVersion: string | null };
  capturedAt: string;
  selection: CaptureSelection;
  redacted: { fields: true; names: boolean };
  collections: Record<CollectionName, CollectionRecord>;
  /** What the source knew of its own input: the diagnosis from the capture starts from it. */
  snapshot: { gaps: Gap[]; podsReadOn?: string[]; cluster?: { version?: string }; notes?: SourceNote[] };
}

/** A request as the transport logged it (path with its query). */
export interface SentLike {
  path: string;
  status: number | 'failed';
}

export interface ListLike {
  path: string;
  query: Record<string, string>;
  items: number;
  kept: number;
}

const byPlural = new Map<string, CollectionName>(collectionNames.map((c) => [`${apiResources[c].group}/${apiResources[c].plural}`, c]));

interface Parsed {
  collection: CollectionName;
  record: ReadRecord;
  key: string;
}

/** `/api/v1/namespaces/shop/pods?fieldSelector=...` as a collection and how it was read. */
export function parseRead(sent: SentLike): Parsed | undefined {
  const url = new URL(sent.path, 'http://capture.invalid');
  const at = url.pathname.search(/\/apis?\//);
  if (at < 0) return undefined;
  const parts = url.pathname.slice(at).split('/').filter((p) => p !== '').map(decodeURIComponent);
  const group = parts[0] === 'api' ? '' : (parts[1] ?? '');
  let rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name] = rest;
  const collection = byPlural.get(`${group}/${plural ?? ''}`);
  if (!collection) return undefined;
  const fieldSelector = url.searchParams.get('fieldSelector') ?? undefined;
  const labelSelector = url.searchParams.get('labelSelector') ?? undefined;
  const node = /(?:^|,)spec\.nodeName=([^,]+)/.exec(fieldSelector ?? '')?.[1];
  const record: ReadRecord = {
    verb: name !== undefined ? 'get' : 'list',
    scope: namespace !== undefined ? 'namespace' : 'cluster',
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(node !== undefined ? { node } : {}),
    ...(fieldSelector ? { fieldSelector } : {}),
    ...(labelSelector ? { labelSelector } : {}),
    status: sent.status,
  };
  const key = `${url.pathname.slice(at)}?${fieldSelector ?? ''}?${labelSelector ?? ''}`;
  return { collection, record, key };
}

function listKey(list: ListLike): string {
  return `${list.path}?${list.query['fieldSelector'] ?? ''}?${list.query['labelSelector'] ?? ''}`;
}

function stateOf(collection: CollectionName, reads: readonly ReadRecord[], snapshot: Snapshot, objects: number): Pick<CollectionRecord, 'state' | 'permission' | 'error'> {
  const gap = snapshot.gaps.find((g) => g.collection === collection && (g.cause === 'forbidden' || g.cause === 'error'));
  if (gap?.cause === 'forbidden') return { state: 'refused', permission: gap.permission };
  if (gap?.cause === 'error') return { state: 'failed', error: gap.detail };
  if (snapshot.source.kind !== 'live') return { state: snapshot.gaps.some((g) => g.collection === collection && g.cause === 'absentFromDump') ? 'absentFromDump' : 'fromDump' };
  if (reads.length === 0 && objects === 0) return { state: 'notRead' };
  const whole = reads.some((r) => r.verb === 'list' && r.scope === 'cluster' && !r.labelSelector && !r.fieldSelector && r.items === r.kept && typeof r.status === 'number' && r.status < 300);
  return { state: whole ? 'complete' : 'partial' };
}

/**
 * Each collection's record: its reads (pages of one LIST counted once, with the items kept),
 * its state, and the count of objects the capture holds.
 */
export function describeCollections(snapshot: Snapshot, sent: readonly SentLike[], lists: readonly ListLike[]): Record<CollectionName, CollectionRecord> {
  const reads = new Map<CollectionName, Map<string, ReadRecord>>();
  for (const request of sent) {
    const parsed = parseRead(request);
    if (!parsed) continue;
    const of = reads.get(parsed.collection) ?? new Map<string, ReadRecord>();
    reads.set(parsed.collection, of);
    of.set(parsed.key, parsed.record);
  }
  const counted = new Map<string, { items: number; kept: number }>();
  for (const list of lists) {
    const key = listKey(list);
    const before = counted.get(key) ?? { items: 0, kept: 0 };
    counted.set(key, { items: before.items + list.items, kept: before.kept + list.kept });
  }
  const out = {} as Record<CollectionName, CollectionRecord>;
  for (const collection of collectionNames) {
    const records = [...(reads.get(collection) ?? new Map<string, ReadRecord>()).entries()].map(([key, r]) => {
      const count = r.verb === 'list' ? counted.get(key) : undefined;
      return count ? { ...r, ...count } : r;
    });
    const objects = snapshot.objects[collection].length;
    out[collection] = { ...stateOf(collection, records, snapshot, objects), objects, reads: records };
  }
  return out;
}
