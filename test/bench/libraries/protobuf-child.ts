// One side of "protobuf decoding", in a process of its own (measure.ts): pages of pods (or
// nodes) in the apiserver's protobuf encoding, read one page at a time as a live read gets
// them, every item's record kept. `ours` is src/sources/live/protobuf/ (straight into the
// records compactNeighbour / compactNode keep). `protobufjs` is protobufjs with Kubernetes'
// generated.proto: the envelope and the list decoded whole, each item turned into the JSON
// shape by the schema's reflection (times, quantities, int-or-strings, inlined structs;
// managedFields not converted, since the record drops them) and cut by compact.ts as a JSON page
// is. `protobufjs-decode` is the decoding alone, nothing kept: the least a replacement would cost.
// Plain node (type stripping): the build's JavaScript and the cached library, by path.
//   node protobuf-child.ts ours|protobufjs|protobufjs-decode pods|nodes PAGES_DIR DIST LIBRARIES API_DIR APIMACHINERY_DIR
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type * as Compact from '../../../src/sources/live/compact.js';
import type * as Envelope from '../../../src/sources/live/protobuf/envelope.js';
import type * as ChildStats from './child-stats.js';

// Plain node runs this file (type stripping): a sibling .ts module is loaded by its URL.
const { report } = (await import(new URL('./child-stats.ts', import.meta.url).href)) as typeof ChildStats;
const [side, kind, pagesDir, dist, libraries, apiDir, apimachineryDir] = process.argv.slice(2);
if (!pagesDir || !dist || !libraries || !apiDir || !apimachineryDir || (kind !== 'pods' && kind !== 'nodes')) {
  throw new Error('usage: protobuf-child.ts ours|protobufjs|protobufjs-decode pods|nodes PAGES_DIR DIST LIBRARIES API_DIR APIMACHINERY_DIR');
}
const pages = readdirSync(pagesDir)
  .filter((f) => f.startsWith(`${kind}-`))
  .sort()
  .map((f) => path.join(pagesDir, f));

type Json = Record<string, unknown>;
interface PbField {
  name: string;
  long: boolean;
  map: boolean;
  repeated: boolean;
  resolvedType: PbType | null;
}
interface PbType {
  fullName: string;
  fields: Record<string, PbField>;
  decode(bytes: Uint8Array): Json;
}
interface PbRoot {
  resolvePath: (origin: string, target: string) => string | null;
  loadSync(files: string[], options: { keepCase: boolean }): PbRoot;
  resolveAll(): PbRoot;
  lookupType(name: string): PbType;
}
type Long = { toNumber(): number };

const meta = '.k8s.io.apimachinery.pkg.apis.meta.v1';
const inlined = new Set(['.k8s.io.api.core.v1.VolumeSource', '.k8s.io.api.core.v1.ProbeHandler', '.k8s.io.api.core.v1.EphemeralContainerCommon', '.k8s.io.api.core.v1.PersistentVolumeSource']);
const number = (v: unknown): number => (typeof v === 'number' ? v : (v as Long).toNumber());

/** How a field's value becomes JSON. */
interface FieldPlan {
  shape: 'plain' | 'long' | 'time' | 'quantity' | 'intOrString' | 'inlined' | 'message';
  map: boolean;
  repeated: boolean;
  type: PbType | null;
}

/** Each type's fields, sorted out once (reflection's fullName is computed on every read). */
const plans = new Map<PbType, Map<string, FieldPlan>>();
function planOf(type: PbType): Map<string, FieldPlan> {
  let plan = plans.get(type);
  if (plan) return plan;
  plan = new Map();
  for (const [name, field] of Object.entries(type.fields)) {
    const sub = field.resolvedType;
    const full = sub?.fullName;
    const shape: FieldPlan['shape'] = !sub
      ? field.long
        ? 'long'
        : 'plain'
      : full === `${meta}.Time` || full === `${meta}.MicroTime`
        ? 'time'
        : full === '.k8s.io.apimachinery.pkg.api.resource.Quantity'
          ? 'quantity'
          : full === '.k8s.io.apimachinery.pkg.util.intstr.IntOrString'
            ? 'intOrString'
            : inlined.has(full ?? '')
              ? 'inlined'
              : 'message';
    plan.set(name, { shape, map: field.map, repeated: field.repeated, type: sub });
  }
  plans.set(type, plan);
  return plan;
}

