// --redact-names: namespaces, pods, the owners of pods and nodes get stable pseudonyms
// (`ns-1`, `pod-3`, `deployment-1`, `node-12`), the same name always the same pseudonym within a
// capture, so that groups, counts and near misses still show. Labels, taints and tolerations
// stay as they are: their characters are the diagnosis. A name is replaced wherever the engine
// would match it against another: object names and namespaces, owner references, a pod's node
// and nominated node, node-name fields (`matchFields` on metadata.name, ResourceSlices,
// NodeClaims, the selected-node annotation), affinity terms' namespace lists and
// `kubernetes.io/metadata.name` selectors, a generic ephemeral volume's claim (`<pod>-<volume>`),
// the pods a claim is reserved for or a budget saw disrupted; and, word by word, in event
// messages and conditions, where the scheduler and kubelets write names into text.
import { readAnnotations } from '../../engine/annotations.js';
import { byText } from '../../engine/order.js';
import { isOwnerKind } from '../../snapshot/types.js';
import { isObject } from '../object.js';

type Json = Record<string, unknown>;

/** The kinds of name replaced, each with its own numbering. */
export type NameKind = 'namespace' | 'node' | 'pod' | 'owner';

const metadataNameLabel = 'kubernetes.io/metadata.name';
/** What a name may be made of (a DNS subdomain); anything else ends a word in a message. */
const wordBreak = /([^A-Za-z0-9.-]+)/;

/** Namespaces every cluster has: they name nothing of the user's, and stories look for them by name. */
const wellKnownNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/**
 * Pseudonyms in two passes: the first collects every name (returning it unchanged), `freeze`
 * numbers each kind's names in their sorted order, zero-padded (`node-03`), and the second pass
 * renames. Sorted so, pseudonyms keep the order of the names they replace, and every choice
 * the engine makes by name order (nodes listed, a gang's members placed one after another)
 * is the same.
 */
export class Pseudonyms {
  private collecting = true;
  private readonly seen = new Map<string, Set<string>>();
  private readonly maps = new Map<string, Map<string, string>>();
  private readonly counters = new Map<string, number>();
  /** Every real name to its pseudonym, whatever its kind: for names inside text. */
  private readonly inText = new Map<string, string>();

  /** The pseudonym of `name` (its own name while collecting); `prefix` numbers owners by their kind. */
  name(kind: NameKind, name: string, prefix: string = kind === 'namespace' ? 'ns' : kind): string {
    if (name === '' || (kind === 'namespace' && wellKnownNamespaces.has(name))) return name;
    if (this.collecting) {
      const names = this.seen.get(prefix) ?? new Set<string>();
      this.seen.set(prefix, names);
      names.add(name);
      return name;
    }
    const map = this.maps.get(prefix) ?? new Map<string, string>();
    this.maps.set(prefix, map);
    const known = map.get(name);
    if (known !== undefined) return known;
    // A name the first pass did not meet: numbered after the others.
    const n = (this.counters.get(prefix) ?? map.size) + 1;
    this.counters.set(prefix, n);
    return this.assign(map, prefix, name, `${prefix}-${n}`);
  }

  private assign(map: Map<string, string>, prefix: string, name: string, made: string): string {
    map.set(name, made);
    if (!this.inText.has(name)) this.inText.set(name, made);
    return made;
  }

  /** Ends the first pass: each kind's names numbered in sorted order. */
  freeze(): void {
    this.collecting = false;
    for (const [prefix, names] of this.seen) {
      const sorted = [...names].sort(byText);
      const width = String(sorted.length).length;
      const map = new Map<string, string>();
      this.maps.set(prefix, map);
      sorted.forEach((name, i) => this.assign(map, prefix, name, `${prefix}-${String(i + 1).padStart(width, '0')}`));
    }
  }

  /**
   * A name that is a node's where it is one (a node-local driver's device pool, a CSI driver's
   * node ID): the node's pseudonym; any other name is kept.
   */
  pool(name: string): string {
    if (this.collecting) return name;
    return this.maps.get('node')?.get(name) ?? name;
  }

  /** An owner's pseudonym (snapshot/types.ts's owner kinds), numbered by its kind (`deployment-2`); other kinds keep their names. */
  owner(kind: string | undefined, name: string): string {
    return kind !== undefined && isOwnerKind(kind) ? this.name('owner', name, kind.toLowerCase()) : name;
  }

