// Runs every triage scenario under test/triage-scenarios/: each folder holds a dump
// (cluster.yaml, or `dump:` naming another folder's) and expected.yaml: the scope (a namespace,
// or every namespace; a -l selector) and the groups expected, largest first, each with its
// cause, owners and pods. A new case is a new folder.
import { describe, expect, it } from 'vitest';
import { parseSelector } from '../src/cli/selector.js';
import { triage, type TriageScope } from '../src/engine/triage.js';
import { ruleSet } from '../src/messages/registry.js';
import { reportTriageHuman } from '../src/report/triage/human.js';
import { triageEntry } from '../src/report/triage/group.js';
import { presentTriage } from '../src/report/triage/present.js';
import { readDump } from '../src/sources/dump/read.js';
import { folderNames, readScenario, triageScenariosRoot as root } from './support/scenario-folders.js';
import { expectValidTriage } from './support/schema.js';

interface ExpectedGroup {
  cause: Record<string, unknown>;
  /** `Kind/name xN`, or `no owner xN`, most pods first. */
  owners: string[];
  /** Pod names (namespace/name when the scope is every namespace), in order. */
  pods: string[];
  /** How many confirmed fixes the group offers, when checked. */
  fixes?: number;
}

interface Expected {
  description: string;
  scope: { namespace?: string; selector?: string };
  groups: ExpectedGroup[];
  json?: Record<string, unknown>;
  contains?: string[];
  absent?: string[];
  dump?: string;
}

const folders = folderNames(root);

describe.each(folders)('triage scenario %s', (folder) => {
  const { expected, dump } = readScenario<Expected>(root, folder);

  it(expected.description.split('. ')[0] ?? folder, async () => {
    const snapshot = await readDump(dump, process.stdin);
    const scope: TriageScope = {
      ...(expected.scope.namespace !== undefined ? { namespace: expected.scope.namespace } : {}),
      ...(expected.scope.selector !== undefined ? { selector: parseSelector(expected.scope.selector) } : {}),
    };
    const doc = presentTriage({ scope, source: snapshot.source, ...triage(ruleSet, snapshot, scope, triageEntry) });
    const json = JSON.parse(JSON.stringify(doc)) as unknown;
    expectValidTriage(json);
    const all = expected.scope.namespace === undefined;
    const got = doc.groups.map((g) => ({
      cause: Object.fromEntries(Object.entries(g.cause).filter(([k]) => k in (expected.groups[doc.groups.indexOf(g)]?.cause ?? {}))),
      owners: g.owners.map((o) => `${o.owner ? `${o.owner.kind}/${o.owner.name}` : 'no owner'} x${o.pods}`),
      pods: g.pods.map((p) => (all ? `${p.pod.namespace}/${p.pod.name}` : p.pod.name)),
      ...(expected.groups[doc.groups.indexOf(g)]?.fixes !== undefined ? { fixes: g.fixes.length } : {}),
    }));
    expect(got).toEqual(expected.groups);
    // Each pod entry's stage is the stage its group's cause names.
    for (const g of doc.groups) for (const p of g.pods) expect(p.stage).toBe(g.cause.stage);
    if (expected.json) expect(json).toMatchObject(expected.json);
    let text = '';
    reportTriageHuman(doc, { write: (s) => void (text += s), color: false });
    for (const c of expected.contains ?? []) expect(text).toContain(c);
    for (const a of expected.absent ?? []) expect(text).not.toContain(a);
  });
});
