// The inputs every pair reads, made once per run from one cluster as served (served.ts): 50,000
// pods on 5,000 nodes. Each side of a pair reads the same bytes.
// - JSON pages of a paged LIST of every pod (500 a page, as the apiserver writes a PodList, its
//   continue token in the list's metadata), gzipped at the apiserver's level (1): servers.ts
//   serves them;
// - the first 20,000 pods and every node in protobuf pages of 500 (k8s-proto.ts);
// - two captures of the pods and nodes as the live reader keeps them (compact.ts), packed as a
//   capture is (src/sources/capture/tar.ts's packTarGz, what write.ts writes), one JSON List per
//   collection, one object per line: every node and 200 pods (as bench:live's case (a) writes
//   one), and every node and pod (as case (d) does);
// - one pod's JSON, for the proxy's GETs.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { packTarGz, sizeOfPieces } from '../../../src/sources/capture/tar.js';
import { compactNeighbour, compactNode } from '../../../src/sources/live/compact.js';
import { encoder, type ProtoDirs } from './k8s-proto.js';
import { servedNodes, servedPods } from './served.js';

export const cluster = { pods: 50_000, nodes: 5_000, protobufPods: 20_000, pageSize: 500 };

export interface Inputs {
  /** page-NNNN.json.gz: the JSON LIST's pages. */
  jsonPages: string;
  /** pods-NNNN.pb and nodes-NNNN.pb: protobuf pages. */
  protobufPages: string;
  captures: { what: string; file: string; gz: number; tar: number }[];
  podFile: string;
  /** Bytes of the LIST's JSON, uncompressed, and of the protobuf pages of pods. */
  jsonBytes: number;
  protobufPodBytes: number;
}

const pad = (n: number) => String(n).padStart(4, '0');

function listJson(items: readonly string[], next: number | undefined, remaining: number): string {
  const metadata = { resourceVersion: '123456', ...(next !== undefined ? { continue: String(next), remainingItemCount: remaining } : {}) };
  return `{"kind":"PodList","apiVersion":"v1","metadata":${JSON.stringify(metadata)},"items":[${items.join(',')}]}`;
}

export async function writeInputs(work: string, libraries: string, dirs: ProtoDirs, say: (line: string) => void): Promise<Inputs> {
  const jsonPages = path.join(work, 'json-pages');
  const protobufPages = path.join(work, 'protobuf-pages');
  mkdirSync(jsonPages, { recursive: true });
  mkdirSync(protobufPages, { recursive: true });
  const encode = encoder(libraries, dirs);
  const podLines: string[] = [];
  let json: string[] = [];
  let protobuf: Record<string, unknown>[] = [];
  let jsonBytes = 0;
  let protobufPodBytes = 0;
  let j = 0;
  const podFile = path.join(work, 'pod.json');
  for await (const pod of servedPods(cluster.pods, cluster.nodes)) {
    const text = JSON.stringify(pod);
    if (j === 0) writeFileSync(podFile, text);
    json.push(text);
    if (j < cluster.protobufPods) protobuf.push(pod);
    podLines.push(JSON.stringify(compactNeighbour(pod as V1Pod)));
    j++;
    if (json.length === cluster.pageSize || j === cluster.pods) {
      const page = Math.ceil(j / cluster.pageSize) - 1;
      const body = listJson(json, j < cluster.pods ? page + 1 : undefined, cluster.pods - j);
      jsonBytes += Buffer.byteLength(body);
      writeFileSync(path.join(jsonPages, `page-${pad(page)}.json.gz`), gzipSync(body, { level: 1 }));
      json = [];
    }
    if (protobuf.length === cluster.pageSize) {
      const page = Math.ceil(j / cluster.pageSize) - 1;
      const bytes = encode.page('PodList', protobuf, j < cluster.protobufPods ? String(page + 1) : undefined);
      protobufPodBytes += bytes.length;
      writeFileSync(path.join(protobufPages, `pods-${pad(page)}.pb`), bytes);
      protobuf = [];
    }
    if (j % 10_000 === 0) say(`  ${j} pods`);
  }
  const nodeLines: string[] = [];
  let nodes: Record<string, unknown>[] = [];
  let i = 0;
  for await (const node of servedNodes(cluster.nodes)) {
    nodes.push(node);
    nodeLines.push(JSON.stringify(compactNode(node as V1Node)));
    i++;
    if (nodes.length === cluster.pageSize) {
      const page = i / cluster.pageSize - 1;
      writeFileSync(path.join(protobufPages, `nodes-${pad(page)}.pb`), encode.page('NodeList', nodes, i < cluster.nodes ? String(page + 1) : undefined));
      nodes = [];
    }
  }
  // A capture's files, as write.ts lays them out (its manifest is not read by either side here).
  const list = (lines: readonly string[]) => Buffer.from(`{"apiVersion":"v1","kind":"List","items":[\n${lines.join(',\n')}\n]}\n`);
  const captures = [
    { what: 'every node and 200 pods', name: 'capture-a.tar.gz', pods: podLines.slice(0, 200) },
    { what: 'every node and pod', name: 'capture-d.tar.gz', pods: podLines },
  ].map(({ what, name, pods }) => {
    const files = [
      { path: 'case/manifest.json', pieces: [Buffer.from(JSON.stringify({ apiVersion: 'why-pending/v1', kind: 'Capture', collections: { pods: pods.length, nodes: nodeLines.length } }))] },
      { path: 'case/nodes.json', pieces: [list(nodeLines)] },
      { path: 'case/pods.json', pieces: [list(pods)] },
    ];
    const file = path.join(work, name);
    const gz = packTarGz(files, new Date('2026-12-01T00:00:00Z'));
    writeFileSync(file, gz);
    return { what, file, gz: gz.length, tar: files.reduce((sum, f) => sum + sizeOfPieces(f.pieces), 0) };
  });
  return { jsonPages, protobufPages, captures, podFile, jsonBytes, protobufPodBytes };
}
