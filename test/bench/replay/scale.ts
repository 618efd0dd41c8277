// Scaling a recording by renaming: the bound pods are copied into new namespaces whose names
// have the length of the originals (`team-07` -> `tean-07`), each copy's uid changed by one hex
// digit, so that every string keeps its length and the protobuf bytes need no length written
// again: the copies are the recorded bytes with a few bytes overwritten in place, in both
// encodings. Nodes stay as recorded, so each node holds more pods. So that the measured cases
// keep the answers they were recorded with, a copy requests nothing (the digits of its
// containers' requests become zeros, "450m" -> "000m", "384Mi" -> "000Mi"): every node keeps
// the free cpu case (d) asks just above, no node fails case (e) on cpu or memory before its
// anti-affinity, and neither fails on memory, which copies that kept their requests would fill
// at ten times the pods. Labels are kept: a copy of a pod that case (e)'s anti-affinity matches
// matches it too. What bounds the factor is a node's pod count (110 pods allocatable here).
import { objectEnd } from './json-items.js';
import { objectMetaSpans, requestSpans } from './protobuf-list.js';
import type { LoadedItem } from './store.js';

const letters = 'abcdefghijklmnopqrstuvwxyz';

/** The name of copy `copy` (1, 2, ...) of namespace `ns`: one letter changed, not one in `taken`. */
export function renamedNamespace(ns: string, copy: number, taken: ReadonlySet<string>): string {
  const at = Math.min(3, ns.length - 1);
  const from = Math.max(0, letters.indexOf(ns[at] ?? 'a'));
  for (let step = copy; step < copy + letters.length; step++) {
    const name = `${ns.slice(0, at)}${letters[(from + step) % letters.length] ?? 'a'}${ns.slice(at + 1)}`;
    if (name !== ns && !taken.has(name)) return name;
  }
  throw new Error(`no free name for copy ${copy} of namespace ${ns}`);
}

/** The uid of copy `copy`: its first hex digit moved on by `copy`. */
export function renamedUid(uid: string, copy: number): string {
  const digit = parseInt(uid[0] ?? '0', 16);
  if (Number.isNaN(digit)) throw new Error(`uid ${uid} does not start with a hex digit`);
  return ((digit + copy) % 16).toString(16) + uid.slice(1);
}

function overwrite(bytes: Buffer, at: number, text: string): void {
  const written = bytes.write(text, at, 'utf8');
  if (written !== Buffer.byteLength(text)) throw new Error('overwrite past the end');
}

/** Overwrites the first `"key":"from"` of a JSON item with `to` (the same length). */
function replaceJsonMember(json: Buffer, key: string, from: string, to: string): void {
  if (from.length !== to.length) throw new Error(`${key}: "${from}" and "${to}" differ in length`);
  const at = json.indexOf(`"${key}":${JSON.stringify(from)}`);
  if (at < 0) throw new Error(`no "${key}":"${from}" in the item`);
  overwrite(json, at + key.length + 4, to);
}

const zeroDigits = (bytes: Buffer, start: number, end: number) => {
  for (let i = start; i < end; i++) if ((bytes[i] as number) >= 0x30 && (bytes[i] as number) <= 0x39) bytes[i] = 0x30;
};

/**
 * Each request's digits become zeros, in the JSON text: the members of spec's `"requests":{...}`
 * objects (a ResourceList: names to quantity strings, nothing nested). The kubectl annotation
 * holds the manifest escaped (`\"requests\":{`) and managedFields write `"f:requests"`: neither matches.
 */
function zeroRequestsJson(json: Buffer): number {
  let count = 0;
  for (let at = json.indexOf('"requests":{'); at >= 0; at = json.indexOf('"requests":{', at + 1)) {
    const open = at + '"requests":'.length;
    const end = objectEnd(json, open);
    // `"name":"quantity"` members: each value is the string after a `":"`.
    let member = json.indexOf('":"', open);
    while (member >= 0 && member < end) {
      const valueEnd = json.indexOf('"', member + 3);
      zeroDigits(json, member + 3, valueEnd);
      count++;
      member = json.indexOf('":"', valueEnd + 1);
    }
  }
  return count;
}

