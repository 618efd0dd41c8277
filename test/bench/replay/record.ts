// Records what why-pending reads for the measured cases from a live cluster, as served: every
// collection the tool can GET (snapshot/types.ts apiResources: pods, nodes, events, namespaces,
// policies, classes... most of them empty on the benchmark's cluster, some not served at all),
// paged with limit 500, each item's JSON text and, for pods and nodes (which the tool asks for
// in protobuf), each item's protobuf bytes; /version, /api and /apis. The first page of each
// encoding is put together again from its items and compared with what was served (fidelity).
import { rmSync } from 'node:fs';
import { apiResources } from '../../../src/snapshot/types.js';
import type { Endpoint } from './endpoint.js';
import { selectableFields } from './fields.js';
import { jsonList, jsonObject, partialMetadataItem, splitJsonList, type ListMeta } from './json-items.js';
import { objectMetaSpans, protobufList, splitProtobufList } from './protobuf-list.js';
import { CollectionWriter, writeManifest, type Manifest, type RecordedCollection } from './store.js';

const protobufMediaType = 'application/vnd.kubernetes.protobuf';
const partialMetadata = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
/** Collections read in protobuf by the tool (sources/live/cuts.ts): recorded in both encodings. */
const inProtobuf = new Set(['pods', 'nodes']);

type Obj = Record<string, unknown>;

interface Page {
  meta: ListMeta;
  items: Buffer[];
  served: Buffer;
}

/** Every page of a LIST, one after another; undefined when the collection is not served (404). */
async function* pages(endpoint: Endpoint, path: string, accept: string, split: (body: Buffer) => Omit<Page, 'served'>, first: Record<string, string> = {}): AsyncGenerator<Page | undefined> {
  let token: string | undefined;
  do {
    const answer = await endpoint.get(path, { limit: '500', ...(token ? { continue: token } : first) }, accept);
    if (answer.status === 404 && token === undefined) {
      yield undefined;
      return;
    }
    if (answer.status !== 200) throw new Error(`GET ${path} (${accept}): HTTP ${answer.status}: ${answer.body.toString('utf8', 0, 300)}`);
    const page = split(answer.body);
    yield { ...page, served: answer.body };
    token = page.meta.continue;
  } while (token);
}

function compare(what: string, served: Buffer, rebuilt: Buffer): Manifest['fidelity'][number] {
  if (served.equals(rebuilt)) return { what, identical: true };
  let at = 0;
  while (at < served.length && served[at] === rebuilt[at]) at++;
  const around = (b: Buffer) => JSON.stringify(b.toString('latin1', Math.max(0, at - 40), at + 40));
  return { what, identical: false, detail: `first difference at byte ${at} of ${served.length} served (${rebuilt.length} rebuilt): served ${around(served)}, rebuilt ${around(rebuilt)}` };
}

export interface RecordOptions {
  dir: string;
  from: string;
  cases: Manifest['cases'];
  say: (line: string) => void;
}

