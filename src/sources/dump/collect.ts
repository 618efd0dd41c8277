// Sorts a dump's objects into the snapshot's collections, each object once. A folder may hold
// the same dump twice (as YAML and as JSON), or two captures of one cluster: counting a node
// twice would double its pods' requests and show negative free CPU. An object is known by its
// kind, namespace and name (events by uid, else namespace and name); of several versions the
// newest is kept, and what was dropped is told in the snapshot's notes.
import { InputError } from '../../errors.js';
import { emptyCollections, toTime, type CollectionName, type Collections, type SourceNote } from '../../snapshot/types.js';
import { sortObject, type Located } from './objects.js';
import { slim } from './slim.js';
import { isObject } from '../object.js';

interface Version {
  resourceVersion?: string;
  uid?: string;
  created?: number;
  where: string;
  /** The object as kept, compared whole only when neither copy has a resourceVersion. */
  value: unknown;
}

interface Held extends Version {
  collection: CollectionName;
  ref: { kind: string; namespace?: string; name: string };
  dropped: Version[];
}

/**
 * A copy that shares nothing with the text it was parsed from. A parser's strings may be
 * slices of its input, and one kept slice keeps the whole text of the object alive
 * (managedFields and all): kept objects would cost several times what they hold.
 */
function detach<T>(value: T, where: string): T {
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    // The one value JSON cannot hold that a parser gives: YAML's alias to an enclosing anchor.
    throw new InputError(`${where}: the object contains itself (a YAML alias inside its own anchor); write the value out in full`);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

/** The same version of the object: same uid, and the same resourceVersion (or, with none, the same content). */
function sameVersion(a: Version, b: Version): boolean {
  if (a.uid !== b.uid) return false;
  if (a.resourceVersion !== undefined || b.resourceVersion !== undefined) return a.resourceVersion === b.resourceVersion;
  return sameValue(a.value, b.value);
}

const decimal = /^\d+$/;

/**
 * Whether `later` (read after `earlier`) is the newer version. resourceVersions are opaque to
 * clients, but every API server in use writes etcd's revision as a decimal: compared as numbers
 * when both are; otherwise the copy read last wins. Two objects of one name and different uids
 * are two lives of it: the one created last wins.
 */
function isNewer(later: Version, earlier: Version): boolean {
  if (later.uid !== undefined && earlier.uid !== undefined && later.uid !== earlier.uid) {
    if (later.created !== undefined && earlier.created !== undefined && later.created !== earlier.created) return later.created > earlier.created;
  }
  const a = later.resourceVersion;
  const b = earlier.resourceVersion;
  if (a !== undefined && b !== undefined && decimal.test(a) && decimal.test(b)) {
    const diff = BigInt(a) - BigInt(b);
    if (diff !== 0n) return diff > 0n;
  }
  return true;
}

export class Collector {
  private readonly held = new Map<string, Held>();
  private repeats = 0;
  private unnamedEvents = 0;

  add(found: Located): void {
    const sorted = sortObject(found);
    if (!sorted) return;
    const { where } = found;
    const kind = found.object['kind'] as string;
    if (sorted.collection !== 'events') slim(kind, found.object);
    const raw = isObject(found.object['metadata']) ? found.object['metadata'] : {};
    const identity = { namespace: raw['namespace'], name: raw['name'], uid: raw['uid'], resourceVersion: raw['resourceVersion'], creationTimestamp: raw['creationTimestamp'] };
    const { value, metadata } = detach({ value: sorted.value, metadata: identity }, where);
    const namespace = text(metadata.namespace);
    const name = text(metadata.name) ?? '';
    const uid = text(metadata.uid);
    const resourceVersion = text(metadata.resourceVersion);
    const created = toTime(text(metadata.creationTimestamp));
    const version: Version = {
      where,
      value,
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      // An event is known by its uid: the uid is then its key, not a second life of a name.
      ...(uid !== undefined && kind !== 'Event' ? { uid } : {}),
      ...(created !== undefined ? { created } : {}),
    };
    let key: string;
    if (kind !== 'Event') key = `${kind}/${namespace ?? ''}/${name}`;
    else if (uid !== undefined) key = `Event/uid/${uid}`;
    else if (name !== '') key = `Event/${namespace ?? ''}/${name}`;
    else key = `Event/unnamed/${this.unnamedEvents++}`;

    const held = this.held.get(key);
    if (!held) {
      this.held.set(key, { ...version, collection: sorted.collection, ref: { kind, ...(namespace !== undefined ? { namespace } : {}), name }, dropped: [] });
      return;
    }
    if (sameVersion(held, version) || held.dropped.some((d) => sameVersion(d, version))) {
      this.repeats++;
      return;
    }
    if (isNewer(version, held)) {
      held.dropped.push(versionOf(held));
      Object.assign(held, { resourceVersion: undefined, uid: undefined, created: undefined }, version);
    } else held.dropped.push(versionOf(version));
  }

  finish(): { collections: Collections; notes: SourceNote[] } {
    const collections = emptyCollections();
    const notes: SourceNote[] = [];
    if (this.repeats > 0) notes.push({ kind: 'repeatedObjects', count: this.repeats });
    for (const held of this.held.values()) {
      (collections[held.collection] as unknown[]).push(held.value);
      if (held.dropped.length === 0) continue;
      notes.push({
        kind: 'conflictingVersions',
        object: held.ref,
        kept: located(held),
        dropped: held.dropped.map(located),
      });
    }
    return { collections, notes };
  }
}

/** A dropped version: its content is kept only while it is what tells repeats apart. */
function versionOf(held: Version): Version {
  const { where, value, resourceVersion, uid, created } = held;
  return { where, value: resourceVersion === undefined ? value : undefined, ...(resourceVersion !== undefined ? { resourceVersion } : {}), ...(uid !== undefined ? { uid } : {}), ...(created !== undefined ? { created } : {}) };
}

function located(version: Version): { resourceVersion?: string; where: string } {
  return { ...(version.resourceVersion !== undefined ? { resourceVersion: version.resourceVersion } : {}), where: version.where };
}
