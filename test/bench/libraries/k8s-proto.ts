// Kubernetes' own protobuf schema (the generated.proto files of k8s.io/api and
// k8s.io/apimachinery, at the versions the e2e control plane builds) loaded by protobufjs, and
// pages of pods and nodes encoded with it as an apiserver serves them: "k8s\0", then a
// runtime.Unknown whose `raw` is the PodList or NodeList. The JSON objects are mapped onto the
// schema by its reflection: times become meta/v1 Time, quantities Quantity, an int-or-string
// IntOrString, managedFields' fieldsV1 its Raw JSON bytes, and a struct the JSON inlines
// (a Volume's source, a Probe's handler) the field the schema gives it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

type Json = Record<string, unknown>;

export interface ProtoDirs {
  api: string;
  apimachinery: string;
}

/** What this file uses of protobufjs's reflection (its index.d.ts). */
interface PbField {
  name: string;
  repeated: boolean;
  map: boolean;
  resolvedType: PbType | null;
}
interface PbType {
  fullName: string;
  fieldsArray: PbField[];
  encode(message: object): { finish(): Uint8Array };
}
interface PbRoot {
  resolvePath: (origin: string, target: string) => string | null;
  loadSync(files: string[], options: { keepCase: boolean }): PbRoot;
  resolveAll(): PbRoot;
  lookupType(name: string): PbType;
}

const meta = '.k8s.io.apimachinery.pkg.apis.meta.v1';
/** Fields the JSON does not name: the struct is inlined (`json:",inline"`) in its parent. */
const inlined = new Set(['.k8s.io.api.core.v1.VolumeSource', '.k8s.io.api.core.v1.ProbeHandler', '.k8s.io.api.core.v1.EphemeralContainerCommon', '.k8s.io.api.core.v1.PersistentVolumeSource']);

/** The module versions the control plane pins (test/controlplane/go.mod's replace block). */
function pinned(repoRoot: string, module: string): string {
  const goMod = readFileSync(path.join(repoRoot, 'test', 'controlplane', 'go.mod'), 'utf8');
  const version = new RegExp(`^\\s*${module.replaceAll('.', '\\.')} => ${module.replaceAll('.', '\\.')} (v\\S+)`, 'm').exec(goMod)?.[1];
  if (!version) throw new Error(`test/controlplane/go.mod pins no ${module}`);
  return version;
}

/** The module's folder in Go's module cache, downloaded by `go mod download` when missing. */
function moduleDir(repoRoot: string, module: string): string {
  const version = pinned(repoRoot, module);
  try {
    const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const dir = (JSON.parse(out) as { Dir?: string }).Dir;
    if (dir && existsSync(dir)) return dir;
  } catch {
    // No go on PATH: the default module cache may still hold it.
  }
  const dir = path.join(process.env['GOMODCACHE'] ?? path.join(process.env['HOME'] ?? '', 'go', 'pkg', 'mod'), `${module}@${version}`);
  if (!existsSync(dir)) throw new Error(`${module}@${version} is not in Go's module cache and go could not download it`);
  return dir;
}

export function protoDirs(repoRoot: string): ProtoDirs {
  return { api: moduleDir(repoRoot, 'k8s.io/api'), apimachinery: moduleDir(repoRoot, 'k8s.io/apimachinery') };
}

/** core/v1 (which imports meta/v1, resource, intstr, schema) and runtime's Unknown, field names as written. */
function loadRoot(protobufjs: string, dirs: ProtoDirs): PbRoot {
  const pb = createRequire(protobufjs)('protobufjs') as { Root: new () => PbRoot };
  const root = new pb.Root();
  root.resolvePath = (_origin, target) =>
    target.startsWith('k8s.io/apimachinery/') ? path.join(dirs.apimachinery, target.slice('k8s.io/apimachinery/'.length)) : target.startsWith('k8s.io/api/') ? path.join(dirs.api, target.slice('k8s.io/api/'.length)) : target;
  return root.loadSync(['k8s.io/api/core/v1/generated.proto', 'k8s.io/apimachinery/pkg/runtime/generated.proto'], { keepCase: true }).resolveAll();
}

/** One JSON value as the schema's `type` holds it. */
function message(type: PbType, json: Json): Json {
  const out: Json = {};
  for (const field of type.fieldsArray) {
    const sub = field.resolvedType;
    if (sub && inlined.has(sub.fullName) && !(field.name in json)) {
      out[field.name] = message(sub, json);
      continue;
    }
    const value = json[field.name];
    if (value === undefined || value === null) continue;
    const one = (v: unknown): unknown => (sub && 'fieldsArray' in sub ? valueOf(sub, v) : v);
    if (field.map) out[field.name] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, one(v)]));
    else if (field.repeated) out[field.name] = (value as unknown[]).map(one);
    else out[field.name] = one(value);
  }
  return out;
}

function valueOf(type: PbType, value: unknown): unknown {
  switch (type.fullName) {
    case `${meta}.Time`:
    case `${meta}.MicroTime`: {
      const ms = Date.parse(value as string);
      return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
    }
    case '.k8s.io.apimachinery.pkg.api.resource.Quantity':
      return { string: String(value) };
    case '.k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return typeof value === 'number' ? { type: 0, intVal: value } : { type: 1, strVal: value };
    case `${meta}.FieldsV1`:
      return { Raw: Buffer.from(JSON.stringify(value)) };
    default:
      return message(type, value as Json);
  }
}

export interface Encoder {
  /** One page of a list (`kind` PodList or NodeList) as the apiserver's protobuf answer. */
  page(kind: 'PodList' | 'NodeList', items: readonly Json[], continueToken: string | undefined): Buffer;
}

export function encoder(protobufjs: string, dirs: ProtoDirs): Encoder {
  const root = loadRoot(protobufjs, dirs);
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
  return {
    page(kind, items, continueToken) {
      const list = root.lookupType(`k8s.io.api.core.v1.${kind}`);
      const raw = list.encode(message(list, { metadata: { resourceVersion: '123456', ...(continueToken ? { continue: continueToken } : {}) }, items })).finish();
      const envelope = unknown.encode({ typeMeta: { apiVersion: 'v1', kind }, raw, contentEncoding: '', contentType: 'application/vnd.kubernetes.protobuf' }).finish();
      return Buffer.concat([magic, envelope]);
    },
  };
}
