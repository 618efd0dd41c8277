// Scenario folders (test/scenarios/<name>/, test/triage-scenarios/<name>/): each holds
// expected.yaml and the dump it is about, cluster.yaml unless expected.yaml's `dump:` names
// another (a path from the folder). One reading of that convention for every test that walks them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

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
