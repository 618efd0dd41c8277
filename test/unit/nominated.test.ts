// The scheduler's two passes on a node with nominated pods (RunFilterPluginsWithNominatedPods):
// first with every pending pod nominated there at equal or higher priority added, the pod itself
// excluded, as if it ran there (PreFilter state included); when that passes, again without them.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../src/engine/context.js';
import { nodeIndex, unboundPods } from '../../src/engine/facts.js';
import { judge } from '../../src/engine/judge.js';
import { nominatedFor } from '../../src/engine/nominated.js';
import { ruleSet } from '../../src/messages/registry.js';
import { affinity, antiAffinity, spread } from '../support/affinity-builders.js';
import { node, pod, snapshotOf } from '../support/builders.js';

function nominated(name: string, to: string, priority: number, cpu = '3'): V1Pod {
  return pod(name, 'prod')
    .req({ cpu })
    .with((p) => {
      p.spec!.priority = priority;
      p.status = { phase: 'Pending', nominatedNodeName: to, conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: new Date('2026-12-01T10:00:00Z') }] };
    })
    .obj();
}

function withPriority(p: V1Pod, priority: number): V1Pod {
  p.spec!.priority = priority;
  return p;
}

const workers = () => [node('worker-1').allocatable({ cpu: '4' }).labels({ zone: 'a', 'kubernetes.io/hostname': 'worker-1' }).obj(), node('worker-2').allocatable({ cpu: '4' }).labels({ zone: 'b', 'kubernetes.io/hostname': 'worker-2' }).obj()];

/** Each node's verdict, its first plugin, and the nominated pods named on it. */
function verdicts(target: V1Pod, pods: V1Pod[], nodes = workers()) {
  const ctx = buildContext(snapshotOf({ nodes, pods: [...pods, target] }), target);
  return Object.fromEntries(
    judge(ruleSet.rules, ctx).nodes.map((n) => [n.name, { verdict: n.verdict, first: n.reasons[0]?.plugin, nominated: n.nominated && { decides: n.nominated.decides, pods: n.nominated.pods.map((p) => p.name) } }]),
  );
}

const report = () => withPriority(pod('report', 'prod').req({ cpu: '500m' }).obj(), 100);
const victim = () => withPriority(pod('batch-0', 'batch').req({ cpu: '3' }).on('worker-1').with((p) => (p.metadata!.deletionTimestamp = new Date('2026-12-01T10:00:30Z'))).obj(), 1000);

