// Where the apiserver served the pages of a paged pod LIST from: its watch cache or etcd.
// Since ListFromCacheSnapshot (beta, on by default since 1.34) the apiserver serves a paged LIST
// from the watch cache, every page after the first from the snapshot taken at the continue
// token's revision. A snapshot is taken at each write of a pod, and dropped when etcd is
// compacted past its revision (every 5 minutes by default): in a cluster whose pods have not
// been written since the last compaction no snapshot is left, and every page after a namespace's
// first is served by etcd (k8s.io/apiserver pkg/storage/cacher: delegator.go, compactor.go,
// store/watch_cache_storage.go), and the read of every pod takes twice as long (BENCHMARKS.md,
// "Reading every pod: what was weighed"). A live cluster's pods are written all the time
// (kubelets report status, controllers scale); the bench cluster's are not once seeded, which
// is what keepPodsWritten stands in for.
import type { ApiClient } from '../../e2e/harness/api.js';

const etcdPodLists = /^apiserver_storage_list_total\{group="",index="",resource="pods",storage="etcd"\} (\S+)$/m;

/**
 * The apiserver's count of pod LISTs (pages included) it served from etcd, from its metrics. Its
 * own count too: the cache consistency check (pkg/storage/cacher/consistency, on by default since
 * 1.34) reads every pod from etcd, 10,000 a page, every 5 to 7.5 minutes.
 */
export async function podListsFromEtcd(api: ApiClient): Promise<number> {
  const { status, text } = await api.raw('GET', '/metrics');
  if (status !== 200) throw new Error(`GET /metrics: HTTP ${status}`);
  return Number(etcdPodLists.exec(text)?.[1] ?? 0);
}

/** What `read` gave, and the pod LISTs the apiserver served from etcd while it ran. */
export async function countingEtcdPodLists<T>(api: ApiClient, read: () => Promise<T>): Promise<{ result: T; fromEtcd: number }> {
  const before = await podListsFromEtcd(api);
  const result = await read();
  return { result, fromEtcd: (await podListsFromEtcd(api)) - before };
}

/**
 * Writes an annotation of one pod every `everyMs`, as a live cluster's kubelets and controllers
 * write pods, so that the watch cache keeps a snapshot past each compaction. The annotation
 * changes no diagnosis (none reads it). stop() says how many writes were made, or throws the
 * first write's failure.
 */
export function keepPodsWritten(api: ApiClient, namespace: string, name: string, everyMs: number): { stop: () => Promise<number> } {
  let writes = 0;
  let failure: unknown;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last: Promise<void> = Promise.resolve();
  // One write at a time: the next is timed from the end of the one before.
  const write = () => {
    last = api
      .patch(`/api/v1/namespaces/${namespace}/pods/${name}`, { metadata: { annotations: { 'bench/written-at': new Date().toISOString() } } })
      .then(() => void writes++)
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => {
        if (!stopped) (timer = setTimeout(write, everyMs)).unref();
      });
  };
  write();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await last;
      if (failure !== undefined) throw new Error(`writing pod ${namespace}/${name} to keep the watch cache's snapshots: ${failure instanceof Error ? failure.message : String(failure)}`);
      return writes;
    },
  };
}
