// A candidate whose every node is held by a reason no fix clears (a plugin no generator's change
// reaches, which preemption cannot resolve either) is not replayed (fixes/index.ts heldNodes).
// The fixes and the nodes to read must be those of replaying every candidate, in every scenario
// and in clusters drawn at random where anti-affinity, host ports, taints, cordons, requests,
// priorities and labelling fixes meet (requests above some nodes' allocatable, or every node's,
// among them), every pod read or some nodes' only; and the nodes called held must be those no
// fix can free.
import fc from 'fast-check';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../../src/engine/context.js';
import { heldNodes, proposeFixes } from '../../../src/engine/fixes/index.js';
import { judge } from '../../../src/engine/judge.js';
import { ruleSet } from '../../../src/messages/registry.js';
import type { Snapshot } from '../../../src/snapshot/types.js';
import { node, pod, snapshotOf } from '../../support/builders.js';
import { folderNames, scenarioPod, scenariosRoot } from '../../support/scenario-folders.js';

/** proposeFixes skipping held candidates and replaying every one; `podsReadOn`: a live read in stages that read only those nodes' pods. */
function both(snapshot: Snapshot, target: V1Pod, podsReadOn?: string[]) {
  const ctx = buildContext(podsReadOn ? { ...snapshot, podsReadOn } : snapshot, target);
  const judgement = judge(ruleSet.rules, ctx);
  return {
    skipping: proposeFixes(ruleSet.rules, ctx, judgement, []),
    every: proposeFixes(ruleSet.rules, ctx, judgement, [], { everyCandidate: true }),
  };
}

/** Required anti-affinity to pods labelled app=db, by node or by zone. */
function avoidingDb(topologyKey: string) {
  return (p: V1Pod) => {
    p.spec!.affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey, labelSelector: { matchLabels: { app: 'db' } } }] } };
  };
}

const prioritized = (priority: number, never = false) => (p: V1Pod) => {
  p.spec!.priority = priority;
  if (never) p.spec!.preemptionPolicy = 'Never';
};

const nodeShape = fc.record({
  taint: fc.constantFrom(undefined, 'gpu', 'db'),
  cordoned: fc.boolean(),
  zone: fc.constantFrom('a', 'b'),
  disk: fc.constantFrom(undefined, 'ssd', 'hdd'),
  cpu: fc.constantFrom('1', '2', '4'),
  pods: fc.array(fc.record({ app: fc.constantFrom('db', 'web'), priority: fc.constantFrom(0, 100), hostPort: fc.boolean(), cpu: fc.constantFrom('500m', '1500m') }), { maxLength: 2 }),
});

type NodeShape = typeof nodeShape extends fc.Arbitrary<infer T> ? T : never;

const targetShape = fc.record({
  antiAffinity: fc.constantFrom(undefined, 'kubernetes.io/hostname', 'topology.kubernetes.io/zone'),
  // Node affinity makes labelling fixes, one of which takes a label away: the zone anti-affinity reads it.
  nodeAffinity: fc.constantFrom(undefined, 'disk=ssd', 'zone notin (a)'),
  hostPort: fc.boolean(),
  tolerates: fc.boolean(),
  // Above a 2-cpu node's allocatable, and above every node's.
  cpu: fc.constantFrom('1', '2500m', '4500m'),
  priority: fc.constantFrom(0, 50, 1000),
  never: fc.boolean(),
});

function clusterOf(shapes: readonly NodeShape[]) {
  const nodes: V1Node[] = [];
  const pods: V1Pod[] = [];
  shapes.forEach((shape, i) => {
    const name = `node-${i}`;
    let n = node(name).zone(shape.zone).allocatable({ cpu: shape.cpu });
    if (shape.disk) n = n.labels({ disk: shape.disk });
    if (shape.taint) n = n.taint('dedicated', shape.taint, 'NoSchedule');
    if (shape.cordoned) n = n.cordon();
    nodes.push(n.obj());
    shape.pods.forEach((p, j) => {
      let b = pod(`${name}-${j}`).labels({ app: p.app }).req({ cpu: p.cpu }).with(prioritized(p.priority)).on(name);
      if (p.hostPort) b = b.hostPort(8080);
      pods.push(b.obj());
    });
  });
  return { nodes, pods };
}

