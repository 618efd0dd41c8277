// The replay server's answers to a LIST: the recorded items that the path's namespace and the
// query's selectors keep, in the apiserver's order (by key), paged with `limit` and the server's
// own continue tokens (base64 of a small JSON, as the apiserver's are, `{"v":..,"rv":..,"start":..}`),
// encoded in JSON, protobuf or as metadata only. A page's encoded and gzipped body is kept once
// made: a paged read asked again costs the server almost nothing, so that what is measured
// against it is the reader's own cost.
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { selectableFields } from './fields.js';
import { jsonList, partialMetadataItem, type ListMeta } from './json-items.js';
import { protobufList } from './protobuf-list.js';
import { labelFilter, matchesFields, parseFieldSelector } from './selectors.js';
import type { LoadedItem, RecordedCollection } from './store.js';

const gzip = promisify(gzipCallback);

/** The apiserver gzips an answer of at least 128 KiB when asked to, at level 1 (responsewriters). */
const gzipThreshold = 128 * 1024;
const gzipLevel = 1;

export type Format = 'json' | 'protobuf' | 'metadata';

export class BadRequest extends Error {}

export interface ServedCollection {
  recorded: RecordedCollection;
  apiVersion: string;
  items: LoadedItem[];
}

export interface ListQuery {
  namespace?: string;
  fieldSelector: string;
  labelSelector: string;
  limit: number;
  continueToken?: string;
  format: Format;
  gzip: boolean;
}

export interface Page {
  body: Buffer;
  gzipped: boolean;
  items: number;
}

function encodeToken(rv: string, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(rv), start })).toString('base64url');
}

function decodeToken(token: string): string {
  try {
    const { start } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start?: unknown };
    if (typeof start === 'string') return start;
  } catch {
    // said below
  }
  throw new BadRequest(`continue key is not valid: ${token.slice(0, 40)}`);
}

export class Pager {
  private readonly filtered = new Map<string, LoadedItem[]>();
  private readonly bodies = new Map<string, Promise<{ bytes: Buffer; gzipped: boolean }>>();

  constructor(private readonly collection: ServedCollection) {}

  private select(q: ListQuery): LoadedItem[] {
    const key = `${q.namespace ?? ''}|${q.fieldSelector}|${q.labelSelector}`;
    const known = this.filtered.get(key);
    if (known) return known;
    const fields = parseFieldSelector(q.fieldSelector);
    const supported = selectableFields(this.collection.recorded.kind, {});
    const unsupported = fields.find((f) => !Object.hasOwn(supported, f.field));
    if (unsupported) throw new BadRequest(`field label not supported: ${unsupported.field}`);
    const selected = labelFilter(q.labelSelector);
    const items = this.collection.items.filter((item) => (q.namespace === undefined || item.namespace === q.namespace) && matchesFields(fields, item.fields) && selected(item.labels));
    this.filtered.set(key, items);
    return items;
  }

  async page(q: ListQuery): Promise<Page> {
    const { recorded, apiVersion } = this.collection;
    const items = this.select(q);
    let from = 0;
    if (q.continueToken) {
      const start = decodeToken(q.continueToken);
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((items[mid]?.key ?? '') < start) lo = mid + 1;
        else hi = mid;
      }
      from = lo;
    }
    const to = q.limit > 0 ? Math.min(items.length, from + q.limit) : items.length;
    const cacheKey = `${q.namespace ?? ''}|${q.fieldSelector}|${q.labelSelector}|${q.format}|${from}|${to}|${q.gzip}`;
    let body = this.bodies.get(cacheKey);
    if (!body) {
      const next = items[to];
      const meta: ListMeta = { resourceVersion: recorded.resourceVersion };
      if (next) {
        meta.continue = encodeToken(recorded.resourceVersion, next.key);
        // As the apiserver: the count left is known only when nothing filters the list.
        if (q.fieldSelector === '' && q.labelSelector === '') meta.remainingItemCount = items.length - to;
      }
      const slice = items.slice(from, to);
      const plain =
        q.format === 'protobuf'
          ? protobufList(`${recorded.kind}List`, apiVersion, meta, slice.map((i) => i.protobuf ?? Buffer.alloc(0)))
          : q.format === 'metadata'
            ? jsonList('PartialObjectMetadataList', 'meta.k8s.io/v1', meta, slice.map((i) => partialMetadataItem(i.json)))
            : jsonList(`${recorded.kind}List`, apiVersion, meta, slice.map((i) => i.json));
      const compress = q.gzip && plain.length >= gzipThreshold;
      body = compress ? gzip(plain, { level: gzipLevel }).then((bytes) => ({ bytes, gzipped: true })) : Promise.resolve({ bytes: plain, gzipped: false });
      // Only compressed pages are kept: made once, they cost the server nothing more.
      if (compress) this.bodies.set(cacheKey, body);
    }
    const { bytes, gzipped } = await body;
    return { body: bytes, gzipped, items: to - from };
  }

  get(namespace: string | undefined, name: string): LoadedItem | undefined {
    const key = namespace !== undefined ? `${namespace}/${name}` : name;
    let lo = 0;
    let hi = this.collection.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.collection.items[mid]?.key ?? '') < key) lo = mid + 1;
      else hi = mid;
    }
    const found = this.collection.items[lo];
    return found?.key === key ? found : undefined;
  }
}
