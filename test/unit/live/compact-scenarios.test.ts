// The live reader cuts every pod bound to another node (compactNeighbour) and every listed node
// (compactNode, the NodeRecord type) to what the engine reads of it. Proof that it cuts nothing
// read: every scenario folder is diagnosed twice, once from its dump as written and once with
// its neighbour pods and nodes cut as a live read cuts them, and the two diagnoses (JSON and
// human report) must be the same. A triage reads bound pods the same way (readTriage.ts): every
// folder is triaged twice too, its pending pods whole, the others cut.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/engine/diagnose.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { reportHuman } from '../../../src/report/human/index.js';
import { present } from '../../../src/report/present.js';
import { readDump } from '../../../src/sources/dump/read.js';
import { compactNeighbour, compactNode } from '../../../src/sources/live/compact.js';
import type { Snapshot } from '../../../src/snapshot/types.js';
import { triage } from '../../../src/engine/triage.js';
import { triageEntry } from '../../../src/report/triage/group.js';
import { presentTriage } from '../../../src/report/triage/present.js';
import { folderNames, readScenario, scenariosRoot, triageScenariosRoot } from '../../support/scenario-folders.js';

const folders = folderNames(scenariosRoot);

function outcomeOf(snapshot: Snapshot, query: { namespace: string; name: string }): { json: string; human: string } {
  const outcome = diagnose(ruleSet, snapshot, query);
  if (outcome.kind !== 'diagnosis') return { json: JSON.stringify(outcome), human: '' };
  let human = '';
  reportHuman(outcome.diagnosis, { write: (s) => (human += s), color: false, columns: 200 }, { wide: true });
  return { json: JSON.stringify(present(outcome.diagnosis)), human };
}

describe('neighbour pods and nodes cut as a live read cuts them give the same diagnosis', () => {
  let cutPods = 0;
  let cutNodes = 0;
  for (const folder of folders) {
    it(folder, async () => {
      const { expected, dump: file } = readScenario<{ query: { namespace: string; name: string }; dump?: string }>(scenariosRoot, folder);
      const whole = await readDump(file, process.stdin);
      const cut = await readDump(file, process.stdin);
      // The pod asked about is read whole (a GET of its own); so is every unbound pod.
      const isTarget = (p: V1Pod) => p.metadata?.name === expected.query.name && (p.metadata?.namespace ?? 'default') === expected.query.namespace;
      cut.objects.pods = cut.objects.pods.map((p) => {
        if (!p.spec?.nodeName || isTarget(p)) return p;
        cutPods++;
        return compactNeighbour(p);
      });
      cut.objects.nodes = cut.objects.nodes.map((n) => (cutNodes++, compactNode(n)));
      const a = outcomeOf(whole, expected.query);
      const b = outcomeOf(cut, expected.query);
      expect(b.json).toBe(a.json);
      expect(b.human).toBe(a.human);
    });
  }
  // Not a vacuous comparison: the folders hold bound pods of every kind the stories read.
  it('cut pods in the folders', () => expect(cutPods).toBeGreaterThan(200));
  it('cut nodes in the folders', () => expect(cutNodes).toBeGreaterThan(300));
});

describe('bound pods and nodes cut as a triage\'s read cuts them give the same triage', () => {
  let cutPods = 0;
  // Every folder, the single pod's too: a triage of it diagnoses its pending pods the same way.
  for (const [root, folder] of [triageScenariosRoot, scenariosRoot].flatMap((r) => folderNames(r).map((f) => [r, f] as const))) {
    it(`${root === scenariosRoot ? 'scenarios' : 'triage-scenarios'}/${folder}`, async () => {
      const { dump: file } = readScenario(root, folder);
      const whole = await readDump(file, process.stdin);
      const cut = await readDump(file, process.stdin);
      // The pending pods are read whole (the first LIST, status.phase=Pending); bound ones are cut.
      cut.objects.pods = cut.objects.pods.map((p) => {
        if (!p.spec?.nodeName || (p.status?.phase ?? 'Pending') === 'Pending') return p;
        cutPods++;
        return compactNeighbour(p);
      });
      cut.objects.nodes = cut.objects.nodes.map(compactNode);
      const of = (snapshot: Snapshot) => JSON.stringify(presentTriage({ scope: {}, source: snapshot.source, ...triage(ruleSet, snapshot, {}, triageEntry) }));
      expect(of(cut)).toBe(of(whole));
    });
  }
  // Gangs' scheduled members among them: their group is what the triage counts.
  it('cut pods in the folders', () => expect(cutPods).toBeGreaterThan(200));
});