function targetOf(shape: TargetShape): V1Pod {
  let b = pod('target').labels({ app: 'web' }).req({ cpu: shape.cpu }).with(prioritized(shape.priority, shape.never));
  if (shape.antiAffinity) b = b.with(avoidingDb(shape.antiAffinity));
  if (shape.nodeAffinity === 'disk=ssd') b = b.nodeSelector({ disk: 'ssd' });
  if (shape.nodeAffinity === 'zone notin (a)') b = b.affinityTerm({ key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['a'] });
  if (shape.hostPort) b = b.hostPort(8080);
  if (shape.tolerates) b = b.tolerate({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' });
  return b.obj();
}

type TargetShape = typeof targetShape extends fc.Arbitrary<infer T> ? T : never;

describe('candidates whose every node a reason no fix clears holds', () => {
  it.each(folderNames(scenariosRoot))('scenario %s: the same fixes and nodes to read as replaying every candidate', async (folder) => {
    const found = await scenarioPod(scenariosRoot, folder);
    if (!found) return;
    const { skipping, every } = both(found.snapshot, found.pod);
    expect(skipping).toEqual(every);
  });

  it('clusters drawn at random: the same fixes and nodes to read as replaying every candidate', () => {
    fc.assert(
      fc.property(fc.array(nodeShape, { minLength: 1, maxLength: 6 }), targetShape, fc.option(fc.infiniteStream(fc.boolean())), (shapes, shape, coin) => {
        const target = targetOf(shape);
        const { nodes, pods } = clusterOf(shapes);
        // All pods read, or, as a live read in stages leaves them, those of some nodes only.
        const read = coin ? nodes.map((n) => n.metadata?.name ?? '').filter(() => coin.next().value) : undefined;
        const { skipping, every } = both(snapshotOf({ nodes, pods: [...pods, target] }), target, read);
        expect(skipping).toEqual(every);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  // Three nodes, each running a pod the target's anti-affinity refuses; node-0 also carries a
  // taint the target does not tolerate, node-1 is cordoned, node-2 has room for nothing more.
  const nodes = [node('node-0').taint('dedicated', 'gpu', 'NoSchedule').obj(), node('node-1').cordon().obj(), node('node-2').allocatable({ cpu: '1' }).obj()];
  const dbPods = (priority: number) => nodes.map((n, i) => pod(`db-${i}`).labels({ app: 'db' }).req({ cpu: '500m' }).with(prioritized(priority)).on(n.metadata?.name ?? '').obj());

  function held(target: V1Pod, bound: V1Pod[], on: V1Node[] = nodes): string[] {
    const ctx = buildContext(snapshotOf({ nodes: on, pods: [...bound, target] }), target);
    const isHeld = heldNodes(ctx, judge(ruleSet.rules, ctx));
    return on.map((n) => n.metadata?.name ?? '').filter(isHeld);
  }

  it('anti-affinity to pods of the same priority holds every node: no change reaches it, and nothing can be preempted', () => {
    expect(held(pod('t').req({ cpu: '1' }).with(avoidingDb('kubernetes.io/hostname')).obj(), dbPods(0))).toEqual(['node-0', 'node-1', 'node-2']);
  });

  it('pods of lower priority: preemption may resolve the anti-affinity, so no node is held', () => {
    expect(held(pod('t').req({ cpu: '1' }).with(avoidingDb('kubernetes.io/hostname')).with(prioritized(1000)).obj(), dbPods(0))).toEqual([]);
  });

  it('a pod that may not preempt (preemptionPolicy Never): held again', () => {
    expect(held(pod('t').req({ cpu: '1' }).with(avoidingDb('kubernetes.io/hostname')).with(prioritized(1000, true)).obj(), dbPods(0))).toEqual(['node-0', 'node-1', 'node-2']);
  });

  it('taints, cordons and requests alone hold nothing: a generator clears each', () => {
    expect(held(pod('t').req({ cpu: '1' }).obj(), dbPods(0))).toEqual([]);
  });

  // A request above a node's allocatable asks for another size of node: no cut sized to that
  // node is advice, and from 1.30 the scheduler does not preempt for it. A node with room left
  // for a smaller request is not held: a cut sized to it may free the larger node too.
  const sizes = [node('small').allocatable({ cpu: '2' }).taint('dedicated', 'gpu', 'NoSchedule').obj(), node('large').allocatable({ cpu: '8' }).taint('dedicated', 'gpu', 'NoSchedule').obj()];
  const busy = pod('busy').req({ cpu: '6' }).on('large').obj();

  it('a request above a node\'s allocatable holds that node; one with room for a cut does not', () => {
    expect(held(pod('t').req({ cpu: '3' }).with(prioritized(1000)).obj(), [busy], sizes)).toEqual(['small']);
  });

  it('above every node\'s allocatable: every node held, and no fix offered', () => {
    const target = pod('t').req({ cpu: '9' }).obj();
    expect(held(target, [busy], sizes)).toEqual(['small', 'large']);
    const ctx = buildContext(snapshotOf({ nodes: sizes, pods: [busy, target] }), target);
    expect(proposeFixes(ruleSet.rules, ctx, judge(ruleSet.rules, ctx), [], { everyCandidate: true }).fixes).toEqual([]);
  });
});
