// Waiting for something to change, with WATCH requests only (read-only like every other
// request): the pod (or the scope's pods), their events, and the nodes. `mark()` takes each
// collection's resourceVersion with a one-item LIST before the snapshot is read, and `changed()`
// watches from there, so a change made while reading is not missed; it returns at the first
// event of any of them. The caller then reads and diagnoses again. A server that goes away
// (a restart, an upgrade) is waited for, and each watch resumes from where it was.
import type { LiveConfig } from './config.js';
import { ApiStatusError, forbiddenTarget, ServerAway, unexpectedStatus } from './errors.js';
import { pathOf, rbacName, resources, scopeOf, type Resource } from './resources.js';
import { LiveReader } from './reader.js';
import { Transport } from './transport.js';

/** What to watch: collections at a path, narrowed by field selectors. */
export interface WatchTarget {
  /** The namespace of the pods and events, or undefined for every namespace. */
  namespace: string | undefined;
  /** One pod's name; undefined: every pod of the namespace. */
  pod?: string;
}

interface Watched {
  resource: Resource;
  namespace: string | undefined;
  path: string;
  what: string;
  fieldSelector?: string;
}

export type Marks = string[];

/** What `changed()` resolves to when a watch cannot resume from its mark: everything is read again. */
export const expired = 'history expired';

function watchedOf(target: WatchTarget): Watched[] {
  const named = target.pod !== undefined ? `metadata.name=${target.pod}` : undefined;
  const about = target.pod !== undefined ? `involvedObject.name=${target.pod}` : undefined;
  return [
    { resource: resources.pods, namespace: target.namespace, path: pathOf(resources.pods, target.namespace), what: 'watching pods', ...(named ? { fieldSelector: named } : {}) },
    { resource: resources.events, namespace: target.namespace, path: pathOf(resources.events, target.namespace), what: 'watching events', ...(about ? { fieldSelector: about } : {}) },
    { resource: resources.nodes, namespace: undefined, path: pathOf(resources.nodes), what: 'watching nodes' },
  ];
}

export interface Watcher {
  /** The resourceVersion of each watched collection, now. */
  mark(): Promise<Marks>;
  /** Resolves at the first change after `marks` (the kind and name of what changed), or `expired`. */
  changed(marks: Marks): Promise<string>;
  close(): void;
}

/** How long a watch waits for a server that went away before it fails (an apiserver restarts in seconds). */
const awayForMs = 120_000;
/** Pauses between tries while it is away: short, so that a change made once it is back is seen soon. */
const awayPausesMs = [250, 500, 1000, 2000];

export function watcher(config: LiveConfig, target: WatchTarget): Watcher {
  const transport = new Transport(config, { concurrency: 4 });
  // The marks are read through the one reader: a refusal names the permission, as a diagnosis's target would.
  const reader = new LiveReader(transport, config.describe, () => undefined, 0);
  const watched = watchedOf(target);
  // A watch the server ends after this long, to be opened again; shorter than a request timeout.
  const seconds = config.requestTimeoutMs > 0 ? Math.max(1, Math.floor(config.requestTimeoutMs / 1000) - 1) : 60;
  return {
    async mark() {
      return Promise.all(
        watched.map(async (w) => {
          const query = { limit: 1, ...(w.fieldSelector ? { fieldSelector: w.fieldSelector } : {}) };
          return (await reader.listTarget(w.resource, w.namespace, w.what.replace('watching', 'listing'), query)).resourceVersion;
        }),
      );
    },
    async changed(marks) {
      // Its own connections, closed once one watch has seen a change: the others end with them.
      const watching = new Transport(config, { concurrency: watched.length, tries: 1 });
      const controller = { done: false };
      const one = async (w: Watched, resourceVersion: string): Promise<string> => {
        let rv = resourceVersion;
        /** Since when the server has been away, and how many tries failed since. */
        let away: { since: number; tries: number } | undefined;
        for (;;) {
          let seen: string | undefined;
          try {
            await watching.get({
            path: w.path,
            what: w.what,
            query: { watch: 1, resourceVersion: rv, timeoutSeconds: seconds, allowWatchBookmarks: 'true', ...(w.fieldSelector ? { fieldSelector: w.fieldSelector } : {}) },
            onLine: (line) => {
              away = undefined;
              const event = JSON.parse(line) as { type?: string; object?: { kind?: string; code?: number; metadata?: { name?: string; resourceVersion?: string } } };
              if (event.type === 'BOOKMARK') {
                rv = event.object?.metadata?.resourceVersion ?? rv;
                return false;
              }
              // A resourceVersion too old to watch from: the apiserver answers 200 and this event
              // (a Status, code 410), as after etcd compacts past it or a restart empties its cache.
              if (event.type === 'ERROR' && event.object?.code === 410) {
                seen = expired;
                return true;
              }
              seen = `${event.object?.kind ?? 'object'} ${event.object?.metadata?.name ?? ''}`.trim();
              return true;
            },
            });
            away = undefined;
          } catch (error) {
            // Ended by close(): another watch saw a change first.
            if (controller.done) return '';
            // The server went away (its watches end with it): once it answers again, this watch
            // resumes from `rv`, so a change made meanwhile is still seen (or, its history gone, read).
            if (error instanceof ServerAway) {
              const gone = (away ??= { since: Date.now(), tries: 0 });
              if (Date.now() - gone.since < awayForMs) {
                await new Promise((resolve) => setTimeout(resolve, awayPausesMs[Math.min(gone.tries++, awayPausesMs.length - 1)]));
                if (controller.done) return '';
                continue;
              }
            }
            // 410 Gone: the mark is too old to watch from; read everything again.
            if (error instanceof ApiStatusError && error.status === 410) return expired;
            // Without watch, --watch cannot work: say which permission to ask for.
            if (error instanceof ApiStatusError && error.status === 403) throw forbiddenTarget(error, { verb: 'watch', resource: rbacName(w.resource), scope: scopeOf(w.resource, w.namespace) });
            if (error instanceof ApiStatusError) throw unexpectedStatus(error);
            throw error;
          }
          if (seen !== undefined || controller.done) return seen ?? '';
        }
      };
      try {
        return await Promise.race(watched.map((w, i) => one(w, marks[i] ?? '')));
      } finally {
        controller.done = true;
        watching.close();
      }
    },
    close: () => transport.close(),
  };
}