function zeroRequestsProtobuf(pb: Buffer): number {
  const spans = requestSpans(pb);
  for (const s of spans) zeroDigits(pb, s.start, s.end);
  return spans.length;
}

/** A copy of a recorded pod in namespace `ns` with the uid of copy `copy`, requesting nothing. */
export function copyPod(pod: LoadedItem, ns: string, copy: number): LoadedItem {
  const original = pod.namespace ?? '';
  const uid = renamedUid(pod.uid, copy);
  const json = Buffer.from(pod.json);
  replaceJsonMember(json, 'namespace', original, ns);
  replaceJsonMember(json, 'uid', pod.uid, uid);
  const requestsJson = zeroRequestsJson(json);
  let protobuf: Buffer | undefined;
  if (pod.protobuf) {
    protobuf = Buffer.from(pod.protobuf);
    const spans = objectMetaSpans(protobuf);
    if (!spans.namespace || !spans.uid || protobuf.toString('utf8', spans.namespace.start, spans.namespace.end) !== original) throw new Error(`${pod.key}: no namespace or uid in its protobuf`);
    overwrite(protobuf, spans.namespace.start, ns);
    overwrite(protobuf, spans.uid.start, uid);
    if (zeroRequestsProtobuf(protobuf) !== requestsJson) throw new Error(`${pod.key}: ${requestsJson} requests in JSON, another count in protobuf`);
  }
  return { ...pod, key: `${ns}/${pod.name}`, namespace: ns, uid, fields: { ...pod.fields, 'metadata.namespace': ns }, json, ...(protobuf ? { protobuf } : {}) };
}

/** A copy of a recorded Namespace under another name (its name and its metadata.name label). */
function copyNamespace(item: LoadedItem, name: string, copy: number): LoadedItem {
  const uid = renamedUid(item.uid, copy);
  const json = Buffer.from(item.json.toString('utf8').split(JSON.stringify(item.name)).join(JSON.stringify(name)).replace(`"uid":"${item.uid}"`, `"uid":"${uid}"`));
  const labels = Object.fromEntries(Object.entries(item.labels).map(([k, v]) => [k, v === item.name ? name : v]));
  return { ...item, key: name, name, uid, labels, fields: { ...item.fields, 'metadata.name': name }, json };
}

export interface Scaled {
  pods: LoadedItem[];
  namespaces: LoadedItem[];
  copies: number;
  renamed: Map<string, string[]>;
}

/**
 * Adds copies of the bound pods (not those of `keep`: the pending pods measured) until there are
 * `factor` times as many: whole rounds of copies, then every k-th pod of each namespace for the
 * fraction left, spread evenly over the namespaces in the order the apiserver lists them.
 */
export function scale(pods: readonly LoadedItem[], namespaces: readonly LoadedItem[], factor: number, keep: ReadonlySet<string>): Scaled {
  const bound = pods.filter((p) => p.fields['spec.nodeName'] !== '' && !keep.has(p.namespace ?? ''));
  const taken = new Set(namespaces.map((n) => n.name));
  const renamed = new Map<string, string[]>();
  const nameOf = (ns: string, copy: number): string => {
    const names = renamed.get(ns) ?? [];
    renamed.set(ns, names);
    while (names.length < copy) {
      const next = renamedNamespace(ns, names.length + 1, taken);
      taken.add(next);
      names.push(next);
    }
    return names[copy - 1] ?? '';
  };
  const added: LoadedItem[] = [];
  for (let copy = 1; copy < factor; copy++) {
    const fraction = Math.min(1, factor - copy);
    bound.forEach((pod, i) => {
      if (Math.floor((i + 1) * fraction) > Math.floor(i * fraction)) added.push(copyPod(pod, nameOf(pod.namespace ?? '', copy), copy));
    });
  }
  const newNamespaces = [...renamed].flatMap(([ns, names]) => {
    const original = namespaces.find((n) => n.name === ns);
    if (!original) throw new Error(`namespace ${ns} of recorded pods is not in the namespaces recorded`);
    return names.map((name, i) => copyNamespace(original, name, i + 1));
  });
  const byKey = (a: LoadedItem, b: LoadedItem) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return { pods: [...pods, ...added].sort(byKey), namespaces: [...namespaces, ...newNamespaces].sort(byKey), copies: added.length, renamed };
}
