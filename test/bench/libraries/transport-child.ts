// One side of "transport and paging", in a process of its own (measure.ts): every pod of a
// paged LIST (limit 500, continue tokens) from servers.ts, each kept as the live reader keeps a
// pod on a node (compact.ts's compactNeighbour), over JSON. `ours` is src/sources/live/
// transport.ts's Transport.list, with the kubeconfig read by config.ts as the CLI reads it.
// `client-node` is @kubernetes/client-node's CoreV1Api.listPodForAllNamespaces with limit and
// _continue, its KubeConfig reading the same file. `undici` is undici's fetch on a keep-alive
// Agent, each page's JSON parsed by Response.json(), the next page asked for after it.
// Plain node (type stripping): the build's JavaScript and the cached library, by path.
//   node transport-child.ts ours|client-node|undici SERVER_URL KUBECONFIG DIST LIBRARIES
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { V1Pod } from '@kubernetes/client-node';
import type * as Compact from '../../../src/sources/live/compact.js';
import type * as Config from '../../../src/sources/live/config.js';
import type * as TransportModule from '../../../src/sources/live/transport.js';
import type * as ChildStats from './child-stats.js';

// Plain node runs this file (type stripping): a sibling .ts module is loaded by its URL.
const { runSide } = (await import(new URL('./child-stats.ts', import.meta.url).href)) as typeof ChildStats;
const [side, server = '', kubeconfig = '', dist = '', libraries = ''] = process.argv.slice(2);
if (!server || !kubeconfig || !dist || !libraries) throw new Error('usage: transport-child.ts ours|client-node|undici SERVER_URL KUBECONFIG DIST LIBRARIES');
const distModule = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(dist, file)).href)) as T;
const pageSize = 500;

interface Undici {
  Agent: new (options: { keepAliveTimeout: number; connections: number }) => { close(): Promise<void> };
  fetch(url: string, init: { dispatcher: unknown; headers: Record<string, string> }): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;
}

async function load(): Promise<() => Promise<V1Pod[]>> {
  const { compactNeighbour } = await distModule<typeof Compact>('sources/live/compact.js');
  if (side === 'ours') {
    const { loadConfig } = await distModule<typeof Config>('sources/live/config.js');
    const { Transport } = await distModule<typeof TransportModule>('sources/live/transport.js');
    return async () => {
      const transport = new Transport(loadConfig({ kubeconfig, requestTimeoutMs: 0, asGroups: [], insecureSkipTlsVerify: false }, {}), { pageSize });
      try {
        return await transport.list<V1Pod>({ path: '/api/v1/pods', what: 'listing every pod' }, { reduce: compactNeighbour });
      } finally {
        transport.close();
      }
    };
  }
  if (side === 'client-node') {
    const { CoreV1Api, KubeConfig } = await import('@kubernetes/client-node');
    return async () => {
      const config = new KubeConfig();
      config.loadFromFile(kubeconfig);
      const api = config.makeApiClient(CoreV1Api);
      const kept: V1Pod[] = [];
      let token: string | undefined;
      do {
        const page = await api.listPodForAllNamespaces({ limit: pageSize, ...(token ? { _continue: token } : {}) });
        for (const pod of page.items) kept.push(compactNeighbour(pod));
        token = page.metadata?._continue || undefined;
      } while (token);
      return kept;
    };
  }
  if (side === 'undici') {
    const { Agent, fetch } = createRequire(libraries)('undici') as Undici;
    return async () => {
      const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 8 });
      const kept: V1Pod[] = [];
      let token: string | undefined;
      do {
        const query = new URLSearchParams({ limit: String(pageSize), ...(token ? { continue: token } : {}) });
        const res = await fetch(`${server}/api/v1/pods?${query.toString()}`, { dispatcher, headers: { accept: 'application/json' } });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const page = (await res.json()) as { items: V1Pod[]; metadata?: { continue?: string } };
        for (const pod of page.items) kept.push(compactNeighbour(pod));
        token = page.metadata?.continue || undefined;
      } while (token);
      await dispatcher.close();
      return kept;
    };
  }
  throw new Error(`unknown side ${side}`);
}

await runSide(load, (pods) => {
  const names = pods.map((p) => p.metadata?.name ?? '');
  return { items: pods.length, names: createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 16) };
});
