// The autoscaler's reasons beside the replay (src/engine/story/reconcile.ts): cluster-autoscaler's
// NotTriggerScaleUp reasons are the scheduler's filter messages about its node-group templates
// (mapped with the scheduler catalog, any release's wording) or its own skipped reasons
// (core/scaleup/orchestrator/skippedreasons.go); the replay counts the plugins existing nodes fail.
import { describe, expect, it } from 'vitest';
import type { NodeVerdict } from '../../../src/engine/judge.js';
import type { PluginName } from '../../../src/engine/names.js';
import { reconcile } from '../../../src/engine/story/reconcile.js';
import { ruleSet } from '../../../src/messages/registry.js';

function verdict(name: string, plugins: PluginName[]): NodeVerdict {
  return {
    name,
    fits: plugins.length === 0,
    verdict: plugins.length === 0 ? 'fits' : 'fails',
    pods: 0,
    reasons: plugins.map((plugin) => ({ plugin, code: 'Unschedulable', detail: { kind: 'x' } }) as unknown as NodeVerdict['reasons'][number]),
    unchecked: [],
  };
}

describe('reconcile', () => {
  it.each([
    {
      name: 'both name the taint: they agree; the replay also names resources',
      reasons: [{ count: 2, reason: 'node(s) had untolerated taint(s)' }],
      nodes: [verdict('a', ['TaintToleration', 'NodeResourcesFit']), verdict('b', ['NodeResourcesFit'])],
      want: { agreeOn: ['TaintToleration'], autoscalerOnly: [], replayOnly: ['NodeResourcesFit'], replay: { TaintToleration: 1, NodeResourcesFit: 2 }, fitsNow: [] },
    },
    {
      name: "an older taint wording and the selector's (v1.2x): mapped all the same; CA's own reasons named",
      reasons: [{ count: 1, reason: "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate" }, { count: 1, reason: "node(s) didn't match node selector" }, { count: 1, reason: 'in backoff after failed scale-up' }, { count: 1, reason: 'not ready for scale-up' }, { reason: 'max total nodes in cluster reached' }],
      nodes: [verdict('a', ['NodeAffinity'])],
      want: {
        reasons: [{ plugin: 'TaintToleration' }, { plugin: 'NodeAffinity' }, { own: 'backoff' }, { own: 'notReady' }, { own: 'maxTotalNodes' }],
        agreeOn: ['NodeAffinity'],
        autoscalerOnly: ['TaintToleration'],
        replayOnly: [],
      },
    },
    {
      name: 'a node fits now, and a reason in no known wording keeps no plugin',
      reasons: [{ count: 1, reason: 'node(s) were too pretty' }],
      nodes: [verdict('a', []), verdict('b', ['NodeResourcesFit'])],
      want: { fitsNow: ['a'], reasons: [{ count: 1, reason: 'node(s) were too pretty' }], agreeOn: [], autoscalerOnly: [], replayOnly: ['NodeResourcesFit'] },
    },
  ])('$name', ({ reasons, nodes, want }) => {
    expect(reconcile(ruleSet.catalog, reasons, nodes)).toMatchObject(want);
  });

  it('keeps a reason no wording matches whole, with neither plugin nor own kind', () => {
    expect(reconcile(ruleSet.catalog, [{ count: 1, reason: 'node(s) were too pretty' }], []).reasons).toEqual([{ count: 1, reason: 'node(s) were too pretty' }]);
  });
});