describe('nominated pods', () => {
  it('a nominated pod of higher priority holds its room: the node fails, and would pass without it', () => {
    expect(verdicts(report(), [victim(), nominated('checkout', 'worker-1', 10000)])).toEqual({
      'worker-1': { verdict: 'fails', first: 'NodeResourcesFit', nominated: { decides: true, pods: ['checkout'] } },
      'worker-2': { verdict: 'fits', first: undefined, nominated: undefined },
    });
  });

  it('a nominated pod of equal priority holds its room too', () => {
    expect(verdicts(report(), [victim(), nominated('twin', 'worker-1', 100)])['worker-1']).toEqual({ verdict: 'fails', first: 'NodeResourcesFit', nominated: { decides: true, pods: ['twin'] } });
  });

  it('a nominated pod of lower priority does not', () => {
    expect(verdicts(report(), [victim(), nominated('low', 'worker-1', 10)])['worker-1']).toEqual({ verdict: 'fits', first: undefined, nominated: undefined });
  });

  it('the pod is never its own nominated pod', () => {
    // 3 cpu used + 800m fits worker-1; counted twice (as its own nominated pod) it would not.
    const self = nominated('report', 'worker-1', 100, '800m');
    expect(verdicts(self, [victim()])['worker-1']).toEqual({ verdict: 'fits', first: undefined, nominated: undefined });
  });

  it('a node already failing for the same reason keeps its failure, and the nominated pods are not said to decide', () => {
    const full = withPriority(pod('filler', 'batch').req({ cpu: '3800m' }).on('worker-2').obj(), 1000);
    expect(verdicts(report(), [full, nominated('checkout', 'worker-2', 10000)])['worker-2']).toEqual({ verdict: 'fails', first: 'NodeResourcesFit', nominated: undefined });
  });

  it("a nominated pod counts in the pod's anti-affinity on its node (InterPodAffinity's AddPod)", () => {
    const web = (name: string) => pod(name, 'prod').labels({ app: 'web' }).with(antiAffinity('kubernetes.io/hostname', { app: 'web' })).obj();
    const other = withPriority(web('web-1'), 100);
    other.status = { phase: 'Pending', nominatedNodeName: 'worker-1' };
    expect(verdicts(withPriority(web('web-0'), 100), [other])).toEqual({
      'worker-1': { verdict: 'fails', first: 'InterPodAffinity', nominated: { decides: true, pods: ['web-1'] } },
      'worker-2': { verdict: 'fits', first: undefined, nominated: undefined },
    });
  });

  it('a nominated pod counts in topology spread on its node only, as the scheduler adds it per node', () => {
    const api = (name: string) => pod(name, 'prod').labels({ app: 'api' }).with(spread(1, 'zone', { app: 'api' })).obj();
    const bound = withPriority(api('api-0'), 100);
    bound.spec!.nodeName = 'worker-2';
    const other = withPriority(api('api-1'), 100);
    other.status = { phase: 'Pending', nominatedNodeName: 'worker-1' };
    // zone a holds api-1 (nominated) when worker-1 is filtered: 1 and 1, then api-2 makes a skew of 1: fits.
    // Without the nomination worker-1 still fits (0 vs 1). worker-2: 2 vs 0 (api-1 not added there): fails.
    expect(verdicts(withPriority(api('api-2'), 100), [bound, other])).toEqual({
      'worker-1': { verdict: 'fits', first: undefined, nominated: undefined },
      'worker-2': { verdict: 'fails', first: 'PodTopologySpread', nominated: undefined },
    });
  });

  it("the second pass decides when only the nominated pod satisfied the pod's affinity", () => {
    const db = withPriority(pod('db-0', 'prod').labels({ app: 'db' }).obj(), 100);
    db.status = { phase: 'Pending', nominatedNodeName: 'worker-1' };
    const app = withPriority(pod('app-0', 'prod').with(affinity('kubernetes.io/hostname', { app: 'db' })).obj(), 100);
    // With db-0 added worker-1 passes; without it no pod matches anywhere and app-0 does not match
    // its own terms: both nodes fail, as the scheduler's second pass says.
    expect(verdicts(app, [db])).toEqual({
      'worker-1': { verdict: 'fails', first: 'InterPodAffinity', nominated: undefined },
      'worker-2': { verdict: 'fails', first: 'InterPodAffinity', nominated: undefined },
    });
  });

  it('finds the same nominated pods whether the node index read the pods first or not', () => {
    const pods = () => [victim(), nominated('checkout', 'worker-1', 10000), pod('bound', 'prod').on('worker-2').obj(), nominated('later', 'worker-2', 10000)];
    const fresh = snapshotOf({ nodes: workers(), pods: pods() });
    const indexed = snapshotOf({ nodes: workers(), pods: pods() });
    nodeIndex(indexed);
    expect(unboundPods(indexed.objects.pods).map((p) => p.metadata?.name)).toEqual(['checkout', 'later']);
    const names = (s: typeof fresh) => [...(nominatedFor(s, report()) ?? new Map<string, V1Pod[]>())].map(([node, list]) => [node, list.map((p) => p.metadata?.name)]);
    expect(names(fresh)).toEqual([['worker-1', ['checkout']], ['worker-2', ['later']]]);
    expect(names(indexed)).toEqual(names(fresh));
  });
});

describe("nominated pods counted with the release's arithmetic", () => {
  // 3800m in its container, 100m at pod level: 1.34 counts the pod-level request, 1.33 (PodLevelResources off) the container's.
  const podLevel = () => {
    const p = nominated('batch-big', 'worker-1', 1000, '3800m');
    p.spec!.resources = { requests: { cpu: '100m' } };
    return p;
  };
  const on = (version: string) => {
    const target = report();
    const snapshot = { ...snapshotOf({ nodes: workers(), pods: [podLevel(), target] }), cluster: { version } };
    return judge(ruleSet.rules, buildContext(snapshot, target)).nodes.find((n) => n.name === 'worker-1')?.verdict;
  };

  it('1.34 and later: the pod-level request, and the node still fits', () => {
    expect(on('v1.34.4')).toBe('fits');
  });

  it('1.33: the containers\' requests, and the room held keeps the pod off', () => {
    expect(on('v1.33.5')).toBe('fails');
  });
});
