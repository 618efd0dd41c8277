// The one reader of the live source: what has been read (objects kept once each, gaps), and the
// reads themselves over the transport with one policy (guard.ts): the target refused is the
// run's end with the permission to ask for; anything else refused, failed or not served is a
// gap, and reading goes on. A single pod's read (readPod.ts), its follow-up read of more nodes'
// pods, the triage read (readTriage.ts) and the watch's marks (watch.ts) all read through it; the
// reads of one topic are in reads/, as functions of a reader.
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { emptyCollections, type CollectionName, type Collections, type Gap, type Snapshot } from '../../snapshot/types.js';
import { toClusterEvent } from '../dump/objects.js';
import type { ListCut } from './cuts.js';
import { ApiStatusError, forbiddenTarget, unexpectedStatus } from './errors.js';
import { readOrGap } from './guard.js';
import { escapeField, kindWord, pathOf, rbacName, resources, scopeOf, type Resource } from './resources.js';
import type { Transport } from './transport.js';
import { readClusterVersion } from './version.js';

export interface Meta {
  metadata?: V1ObjectMeta;
}

export type KeptCollection = Exclude<CollectionName, 'events'>;

export function namespaceOf(object: Meta): string {
  return object.metadata?.namespace ?? 'default';
}

function objectKey(object: Meta): string {
  return object.metadata?.uid || `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

export interface ListOptions<T> {
  query?: Record<string, string>;
  keep?: (item: T) => boolean;
  cut?: ListCut<T>;
  onPage?: (items: readonly T[]) => void;
  /** A 404 means the API group is not served (Karpenter not installed): nothing to read, no gap. */
  notServedIsAbsent?: boolean;
  /** The Accept header, e.g. metadata only. */
  accept?: string;
}

export class LiveReader {
  readonly objects: Collections = emptyCollections();
  readonly gaps: Gap[] = [];
  /** The nodes whose pods were read one by one; unset until they are (see Snapshot.podsReadOn). */
  podsReadOn: string[] | undefined;
  /** What `/version` said (Snapshot.cluster); unset until read. */
  private cluster: Snapshot['cluster'];
  private readonly seen = new Map<CollectionName, Set<string>>();
  private readonly eventQueries = new Set<string>();

  constructor(
    readonly transport: Transport,
    private readonly describe: string,
    readonly progress: (line: string) => void,
    /** Up to this many objects (nodes, claims) read one by one; above, one LIST. */
    readonly perObjectReadsUpTo: number,
  ) {}

  /** Continues from an earlier read of this source: its objects, gaps and the nodes whose pods it read. */
  resume(earlier: Snapshot): void {
    for (const [collection, items] of Object.entries(earlier.objects) as [CollectionName, unknown[]][]) {
      if (collection === 'events') this.objects.events.push(...(items as Collections['events']));
      else this.add(collection, items);
    }
    for (const gap of earlier.gaps) this.addGap(gap);
    if (earlier.podsReadOn) this.podsReadOn = [...earlier.podsReadOn];
    if (earlier.cluster) this.cluster = earlier.cluster;
  }

  snapshot(): Snapshot {
    return {
      source: { kind: 'live', description: this.describe },
      objects: this.objects,
      gaps: this.gaps,
      ...(this.podsReadOn ? { podsReadOn: this.podsReadOn } : {}),
      ...(this.cluster ? { cluster: this.cluster } : {}),
    };
  }

  /** Keeps each object once (by uid, else namespace and name), whichever read brought it. */
  add(collection: KeptCollection, items: readonly unknown[]): void {
    const seen = this.seen.get(collection) ?? new Set<string>();
    this.seen.set(collection, seen);
    const list = this.objects[collection] as unknown[];
    for (const item of items) {
      const key = objectKey(item as Meta);
      if (seen.has(key)) continue;
      seen.add(key);
      list.push(item);
    }
  }

  addGap(gap: Gap): void {
    const key = JSON.stringify(gap);
    if (!this.gaps.some((g) => JSON.stringify(g) === key)) this.gaps.push(gap);
  }

  find<T extends Meta>(collection: KeptCollection, namespace: string | undefined, name: string): T | undefined {
    return (this.objects[collection] as T[]).find((o) => o.metadata?.name === name && (namespace === undefined || namespaceOf(o) === namespace));
  }

  /** Pods at cluster scope were refused: reads of them by node would be refused too. */
  podsRefusedClusterWide(): boolean {
    return this.gaps.some((g) => g.collection === 'pods' && g.cause === 'forbidden' && g.permission.scope === 'cluster');
  }

  // --- the target: what the question is about; refused, the run ends ---

  /** The target itself: 404 is "not found"; 403 ends the run with the permission to ask for. */
  async getTarget<T>(r: Resource, namespace: string, name: string, what: string): Promise<T | undefined> {
    try {
      return (await this.transport.get({ path: pathOf(r, namespace, name), what })) as T;
    } catch (error) {
      if (!(error instanceof ApiStatusError)) throw error;
      if (error.status === 404) return undefined;
      if (error.status === 403) throw forbiddenTarget(error, { verb: 'get', resource: rbacName(r), scope: scopeOf(r, namespace) });
      throw unexpectedStatus(error);
    }
  }

  /** The targets of a triage or a watch: refused or failed, there is nothing to do; say why. */
  async listTarget<T>(r: Resource, namespace: string | undefined, what: string, query: Record<string, string | number>, verb: 'list' | 'watch' = 'list'): Promise<{ items: T[]; resourceVersion: string }> {
    try {
      if (query['limit'] !== undefined) {
        const page = (await this.transport.get({ path: pathOf(r, namespace), query, what })) as { items?: T[]; metadata?: { resourceVersion?: string } };
        return { items: page.items ?? [], resourceVersion: page.metadata?.resourceVersion ?? '' };
      }
      return { items: await this.transport.list<T>({ path: pathOf(r, namespace), query, what }), resourceVersion: '' };
    } catch (error) {
      if (error instanceof ApiStatusError && error.status === 403) throw forbiddenTarget(error, { verb, resource: rbacName(r), scope: scopeOf(r, namespace) });
      if (error instanceof ApiStatusError) throw unexpectedStatus(error);
      throw error;
    }
  }

  // --- everything else: refused or failed, a gap ---

  /** A GET the diagnosis can do without, kept (as `keepAs` makes it) in its collection. */
  async get<T extends Meta>(r: Resource, namespace: string | undefined, name: string, what: string, keepAs: (found: T) => T = (found) => found): Promise<T | undefined> {
    const found = await readOrGap((gap) => this.addGap(gap), r, 'get', namespace, what, () => this.transport.get({ path: pathOf(r, namespace, name), what }));
    if (!found) return undefined;
    const kept = keepAs(found as T);
    this.add(r.collection as KeptCollection, [kept]);
    return kept;
  }

  /** A LIST the diagnosis can do without, paged, cut as it arrives, kept in its collection. */
  async list<T extends Meta>(r: Resource, namespace: string | undefined, what: string, options: ListOptions<T> = {}): Promise<T[] | undefined> {
    const { query = {}, keep, cut = {}, onPage } = options;
    const items = await readOrGap(
      (gap) => this.addGap(gap),
      r,
      'list',
      namespace,
      what,
      () =>
        this.transport.list<T>(
          { path: pathOf(r, namespace), query, what, ...(options.accept ? { accept: options.accept } : {}), ...(cut.decodeProtobuf ? { decodeProtobuf: cut.decodeProtobuf } : {}) },
          {
            ...(keep ? { keep } : {}),
            ...(cut.reduce ? { reduce: cut.reduce } : {}),
            ...(cut.dropArrays ? { dropArrays: cut.dropArrays } : {}),
            onPage: (count, page) => {
              if (count >= 500) this.progress(`${what} (${count} so far)`);
              onPage?.(page);
            },
          },
        ),
      options.notServedIsAbsent ?? false,
    );
    if (items) this.add(r.collection as KeptCollection, items);
    return items;
  }

  /** GET each named object when few, else one LIST keeping the named ones. */
  async named(r: Resource, refs: { namespace?: string; name: string }[], what: string): Promise<void> {
    const collection = r.collection as KeptCollection;
    const wanted = refs.filter((ref) => !this.find(collection, ref.namespace, ref.name));
    if (wanted.length === 0) return;
    if (wanted.length <= this.perObjectReadsUpTo) {
      await Promise.all(wanted.map((ref) => this.get(r, ref.namespace, ref.name, `${what}: ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`)));
      return;
    }
    const keys = new Set(wanted.map((ref) => `${ref.namespace ?? ''}/${ref.name}`));
    const namespaces = new Set(wanted.map((ref) => ref.namespace));
    const only = namespaces.size === 1 ? [...namespaces][0] : undefined;
    await this.list<Meta>(r, only, what, { keep: (o) => keys.has(`${r.namespaced ? namespaceOf(o) : ''}/${o.metadata?.name ?? ''}`) });
  }

  /**
   * Events (in `namespace`, or everywhere), narrowed by `fieldSelector` when given, each query
   * once; `limit`: one page of at most that many. False when the read was refused or failed.
   */
  async events(namespace: string | undefined, fieldSelector: string | undefined, what: string, limit?: number): Promise<boolean> {
    const key = `${namespace ?? '*'}\u0000${fieldSelector ?? ''}`;
    if (this.eventQueries.has(key)) return true;
    this.eventQueries.add(key);
    const r = resources.events;
    const query = fieldSelector ? { fieldSelector } : {};
    const items =
      limit === undefined
        ? await readOrGap((gap) => this.addGap(gap), r, 'list', namespace, what, () => this.transport.list<Meta>({ path: pathOf(r, namespace), query, what }))
        : await readOrGap((gap) => this.addGap(gap), r, 'list', namespace, what, async () => ((await this.transport.get({ path: pathOf(r, namespace), query: { ...query, limit }, what })) as { items?: Meta[] }).items ?? []);
    const seen = this.seen.get('events') ?? new Set<string>();
    this.seen.set('events', seen);
    for (const item of items ?? []) {
      const id = objectKey(item);
      if (seen.has(id)) continue;
      seen.add(id);
      try {
        this.objects.events.push(toClusterEvent(item as Record<string, unknown>, what));
      } catch {
        // An event without involvedObject says nothing about anything.
      }
    }
    return items !== undefined;
  }

  eventsOf(namespace: string, kind: string, name: string): Promise<boolean> {
    return this.events(namespace, `involvedObject.kind=${escapeField(kind)},involvedObject.name=${escapeField(name)}`, `reading events of ${kindWord(kind)} ${namespace}/${name}`);
  }

  /** The cluster's version (engine/release.ts), once; unknown when `/version` cannot be read. */
  async clusterVersion(): Promise<void> {
    this.cluster ??= await readClusterVersion(this.transport);
  }

  /** Says how many requests the read took; the last line of a read's progress. */
  done(): Snapshot {
    const sent = this.transport.sent.length;
    this.progress(`read ${sent} request${sent === 1 ? '' : 's'}`);
    return this.snapshot();
  }
}