function valueOf(field: FieldPlan, value: unknown): unknown {
  switch (field.shape) {
    case 'plain':
      return value;
    case 'long':
      return number(value);
    case 'time':
      return new Date(number((value as Json)['seconds'] ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    case 'quantity':
      return (value as Json)['string'];
    case 'intOrString':
      return number((value as Json)['type'] ?? 0) === 1 ? (value as Json)['strVal'] : (value as Json)['intVal'];
    default:
      return toJson(field.type as PbType, value as Json);
  }
}

/** A decoded message in the JSON shape: the fields it holds, empty lists and maps left out, as JSON's omitempty. */
function toJson(type: PbType, message: Json): Json {
  const plan = planOf(type);
  const out: Json = {};
  for (const key of Object.keys(message)) {
    const field = plan.get(key);
    const value = message[key];
    if (!field || value === undefined || value === null || key === 'managedFields') continue;
    if (field.shape === 'inlined') {
      Object.assign(out, toJson(field.type as PbType, value as Json));
    } else if (field.map) {
      const entries = Object.entries(value as Json);
      if (entries.length > 0) out[key] = Object.fromEntries(entries.map(([k, v]) => [k, valueOf(field, v)]));
    } else if (field.repeated) {
      if ((value as unknown[]).length > 0) out[key] = (value as unknown[]).map((v) => valueOf(field, v));
    } else {
      out[key] = valueOf(field, value);
    }
  }
  return out;
}

/** What a side does with one page: its items' names, once read. */
type Reader = (bytes: Buffer) => string[];

async function load(): Promise<Reader> {
  const distModule = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(dist as string, file)).href)) as T;
  if (side === 'ours') {
    const { neighbourPodPages, nodePages } = await distModule<typeof Envelope>('sources/live/protobuf/envelope.js');
    const decode = kind === 'pods' ? neighbourPodPages() : nodePages();
    const kept: unknown[] = [];
    return (bytes) => {
      const { items } = decode(bytes);
      kept.push(...items);
      return items.map((i) => i.metadata?.name ?? '');
    };
  }
  const pb = createRequire(libraries as string)('protobufjs') as { Root: new () => PbRoot };
  const root = new pb.Root();
  root.resolvePath = (_origin, target) =>
    target.startsWith('k8s.io/apimachinery/') ? path.join(apimachineryDir as string, target.slice('k8s.io/apimachinery/'.length)) : target.startsWith('k8s.io/api/') ? path.join(apiDir as string, target.slice('k8s.io/api/'.length)) : target;
  root.loadSync(['k8s.io/api/core/v1/generated.proto', 'k8s.io/apimachinery/pkg/runtime/generated.proto'], { keepCase: true }).resolveAll();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const list = root.lookupType(kind === 'pods' ? 'k8s.io.api.core.v1.PodList' : 'k8s.io.api.core.v1.NodeList');
  const item = root.lookupType(kind === 'pods' ? 'k8s.io.api.core.v1.Pod' : 'k8s.io.api.core.v1.Node');
  const decode = (bytes: Buffer) => list.decode(unknown.decode(bytes.subarray(4))['raw'] as Uint8Array)['items'] as Json[];
  const nameOf = (i: Json) => String((i['metadata'] as Json | undefined)?.['name'] ?? '');
  if (side === 'protobufjs-decode') return (bytes) => decode(bytes).map(nameOf);
  if (side !== 'protobufjs') throw new Error(`unknown side ${side}`);
  const { compactNeighbour, compactNode } = await distModule<typeof Compact>('sources/live/compact.js');
  const kept: unknown[] = [];
  return (bytes) =>
    decode(bytes).map((message) => {
      const json = toJson(item, message);
      kept.push(kind === 'pods' ? compactNeighbour(json as V1Pod) : compactNode(json as V1Node));
      return nameOf(message);
    });
}

const read = await load();
const loaded = performance.now();
const names: string[] = [];
for (const page of pages) names.push(...read(readFileSync(page)));
const done = performance.now();
report(loaded, done, { items: names.length, names: createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 16) });