  /** `text` with every word that is a known name replaced: `shop/web-0` -> `ns-1/pod-1`. */
  text(text: string): string {
    if (this.collecting) return text;
    return text
      .split(wordBreak)
      .map((word, i) => {
        if (i % 2 === 1 || word === '') return word;
        const direct = this.inText.get(word);
        if (direct !== undefined) return direct;
        // A name at the end of a sentence: `... to node-a.`
        const trimmed = word.replace(/\.+$/, '');
        const found = trimmed !== word ? this.inText.get(trimmed) : undefined;
        return found !== undefined ? found + word.slice(trimmed.length) : word;
      })
      .join('');
  }

  /** Every name replaced and its pseudonym (never written: the capture's reader must not know them). */
  pairs(): [string, string][] {
    return [...this.maps.values()].flatMap((map) => [...map.entries()]);
  }

  /** How many names were replaced. */
  count(): number {
    return this.inText.size;
  }
}

function renameField(object: unknown, field: string, rename: (value: string) => string): void {
  if (isObject(object) && typeof object[field] === 'string') object[field] = rename(object[field]);
}

/** A list of names (a requirement's values, a term's namespaces) renamed; what is not a string kept. */
function renameEach(list: unknown[], rename: (value: string) => string): unknown[] {
  return list.map((v) => (typeof v === 'string' ? rename(v) : v));
}

/** `matchFields` on metadata.name (a DaemonSet pod's pin, a device's node selector) names nodes. */
function renameNodeFields(value: unknown, names: Pseudonyms): void {
  if (Array.isArray(value)) {
    for (const item of value) renameNodeFields(item, names);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'matchFields' && Array.isArray(inner)) {
      for (const req of inner) {
        if (isObject(req) && req['key'] === 'metadata.name' && Array.isArray(req['values'])) req['values'] = renameEach(req['values'], (v) => names.name('node', v));
      }
    } else renameNodeFields(inner, names);
  }
}

/** Affinity terms name namespaces in `namespaces` and through the kubernetes.io/metadata.name label. */
function renameAffinityNamespaces(value: unknown, names: Pseudonyms): void {
  if (Array.isArray(value)) {
    for (const item of value) renameAffinityNamespaces(item, names);
    return;
  }
  if (!isObject(value)) return;
  if (Array.isArray(value['namespaces'])) value['namespaces'] = renameEach(value['namespaces'], (n) => names.name('namespace', n));
  const selector = value['namespaceSelector'];
  if (isObject(selector)) {
    const labels = selector['matchLabels'];
    if (isObject(labels) && typeof labels[metadataNameLabel] === 'string') labels[metadataNameLabel] = names.name('namespace', labels[metadataNameLabel]);
    for (const req of Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : []) {
      if (isObject(req) && req['key'] === metadataNameLabel && Array.isArray(req['values'])) req['values'] = renameEach(req['values'], (v) => names.name('namespace', v));
    }
  }
  for (const inner of Object.values(value)) if (isObject(inner) || Array.isArray(inner)) renameAffinityNamespaces(inner, names);
}

function renameMetadata(metadata: unknown, names: Pseudonyms, own: NameKind | 'owned' | undefined, kind: string): void {
  if (!isObject(metadata)) return;
  renameField(metadata, 'namespace', (n) => names.name('namespace', n));
  if (own === 'owned') renameField(metadata, 'name', (n) => names.owner(kind, n));
  else if (own) renameField(metadata, 'name', (n) => names.name(own, n));
  for (const ref of Array.isArray(metadata['ownerReferences']) ? metadata['ownerReferences'] : []) {
    if (!isObject(ref)) continue;
    const refKind = typeof ref['kind'] === 'string' ? ref['kind'] : undefined;
    // A CSINode is owned by its Node.
    renameField(ref, 'name', (n) => (refKind === 'Node' ? names.name('node', n) : names.owner(refKind, n)));
  }
  const annotations = metadata['annotations'];
  renameField(annotations, readAnnotations.selectedNode, (n) => names.name('node', n));
}

/**
 * A pod's generic ephemeral volumes' claims, `<namespace>/<pod>-<volume>`, each with its name
 * once the pod is renamed (`pod-3-<volume>`): the engine finds the claim by that name.
 */
export function ephemeralClaims(pod: Json, names: Pseudonyms): [string, string][] {
  const metadata = isObject(pod['metadata']) ? pod['metadata'] : {};
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
  const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
  return (Array.isArray(spec['volumes']) ? spec['volumes'] : []).flatMap((v) =>
    isObject(v) && v['ephemeral'] !== undefined && typeof v['name'] === 'string' ? [[`${namespace}/${name}-${v['name']}`, `${names.name('pod', name)}-${v['name']}`] as [string, string]] : [],
  );
}

