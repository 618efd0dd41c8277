// A plugin whose PreFilter returns Skip (no host ports, no claims, no spread constraints...)
// is not filtered on any node, as in the scheduler. Proof that a Skip never changes an answer:
// every scenario folder is diagnosed with the rules as they are and with their Skips ignored
// (each rule then filters every node, and its own early return must give the same), and the
// two diagnoses must be the same. The judge's side: a skipped rule's filter is never called,
// and a Skip drawn from a gap is not taken.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { buildContext } from '../../src/engine/context.js';
import { judge } from '../../src/engine/judge.js';
import type { PreFilterOutcome, RuleContext } from '../../src/engine/model.js';
import type { ReasonDetail, Rule, RuleSet } from '../../src/engine/reasons.js';
import type { PluginName } from '../../src/engine/names.js';
import { ruleSet } from '../../src/messages/registry.js';
import { present } from '../../src/report/present.js';
import { readDump } from '../../src/sources/dump/read.js';
import { emptyCollections, type Snapshot } from '../../src/snapshot/types.js';
import { node, pod } from '../support/builders.js';
import { folderNames, readScenario, scenariosRoot } from '../support/scenario-folders.js';

const folders = folderNames(scenariosRoot);

/** The registry's rules with each PreFilter outcome passed through `wrap`. */
type Outcome = PreFilterOutcome<PluginName, ReasonDetail>;

function withPreFilter(wrap: (outcome: Outcome) => Outcome): RuleSet {
  return {
    ...ruleSet,
    rules: ruleSet.rules.map((rule) => {
      const { preFilter } = rule;
      return preFilter ? { ...rule, preFilter: (ctx: RuleContext) => wrap(preFilter(ctx)) } : rule;
    }),
  };
}

let skipsTaken = 0;
const counting = withPreFilter((outcome) => {
  if (outcome.skip) skipsTaken++;
  return outcome;
});
const ignoringSkips = withPreFilter(({ skip: _, ...rest }) => rest);

describe('a PreFilter Skip gives the same diagnosis as filtering every node', () => {
  for (const folder of folders) {
    it(folder, async () => {
      const { expected, dump: file } = readScenario<{ query: { namespace: string; name: string }; dump?: string }>(scenariosRoot, folder);
      const snapshot = await readDump(file, process.stdin);
      const a = diagnose(counting, snapshot, expected.query);
      // Read again: node facts and rule states are kept per read, and this run must build its own.
      const b = diagnose(ignoringSkips, await readDump(file, process.stdin), expected.query);
      const json = (o: typeof a) => JSON.stringify(o.kind === 'diagnosis' ? present(o.diagnosis) : o);
      expect(json(a)).toBe(json(b));
    });
  }
  // Not a vacuous comparison: most folders' pods skip several plugins.
  it('Skips taken in the folders', () => expect(skipsTaken).toBeGreaterThan(folders.length * 3));
});

describe('the judge and a Skip', () => {
  const filterCalls: string[] = [];
  const skipping: Rule = {
    meta: { name: 'NodePorts', kinds: ['hostPortInUse'] },
    needs: () => ['pods'],
    preFilter: () => ({ skip: true }),
    filter: (_ctx, n) => {
      filterCalls.push(n.name);
      return [];
    },
  };
  const snapshotWith = (gaps: Snapshot['gaps']): Snapshot => ({
    source: { kind: 'dump', description: 'test' },
    objects: { ...emptyCollections(), nodes: [node('n1').obj(), node('n2').obj()], pods: [] },
    gaps,
  });

  it('never calls a skipped rule on a node', () => {
    filterCalls.length = 0;
    const snapshot = snapshotWith([]);
    const judgement = judge([skipping], buildContext(snapshot, pod('p').obj()));
    expect(filterCalls).toEqual([]);
    expect(judgement.nodes.map((n) => n.verdict)).toEqual(['fits', 'fits']);
    expect(judgement.notChecked).toEqual([]);
  });

  it('does not take a Skip drawn from a gap: the rule runs, and is not checked', () => {
    filterCalls.length = 0;
    const snapshot = snapshotWith([{ collection: 'pods', cause: 'absentFromDump' }]);
    const judgement = judge([skipping], buildContext(snapshot, pod('p').obj()));
    expect(filterCalls).toEqual(['n1', 'n2']);
    expect(judgement.nodes.map((n) => n.verdict)).toEqual(['unproven', 'unproven']);
  });
});
