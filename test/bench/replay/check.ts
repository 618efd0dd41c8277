// What makes a replayed figure count: the tool's answer checked as bench:live checks it (every
// node counted, none fitting, the first failing plugin of each node as the case says, agreement
// with the scheduler's recorded message), and the renamed copies checked through the project's
// own readers: a copy served in protobuf decodes (protobuf/envelope.ts) to exactly the record
// the JSON copy cuts to (compact.ts), and that record is the original's but for its namespace,
// its uid and its requests. And the server's paging, through the project's own transport:
// a collection read in small pages (its continue tokens, found early in each page's head, as
// the tool finds them) gives exactly the items of one unpaged read, in JSON and in protobuf.
import { isDeepStrictEqual } from 'node:util';
import type { V1Pod } from '@kubernetes/client-node';
import { compactNeighbour, compactNode } from '../../../src/sources/live/compact.js';
import { loadConfig } from '../../../src/sources/live/config.js';
import { liveOptionsFrom } from '../../../src/sources/live/flags.js';
import { decodePodList, neighbourPodPages, nodePages } from '../../../src/sources/live/protobuf/envelope.js';
import { Transport } from '../../../src/sources/live/transport.js';
import type { NodeRecord } from '../../../src/snapshot/types.js';
import type { BenchCase } from '../live/cases.js';
import type { ReplayServer } from './serve.js';

export interface Answer {
  counts: { nodes: number; fitting: number; byFirstPlugin: Record<string, number> };
  scheduler: { agrees: boolean | null };
}

export function checkAnswer(k: BenchCase, stdout: string, cluster: Parameters<BenchCase['byFirstPlugin']>[0]): Answer {
  const json = JSON.parse(stdout) as Answer;
  const got = Object.fromEntries(Object.entries(json.counts.byFirstPlugin).filter(([, n]) => n > 0));
  const want = Object.fromEntries(Object.entries(k.byFirstPlugin(cluster)).filter(([, n]) => n > 0));
  if (json.counts.nodes !== cluster.nodes || json.counts.fitting !== 0 || !isDeepStrictEqual(Object.entries(got).sort(), Object.entries(want).sort())) {
    throw new Error(`case (${k.id}): wrong answer: ${JSON.stringify(json.counts)}, expected ${cluster.nodes} nodes, none fitting, byFirstPlugin ${JSON.stringify(want)}`);
  }
  if (json.scheduler.agrees !== true) throw new Error(`case (${k.id}): the diagnosis does not agree with the scheduler's message`);
  return json;
}

const zeroDigits = (q: string) => q.replace(/[0-9]/g, '0');

/** The record a copy must decode to: the original's, renamed, its requests zero. */
function expectedCopy(original: V1Pod, copy: V1Pod): V1Pod {
  const expected = structuredClone(original);
  if (expected.metadata) {
    expected.metadata.namespace = copy.metadata?.namespace ?? '';
    expected.metadata.uid = copy.metadata?.uid ?? '';
  }
  for (const c of [...(expected.spec?.containers ?? []), ...(expected.spec?.initContainers ?? [])]) {
    const requests = c.resources?.requests as Record<string, string> | undefined;
    for (const [name, quantity] of Object.entries(requests ?? {})) if (requests) requests[name] = zeroDigits(quantity);
  }
  return expected;
}

/** Checks up to `perNamespace` copies in each of two renamed namespaces; says how many were checked. */
export async function checkRenamed(server: ReplayServer, perNamespace = 20): Promise<number> {
  let checked = 0;
  const namespaceList = JSON.parse((await server.get('/api/v1/namespaces')).toString('utf8')) as { items: { metadata: { name: string; labels?: Record<string, string> } }[] };
  for (const [original, names] of Object.entries(server.renamed).slice(0, 2)) {
    for (const ns of names) {
      const listed = namespaceList.items.find((n) => n.metadata.name === ns);
      if (listed?.metadata.labels?.['kubernetes.io/metadata.name'] !== ns) throw new Error(`namespace ${ns} is not listed with its name label`);
      if (ns.length !== original.length) throw new Error(`namespace ${ns} is not as long as ${original}`);
      const path = `/api/v1/namespaces/${ns}/pods?limit=${perNamespace}`;
      const fromJson = (JSON.parse((await server.get(path)).toString('utf8')) as { items: V1Pod[] }).items.map((p) => compactNeighbour(p));
      const fromProtobuf = decodePodList(await server.get(path, 'application/vnd.kubernetes.protobuf')).items;
      if (fromJson.length === 0 || fromJson.length !== fromProtobuf.length) throw new Error(`${path}: ${fromJson.length} pods in JSON, ${fromProtobuf.length} in protobuf`);
      for (const [i, copy] of fromProtobuf.entries()) {
        const name = copy.metadata?.name ?? '';
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(copy)), JSON.parse(JSON.stringify(fromJson[i])))) throw new Error(`${ns}/${name}: the protobuf copy decodes to another record than the JSON copy`);
        const originalPod = compactNeighbour(JSON.parse((await server.get(`/api/v1/namespaces/${original}/pods/${name}`)).toString('utf8')) as V1Pod);
        if (originalPod.metadata?.uid === copy.metadata?.uid || copy.metadata?.uid?.length !== originalPod.metadata?.uid?.length) throw new Error(`${ns}/${name}: the uid is not renamed in place`);
        const want = expectedCopy(originalPod, copy);
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(copy)), JSON.parse(JSON.stringify(want)))) throw new Error(`${ns}/${name}: the copy is not the original renamed: ${JSON.stringify(copy).slice(0, 400)}`);
        checked++;
      }
    }
  }
  return checked;
}

/**
 * Reads the pods of `path` (or, `nodes`, every node) in pages of `pageSize` and in one page, in
 * both encodings, as the tool reads them; says how many pages the paged reads took.
 */
export async function checkPaging(server: ReplayServer, path: string, what: 'pods' | 'nodes', pageSize = 37): Promise<number> {
  const config = loadConfig(liveOptionsFrom({ kubeconfig: server.kubeconfig }), {});
  const read = async (size: number, protobuf: boolean): Promise<{ keys: string[]; pages: number }> => {
    const transport = new Transport(config, { pageSize: size });
    try {
      const request = { path, what: `reading ${path}` };
      const items: { metadata?: { namespace?: string; name?: string; uid?: string } }[] =
        what === 'pods'
          ? await transport.list<V1Pod>({ ...request, query: { fieldSelector: 'spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed' }, ...(protobuf ? { decodeProtobuf: neighbourPodPages() } : {}) }, { reduce: compactNeighbour })
          : await transport.list<NodeRecord>({ ...request, ...(protobuf ? { decodeProtobuf: nodePages() } : {}) }, { reduce: compactNode });
      return { keys: items.map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}/${p.metadata?.uid ?? ''}`), pages: transport.sent.length };
    } finally {
      transport.close();
    }
  };
  const whole = await read(1_000_000, false);
  let pages = 0;
  for (const protobuf of [false, true]) {
    const paged = await read(pageSize, protobuf);
    if (!isDeepStrictEqual(paged.keys, whole.keys)) throw new Error(`${path} read in pages of ${pageSize} (${protobuf ? 'protobuf' : 'JSON'}): ${paged.keys.length} items, not the ${whole.keys.length} of one page, or not in their order`);
    if (paged.pages !== Math.max(1, Math.ceil(whole.keys.length / pageSize))) throw new Error(`${path}: ${paged.pages} pages of ${pageSize} for ${whole.keys.length} items`);
    pages += paged.pages;
  }
  return pages;
}