/** Names inside an object's texts (its status message, its conditions' messages): once every name is known. */
export function renameTexts(object: Json, names: Pseudonyms): void {
  const status = object['status'];
  if (!isObject(status)) return;
  renameField(status, 'message', (t) => names.text(t));
  for (const c of Array.isArray(status['conditions']) ? status['conditions'] : []) renameField(c, 'message', (t) => names.text(t));
}

/**
 * Renames, in place, the names in an object of the snapshot's collection `collection` (already
 * redacted: a new object). `claims` maps a generic ephemeral volume's claim name to its new one.
 */
export function renameObject(collection: string, kind: string, object: Json, names: Pseudonyms, claims: ReadonlyMap<string, string>): void {
  const own: NameKind | 'owned' | undefined =
    collection === 'pods' ? 'pod' : collection === 'nodes' || collection === 'csiNodes' ? 'node' : collection === 'namespaces' ? 'namespace' : isOwnerKind(kind) ? 'owned' : undefined;
  const metadata = object['metadata'];
  // A generic ephemeral volume's claim, looked up by its namespace before that is renamed.
  if (collection === 'persistentVolumeClaims' && isObject(metadata)) renameField(metadata, 'name', (n) => claims.get(`${String(metadata['namespace'] ?? 'default')}/${n}`) ?? n);
  renameMetadata(metadata, names, own, kind);
  if (collection === 'namespaces' && isObject(metadata)) renameField(metadata['labels'], metadataNameLabel, (n) => names.name('namespace', n));
  const spec = object['spec'];
  const status = object['status'];
  if (collection === 'pods') {
    renameField(spec, 'nodeName', (n) => names.name('node', n));
    renameField(status, 'nominatedNodeName', (n) => names.name('node', n));
  }
  if (collection === 'persistentVolumes' && isObject(spec) && isObject(spec['claimRef'])) {
    const ref = spec['claimRef'];
    renameField(ref, 'name', (n) => claims.get(`${String(ref['namespace'] ?? 'default')}/${n}`) ?? n);
    renameField(ref, 'namespace', (n) => names.name('namespace', n));
  }
  if (collection === 'resourceSlices') {
    renameField(spec, 'nodeName', (n) => names.name('node', n));
    if (isObject(spec)) renameField(spec['pool'], 'name', (n) => names.pool(n));
  }
  if (collection === 'csiNodes' && isObject(spec)) for (const d of Array.isArray(spec['drivers']) ? spec['drivers'] : []) renameField(d, 'nodeID', (n) => names.pool(n));
  if (collection === 'deviceTaintRules' && isObject(spec)) renameField(spec['deviceSelector'], 'pool', (n) => names.pool(n));
  if (collection === 'resourceClaims' && isObject(status)) {
    const devices = isObject(status['allocation']) ? status['allocation']['devices'] : undefined;
    for (const result of isObject(devices) && Array.isArray(devices['results']) ? devices['results'] : []) renameField(result, 'pool', (n) => names.pool(n));
    for (const r of Array.isArray(status['reservedFor']) ? status['reservedFor'] : []) if (isObject(r) && r['resource'] === 'pods') renameField(r, 'name', (n) => names.name('pod', n));
  }
  if (collection === 'nodeClaims') renameField(status, 'nodeName', (n) => names.name('node', n));
  if (collection === 'podDisruptionBudgets' && isObject(status) && isObject(status['disruptedPods'])) {
    status['disruptedPods'] = Object.fromEntries(Object.entries(status['disruptedPods']).map(([pod, at]) => [names.name('pod', pod), at]));
  }
  renameNodeFields(spec, names);
  renameNodeFields(status, names);
  renameAffinityNamespaces(spec, names);
}

/** An event's involved object renamed by its kind (its message is renamed apart, once every name is known). */
export function renameInvolved(involved: { kind: string; namespace: string; name: string }, names: Pseudonyms): { kind: string; namespace: string; name: string } {
  const namespace = names.name('namespace', involved.namespace);
  const { kind } = involved;
  const name =
    kind === 'Pod' ? names.name('pod', involved.name) : kind === 'Node' ? names.name('node', involved.name) : kind === 'Namespace' ? names.name('namespace', involved.name) : names.owner(kind, involved.name);
  return { ...involved, namespace, name };
}
