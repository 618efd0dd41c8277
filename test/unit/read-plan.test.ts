// The live planner asks the rules what they need: which nodes node objects alone rule out, and
// which PreFilters narrow the nodes before any pod is read. First with the registry's rules,
// then with made-up ones, so that a new rule is planned for by what it says, not by its name.
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Detail, FilterRule, RuleReason } from '../../src/engine/model.js';
import type { Rule } from '../../src/engine/reasons.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { CollectionName, Gap } from '../../src/snapshot/types.js';
import { candidateNodes, neededCollections } from '../../src/engine/readPlan.js';
import { node, pod, snapshotOf } from '../support/builders.js';

const nodes = [node('small').allocatable({ cpu: '1' }).obj(), node('big').obj(), node('tainted').taint('dedicated', 'gpu', 'NoSchedule').obj()];
const names = (list: V1Node[]) => list.map((n) => n.metadata?.name);

describe('candidate nodes with the registry', () => {
  const { rules } = ruleSet;

  it('rules out a node by its taint and a node too small for the request', () => {
    const p = pod('web').req({ cpu: '2' }).obj();
    expect(candidateNodes(rules, p, nodes, snapshotOf({ nodes })).names).toEqual(['big']);
  });

  it('keeps the small node when the pod asks for a host port: NodePorts needs its pods and comes first', () => {
    const p = pod('web').req({ cpu: '2' }).hostPort(8080).obj();
    expect(candidateNodes(rules, p, nodes, snapshotOf({ nodes })).names).toEqual(['small', 'big']);
  });

  it('narrows to the nodes matchFields names (NodeAffinity PreFilter)', () => {
    const p = pod('agent').matchFieldsTerm('small').obj();
    expect(candidateNodes(rules, p, nodes, snapshotOf({ nodes }))).toEqual({ names: ['small'], failsPreFilter: false });
  });

  it('every node, untouched, when the pod cannot be read into facts', () => {
    const p = pod('web').req({ cpu: 'two' }).obj();
    expect(candidateNodes(rules, p, nodes, snapshotOf({ nodes })).names).toEqual(names(nodes));
  });
});

// A made-up plugin: fails the nodes named in `fails`, needing `needs`.
function rule(name: string, needs: CollectionName[], fails: string[], extra: Partial<FilterRule<string, Detail>> = {}): Rule {
  const made: FilterRule<string, Detail> = {
    meta: { name, kinds: ['made'] },
    needs: () => needs,
    filter: (_ctx, n) => (fails.includes(n.name) ? [{ plugin: name, code: 'Unschedulable', detail: { kind: 'made' } } satisfies RuleReason<string, Detail>] : []),
    ...extra,
  };
  return made as unknown as Rule;
}

describe('candidate nodes with made-up rules', () => {
  const p = pod('web').obj();
  const snapshot = snapshotOf({ nodes });

  it('a rule that needs nothing rules nodes out', () => {
    expect(candidateNodes([rule('A', [], ['big'])], p, nodes, snapshot).names).toEqual(['small', 'tainted']);
  });

  it('a rule that needs the pods keeps only what stands without them, and ends the walk', () => {
    const podsNeeded = rule('B', ['pods'], ['small'], { provenDespiteGaps: () => false });
    const after = rule('C', [], ['big']);
    expect(candidateNodes([podsNeeded, after], p, nodes, snapshot).names).toEqual(names(nodes));
    const stands = rule('B', ['pods'], ['small'], { provenDespiteGaps: () => true });
    expect(candidateNodes([stands, after], p, nodes, snapshot).names).toEqual(['big', 'tainted']);
  });

  it('a rule that needs more than the nodes and their pods ends the walk', () => {
    expect(candidateNodes([rule('D', ['persistentVolumeClaims'], []), rule('E', [], ['big'])], p, nodes, snapshot).names).toEqual(names(nodes));
  });

  it('a narrowing PreFilter runs once what it needs is read whole', () => {
    const narrowing = rule('F', ['persistentVolumeClaims'], [], { meta: { name: 'F', kinds: ['made'], narrowsNodes: true }, preFilter: () => ({ nodeNames: new Set(['big']) }) });
    expect(candidateNodes([narrowing], p, nodes, snapshot).names).toEqual(['big']);
    const gap: Gap = { collection: 'persistentVolumeClaims', cause: 'absentFromDump' };
    expect(candidateNodes([narrowing], p, nodes, { ...snapshot, gaps: [gap] }).names).toEqual(names(nodes));
  });

  it('a PreFilter that does not narrow is left to the engine', () => {
    const failing = rule('G', [], [], { preFilter: () => ({ nodeNames: new Set(['big']) }) });
    expect(candidateNodes([failing], p, nodes, snapshot).names).toEqual(names(nodes));
  });
});

describe('what the rules need read for a pod', () => {
  const volumes = ['persistentVolumeClaims', 'persistentVolumes', 'storageClasses', 'csiNodes'] as const;
  const read = (p: ReturnType<typeof pod>) => volumes.filter((c) => neededCollections(ruleSet.rules, p.obj()).has(c));

  it('no volume collection for a pod without volumes', () => {
    expect(read(pod('web'))).toEqual([]);
  });

  it('claims, volumes, classes and CSINodes for a pod with a claim', () => {
    const withClaim = pod('db').with((p) => p.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }]);
    expect(read(withClaim)).toEqual([...volumes]);
  });

  it('CSINodes and claims for an in-tree disk that counts against a volume limit, even when its requests do not parse', () => {
    const withDisk = pod('legacy').req({ cpu: 'two' }).with((p) => p.spec!.volumes = [{ name: 'd', gcePersistentDisk: { pdName: 'disk-1' } }]);
    expect(read(withDisk)).toEqual([...volumes]);
  });
});
