// Scenario folders (test/scenarios/<name>/, test/triage-scenarios/<name>/): each holds
// expected.yaml and the dump it is about, cluster.yaml unless expected.yaml's `dump:` names
// another (a path from the folder). One reading of that convention for every test that walks them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { resolve } from '../../src/engine/target.js';
import type { Snapshot } from '../../src/snapshot/types.js';
import { readDump } from '../../src/sources/dump/read.js';

export const scenariosRoot = path.join(import.meta.dirname, '..', 'scenarios');
export const triageScenariosRoot = path.join(import.meta.dirname, '..', 'triage-scenarios');

/** The folder names under `root`, sorted. */
export function folderNames(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** A folder's expected.yaml, and the path of the dump it is about. */
export function readScenario<T extends { dump?: string }>(root: string, folder: string): { dir: string; expected: T; dump: string } {
  const dir = path.join(root, folder);
  const expected = parse(readFileSync(path.join(dir, 'expected.yaml'), 'utf8')) as T;
  return { dir, expected, dump: path.resolve(dir, expected.dump ?? 'cluster.yaml') };
}

/** A scenario's dump, and the pod its query names (undefined when the query names no pending pod: an owner without pods, a pod not found). */
export async function scenarioPod(root: string, folder: string): Promise<{ snapshot: Snapshot; pod: V1Pod } | undefined> {
  const { expected, dump } = readScenario<{ query: { namespace: string; name: string }; dump?: string }>(root, folder);
  const snapshot = await readDump(dump, process.stdin);
  const found = resolve(snapshot, expected.query);
  return found.found === 'pod' ? { snapshot, pod: found.pod } : undefined;
}
