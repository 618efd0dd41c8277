// Whole dumps as mutable data, for the property tests that change one field at a time
// (test/unit/malformed-dump.test.ts, test/unit/hostile-report.test.ts): a scenario's objects,
// every path into the kinds the engine reads, and the query to diagnose.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** Kinds the engine reads; others are ignored by the dump reader whatever their shape. */
const readKinds = new Set(['Pod', 'Node', 'Event', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSINode', 'ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'LimitRange', 'ResourceQuota', 'PriorityClass', 'ConfigMap', 'NodePool', 'NodeClaim']);

export type PathStep = string | number;

export interface DumpCase {
  name: string;
  items: Record<string, unknown>[];
  /** Every field, list item and map entry of the objects of read kinds (kind and apiVersion aside). */
  paths: { item: number; steps: PathStep[] }[];
  query: { namespace: string; name: string };
}

export const REMOVE = Symbol('remove');

function pathsOf(value: unknown, prefix: PathStep[], out: PathStep[][]): void {
  // managedFields are read only through optional lookups; their depths would drown the rest.
  if (prefix.includes('managedFields') && prefix.length > 4) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i]);
      pathsOf(item, [...prefix, i], out);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (prefix.length === 0 && (key === 'kind' || key === 'apiVersion')) continue;
      out.push([...prefix, key]);
      pathsOf(item, [...prefix, key], out);
    }
  }
}

/**
 * A scenario folder under test/scenarios, or `every-field`: test/support/every-field.yaml, a dump
 * that sets every field the engine reads, so that every field can be mutated.
 */
export function loadCase(name: string): DumpCase {
  const root = path.join(import.meta.dirname, '..');
  const dir = path.join(root, 'scenarios', name);
  const expected =
    name === 'every-field'
      ? { query: { namespace: 'lab', name: 'app-0' }, dump: path.join(root, 'support', 'every-field.yaml') }
      : (parse(readFileSync(path.join(dir, 'expected.yaml'), 'utf8')) as { query: { namespace: string; name: string }; dump?: string });
  // The List of objects; a capture may follow it with the cluster's version, which holds no field to mutate.
  const [list] = parseAllDocuments(readFileSync(path.resolve(dir, expected.dump ?? 'cluster.yaml'), 'utf8'));
  const dump = list?.toJS() as { items: Record<string, unknown>[] };
  const paths: DumpCase['paths'] = [];
  dump.items.forEach((object, item) => {
    if (!readKinds.has(object['kind'] as string)) return;
    const found: PathStep[][] = [];
    pathsOf(object, [], found);
    for (const steps of found) paths.push({ item, steps });
  });
  return { name, items: dump.items, paths, query: expected.query };
}

export function valueAt(root: unknown, steps: PathStep[]): unknown {
  let value = root;
  for (const step of steps) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

/** Sets (or, with REMOVE, deletes) the value at `steps`; nothing when an earlier change cut the path. */
export function setAt(root: unknown, steps: PathStep[], value: unknown): void {
  const parent = valueAt(root, steps.slice(0, -1));
  if (typeof parent !== 'object' || parent === null) return;
  const container = parent as Record<string | number, unknown>;
  const last = steps[steps.length - 1] as PathStep;
  if (value === REMOVE) {
    if (Array.isArray(container)) container.splice(last as number, 1);
    else delete container[last];
  } else container[last] = structuredClone(value); // fc.constant({}) is one object: never share it
}

/** Renames the map key at `steps` (keeping its value), when the parent is a map. */
export function renameAt(root: unknown, steps: PathStep[], key: string): void {
  const parent = valueAt(root, steps.slice(0, -1));
  const last = steps[steps.length - 1];
  if (typeof parent !== 'object' || parent === null || Array.isArray(parent) || typeof last !== 'string') return;
  const map = parent as Record<string, unknown>;
  const value = map[last];
  delete map[last];
  map[key] = value;
}