export async function record(endpoint: Endpoint, options: RecordOptions): Promise<Manifest> {
  const { dir, say } = options;
  rmSync(dir, { recursive: true, force: true });
  const manifest: Manifest = { recordedAt: new Date().toISOString(), from: options.from, nodes: 0, pods: 0, boundPods: 0, cases: options.cases, collections: {}, documents: {}, fidelity: [] };
  for (const path of ['/version', '/api', '/apis']) {
    const answer = await endpoint.get(path);
    if (answer.status === 200) manifest.documents[path] = answer.body.toString('utf8');
  }
  const seen = new Set<string>();
  for (const [collection, r] of Object.entries(apiResources)) {
    const root = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
    const path = `${root}/${r.plural}`;
    if (seen.has(path)) continue;
    seen.add(path);
    const name = r.plural + (r.group ? `.${r.group}` : '');
    const writer = new CollectionWriter(dir, name);
    const recorded: RecordedCollection = { group: r.group, version: r.version, plural: r.plural, kind: r.kind, namespaced: r.namespaced, served: true, resourceVersion: '', count: 0, protobuf: false };
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    let first: Page | undefined;
    const caseItems = new Map<string, Buffer>();
    for await (const page of pages(endpoint, path, 'application/json', splitJsonList)) {
      if (!page) {
        recorded.served = false;
        break;
      }
      if (!first) {
        first = page;
        recorded.resourceVersion = page.meta.resourceVersion;
        manifest.fidelity.push(compare(`${name}: first JSON page`, page.served, jsonList(`${r.kind}List`, apiVersion, page.meta, page.items)));
      }
      for (const item of page.items) {
        const object = JSON.parse(item.toString('utf8')) as Obj;
        const meta = (object['metadata'] ?? {}) as { name?: string; namespace?: string; uid?: string; labels?: Record<string, string> };
        const key = meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
        if (collection === 'pods' && options.cases.some((c) => `${c.namespace}/${c.name}` === key)) caseItems.set(key, Buffer.from(item));
        writer.addJson({ key, ...(meta.namespace ? { namespace: meta.namespace } : {}), name: meta.name ?? '', uid: meta.uid ?? '', fields: selectableFields(r.kind, object), labels: meta.labels ?? {} }, item);
      }
      if (writer.entries.size % 10_000 < 500) say(`  ${name}: ${writer.entries.size} in JSON`);
    }
    if (recorded.served && inProtobuf.has(collection)) {
      // The same resourceVersion as the JSON read, so that both encodings hold the same objects.
      const exact = { resourceVersion: recorded.resourceVersion, resourceVersionMatch: 'Exact' };
      let firstProtobuf = true;
      let count = 0;
      for await (const page of pages(endpoint, path, protobufMediaType, splitProtobufList, exact)) {
        if (!page) throw new Error(`${name}: served in JSON, not in protobuf`);
        if (firstProtobuf) {
          firstProtobuf = false;
          manifest.fidelity.push(compare(`${name}: first protobuf page`, page.served, protobufList(`${r.kind}List`, apiVersion, page.meta, page.items)));
        }
        for (const item of page.items) {
          const spans = objectMetaSpans(item);
          const text = (s: { start: number; end: number } | undefined) => (s ? item.toString('utf8', s.start, s.end) : '');
          const ns = text(spans.namespace);
          writer.addProtobuf(ns ? `${ns}/${text(spans.name)}` : text(spans.name), item);
          count++;
        }
      }
      if (count !== writer.entries.size) throw new Error(`${name}: ${writer.entries.size} items in JSON, ${count} in protobuf`);
      recorded.protobuf = true;
      say(`  ${name}: ${count} in protobuf too`);
    }
    if (collection === 'namespaces' && first) {
      const answer = await endpoint.get(path, { limit: '500' }, partialMetadata);
      const served = splitJsonList(answer.body);
      manifest.fidelity.push(compare(`${name}: first metadata-only page`, answer.body, jsonList('PartialObjectMetadataList', 'meta.k8s.io/v1', served.meta, first.items.map(partialMetadataItem))));
    }
    if (collection === 'pods') {
      for (const c of options.cases) {
        const key = `${c.namespace}/${c.name}`;
        const answer = await endpoint.get(`${root}/namespaces/${c.namespace}/pods/${c.name}`);
        const item = caseItems.get(key);
        if (answer.status !== 200 || !item) throw new Error(`case (${c.id}): pod ${key} not found`);
        manifest.fidelity.push(compare(`pod ${key}: GET`, answer.body, jsonObject('Pod', 'v1', item)));
      }
    }
    recorded.count = writer.entries.size;
    if (collection === 'pods') manifest.boundPods = [...writer.entries.values()].filter((e) => e.fields['spec.nodeName'] !== '').length;
    writer.close();
    manifest.collections[name] = recorded;
  }
  manifest.nodes = manifest.collections['nodes']?.count ?? 0;
  manifest.pods = manifest.collections['pods']?.count ?? 0;
  writeManifest(dir, manifest);
  return manifest;
}
