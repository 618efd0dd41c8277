// Cases drawn from upstream kubernetes v1.34 pkg/scheduler/framework/plugins/podtopologyspread/
// filtering_test.go (TestSingleConstraint, TestMultipleConstraints, TestPreFilterState), with the
// same nodes (labels `zone` and `node`), pods and selectors (fooSelector = `foo` Exists). Where
// upstream only gives a status code per node, the whole reason (domain, counts, minimum, skew) is
// asserted here.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Reason } from '../../../src/engine/reasons.js';
import rule, { type SpreadConstraintRef } from '../../../src/engine/rules/PodTopologySpread.js';
import descriptor from '../../../src/messages/rules/PodTopologySpread.js';
import { exists, expressions, spread, terminating } from '../../support/affinity-builders.js';
import { contextFor, node, pod } from '../../support/builders.js';
import { verdicts, type FilterCase } from '../../support/rules.js';

const { messages } = descriptor;

const foo = expressions(exists('foo'));
const bar = expressions(exists('bar'));

const n = (name: string, labels: Record<string, string>) => node(name).labels(labels).obj();
const existing = (name: string, on: string, labels: Record<string, string> = { foo: '' }, namespace?: string) => pod(name, namespace).labels(labels).on(on).obj();

/** node-a, node-b in zone1; node-x, node-y in zone2. */
const fourNodes = (): V1Node[] => [
  n('node-a', { zone: 'zone1', node: 'node-a' }),
  n('node-b', { zone: 'zone1', node: 'node-b' }),
  n('node-x', { zone: 'zone2', node: 'node-x' }),
  n('node-y', { zone: 'zone2', node: 'node-y' }),
];

/** Pods spread 2/1/0/3 over node-a, node-b, node-x, node-y (zones 3/3). */
const spread2103 = (): V1Pod[] => [
  existing('p-a1', 'node-a'),
  existing('p-a2', 'node-a'),
  existing('p-b1', 'node-b'),
  existing('p-y1', 'node-y'),
  existing('p-y2', 'node-y'),
  existing('p-y3', 'node-y'),
];

/** spread2103's matching pods, node by node. */
const counts2103 = { 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 3 };

const unschedulable = { effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable' };

function constraint(index: number, topologyKey: string, maxSkew: number, selector: string | null = 'foo', extra: Partial<SpreadConstraintRef> = {}): SpreadConstraintRef {
  return { index, topologyKey, maxSkew, minDomains: 1, selector, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore', ...extra };
}

interface Skew {
  matching: number;
  min: number;
  skew: number;
  /** Every eligible domain's count, in domain-name order. */
  counts: Record<string, number>;
  selfMatch?: boolean;
  belowMinDomains?: boolean;
  /** The skew exceeds maxSkew only because of minDomains (the global minimum taken as 0). */
  onlyMinDomains?: boolean;
}

function skewed(c: SpreadConstraintRef, domain: string, s: Skew): Reason {
  const counts = Object.entries(s.counts).map(([d, pods]) => ({ domain: d, pods }));
  return {
    plugin: 'PodTopologySpread',
    code: 'Unschedulable',
    detail: {
      kind: 'spreadSkewExceeded',
      constraint: c,
      domain,
      matching: s.matching,
      selfMatch: s.selfMatch ?? true,
      globalMinimum: s.min,
      belowMinDomains: s.belowMinDomains ?? false,
      domainCount: counts.length,
      skew: s.skew,
      counts,
      ...(s.onlyMinDomains ? { onlyMinDomains: true as const } : {}),
    },
  };
}

function labelMissing(c: SpreadConstraintRef): Reason {
  return { plugin: 'PodTopologySpread', code: 'UnschedulableAndUnresolvable', detail: { kind: 'spreadLabelMissing', constraint: c } };
}

/** The same reasons, built per node, for each of these nodes. */
function failing(names: string[], reasons: (name: string) => Reason[]): Record<string, Reason[]> {
  return Object.fromEntries(names.map((name) => [name, reasons(name)]));
}

const zone1 = constraint(0, 'zone', 1);
const byNode1 = constraint(0, 'node', 1);

const singleConstraint: FilterCase[] = [
  {
    name: 'no existing pods: every node fits',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).obj(),
    nodes: fourNodes(),
    want: { 'node-a': [], 'node-b': [], 'node-x': [], 'node-y': [] },
  },
  {
    name: "no existing pods, incoming pod doesn't match itself: every node fits",
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', bar)).obj(),
    nodes: fourNodes(),
    want: { 'node-a': [], 'node-b': [], 'node-x': [], 'node-y': [] },
  },
  {
    name: 'existing pods in a different namespace do not count',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).obj(),
    nodes: fourNodes(),
    pods: [existing('p-a1', 'node-a', { foo: '' }, 'ns1'), existing('p-b1', 'node-a', { foo: '' }, 'ns2'), existing('p-x1', 'node-x'), existing('p-y1', 'node-y')],
    want: {
      'node-a': [],
      'node-b': [],
      'node-x': [skewed(zone1, 'zone2', { matching: 2, min: 0, skew: 3, counts: { zone1: 0, zone2: 2 } })],
      'node-y': [skewed(zone1, 'zone2', { matching: 2, min: 0, skew: 3, counts: { zone1: 0, zone2: 2 } })],
    },
  },
  {
    name: 'existing pods do not match a null selector, nor does the incoming pod',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', null)).obj(),
    nodes: fourNodes(),
    pods: [existing('p-x1', 'node-x'), existing('p-y1', 'node-y')],
    want: { 'node-a': [], 'node-b': [], 'node-x': [], 'node-y': [] },
  },
  {
    name: 'an empty selector counts no existing pod, so only the pod itself adds to the skew',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', {})).obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    want: { 'node-a': [], 'node-b': [], 'node-x': [], 'node-y': [] },
  },
  {
    name: 'pods spread across zones as 3/3: every node fits',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    want: { 'node-a': [], 'node-b': [], 'node-x': [], 'node-y': [] },
  },
  {
    name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).obj(),
    nodes: [
      n('node-a', { zone: 'zone1', node: 'node-a' }),
      n('node-b', { zon: 'zone1', node: 'node-b' }),
      n('node-x', { zone: 'zone2', node: 'node-x' }),
      n('node-y', { zone: 'zone2', node: 'node-y' }),
    ],
    pods: [existing('p-a1', 'node-a'), existing('p-b1', 'node-b'), existing('p-x1', 'node-x'), existing('p-y1', 'node-y')],
    want: {
      'node-a': [],
      'node-b': [labelMissing(zone1)],
      'node-x': [skewed(zone1, 'zone2', { matching: 2, min: 1, skew: 2, counts: { zone1: 1, zone2: 2 } })],
      'node-y': [skewed(zone1, 'zone2', { matching: 2, min: 1, skew: 2, counts: { zone1: 1, zone2: 2 } })],
    },
  },
  {
    name: "pod cannot be scheduled as all nodes don't have label 'rack'",
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'rack', foo)).obj(),
    nodes: [n('node-a', { zone: 'zone1', node: 'node-a' }), n('node-x', { zone: 'zone2', node: 'node-x' })],
    want: { 'node-a': [labelMissing(constraint(0, 'rack', 1))], 'node-x': [labelMissing(constraint(0, 'rack', 1))] },
  },
  {
    name: 'pods spread across nodes as 2/1/0/3: only node-x fits',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', foo)).obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    want: {
      'node-a': [skewed(byNode1, 'node-a', { matching: 2, min: 0, skew: 3, counts: counts2103 })],
      'node-b': [skewed(byNode1, 'node-b', { matching: 1, min: 0, skew: 2, counts: counts2103 })],
      'node-x': [],
      'node-y': [skewed(byNode1, 'node-y', { matching: 3, min: 0, skew: 4, counts: counts2103 })],
    },
  },
  {
    name: 'pods spread across nodes as 2/1/0/3 with maxSkew 2: node-b and node-x fit',
    pod: pod('p').labels({ foo: '' }).with(spread(2, 'node', foo)).obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    want: {
      'node-a': [skewed(constraint(0, 'node', 2), 'node-a', { matching: 2, min: 0, skew: 3, counts: counts2103 })],
      'node-b': [],
      'node-x': [],
      'node-y': [skewed(constraint(0, 'node', 2), 'node-y', { matching: 3, min: 0, skew: 4, counts: counts2103 })],
    },
  },
  {
    name: "pods spread across nodes as 2/1/0/3, but the pod doesn't match itself: it adds nothing to the skew",
    pod: pod('p').labels({ bar: '' }).with(spread(1, 'node', foo)).obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    want: {
      'node-a': [skewed(byNode1, 'node-a', { matching: 2, min: 0, skew: 2, selfMatch: false, counts: counts2103 })],
      'node-b': [],
      'node-x': [],
      'node-y': [skewed(byNode1, 'node-y', { matching: 3, min: 0, skew: 3, selfMatch: false, counts: counts2103 })],
    },
  },
  {
    name: 'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
    pod: pod('p')
      .labels({ foo: '' })
      .affinityTerm({ key: 'node', operator: 'In', values: ['node-a', 'node-y'] })
      .with(spread(1, 'node', foo))
      .obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    // node-b and node-x are not domains; NodeAffinity (not this rule) rejects them.
    want: {
      'node-a': [],
      'node-b': [],
      'node-x': [],
      'node-y': [skewed(byNode1, 'node-y', { matching: 3, min: 2, skew: 2, counts: { 'node-a': 2, 'node-y': 3 } })],
    },
  },
  {
    name: 'terminating pods are excluded from the counts',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', foo)).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' })],
    pods: [pod('p-a').labels({ foo: '' }).on('node-a').with(terminating).obj(), existing('p-b', 'node-b')],
    want: {
      'node-a': [],
      'node-b': [skewed(byNode1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 1 } })],
    },
  },
  {
    name: 'succeeded and failed pods are excluded from the counts',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', foo)).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' })],
    pods: [pod('p-a1').labels({ foo: '' }).on('node-a').phase('Succeeded').obj(), pod('p-a2').labels({ foo: '' }).on('node-a').phase('Failed').obj(), existing('p-b', 'node-b')],
    want: {
      'node-a': [],
      'node-b': [skewed(byNode1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 1 } })],
    },
  },
  {
    name: 'incoming pod has nodeAffinity NotIn node-b, pods spread as 0/~2~/0/1 over zones 0/1',
    pod: pod('p')
      .labels({ foo: '' })
      .affinityTerm({ key: 'node', operator: 'NotIn', values: ['node-b'] })
      .with(spread(1, 'zone', foo))
      .obj(),
    nodes: fourNodes(),
    pods: [existing('p-b1', 'node-b'), existing('p-b2', 'node-b'), existing('p-y1', 'node-y')],
    want: {
      'node-a': [],
      'node-b': [],
      'node-x': [skewed(zone1, 'zone2', { matching: 1, min: 0, skew: 2, counts: { zone1: 0, zone2: 1 } })],
      'node-y': [skewed(zone1, 'zone2', { matching: 1, min: 0, skew: 2, counts: { zone1: 0, zone2: 1 } })],
    },
  },
];

const minDomains: FilterCase[] = [
  {
    name: 'pods spread across nodes as 2/2/1, maxSkew 2, fewer domains than minDomains: the global minimum is 0 and only the third node fits',
    pod: pod('p').labels({ foo: '' }).with(spread(2, 'node', foo, { minDomains: 4 })).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' }), n('node-c', { node: 'node-c' })],
    pods: [existing('p-a1', 'node-a'), existing('p-a2', 'node-a'), existing('p-b1', 'node-b'), existing('p-b2', 'node-b'), existing('p-c1', 'node-c')],
    want: {
      'node-a': [skewed(constraint(0, 'node', 2, 'foo', { minDomains: 4 }), 'node-a', { matching: 2, min: 0, skew: 3, belowMinDomains: true, onlyMinDomains: true, counts: { 'node-a': 2, 'node-b': 2, 'node-c': 1 } })],
      'node-b': [skewed(constraint(0, 'node', 2, 'foo', { minDomains: 4 }), 'node-b', { matching: 2, min: 0, skew: 3, belowMinDomains: true, onlyMinDomains: true, counts: { 'node-a': 2, 'node-b': 2, 'node-c': 1 } })],
      'node-c': [],
    },
  },
  {
    name: 'pods spread across nodes as 2/2/1, maxSkew 2, more domains than minDomains: every node fits',
    pod: pod('p').labels({ foo: '' }).with(spread(2, 'node', foo, { minDomains: 2 })).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' }), n('node-c', { node: 'node-c' })],
    pods: [existing('p-a1', 'node-a'), existing('p-a2', 'node-a'), existing('p-b1', 'node-b'), existing('p-b2', 'node-b'), existing('p-c1', 'node-c')],
    want: { 'node-a': [], 'node-b': [], 'node-c': [] },
  },
  {
    name: 'pods spread across zones as 2/1, maxSkew 2, fewer domains than minDomains: the third and fourth nodes fit',
    pod: pod('p').labels({ foo: '' }).with(spread(2, 'zone', foo, { minDomains: 3 })).obj(),
    nodes: fourNodes(),
    pods: [existing('p-b1', 'node-a'), existing('p-b2', 'node-b'), existing('p-y1', 'node-y')],
    want: {
      'node-a': [skewed(constraint(0, 'zone', 2, 'foo', { minDomains: 3 }), 'zone1', { matching: 2, min: 0, skew: 3, belowMinDomains: true, onlyMinDomains: true, counts: { zone1: 2, zone2: 1 } })],
      'node-b': [skewed(constraint(0, 'zone', 2, 'foo', { minDomains: 3 }), 'zone1', { matching: 2, min: 0, skew: 3, belowMinDomains: true, onlyMinDomains: true, counts: { zone1: 2, zone2: 1 } })],
      'node-x': [],
      'node-y': [],
    },
  },
  {
    name: 'pods spread across zones as 2/1, maxSkew 2, minDomains 1: every node fits',
    pod: pod('p').labels({ foo: '' }).with(spread(2, 'zone', foo, { minDomains: 1 })).obj(),
    nodes: fourNodes(),
    pods: [existing('p-b1', 'node-a'), existing('p-b2', 'node-b'), existing('p-y1', 'node-y')],
    want: { 'node-a': [], 'node-b': [], 'node-x': [], 'node-y': [] },
  },
];

// The node-y of these cases lacks `foo` (nodeSelector) or carries a NoSchedule taint.
const inclusionNodes = (taintY: boolean): V1Node[] => [
  n('node-a', { node: 'node-a', foo: '' }),
  n('node-b', { node: 'node-b', foo: '' }),
  n('node-x', { node: 'node-x', foo: '' }),
  taintY ? node('node-y').labels({ node: 'node-y', foo: '' }).taint(unschedulable.key, undefined, unschedulable.effect).obj() : n('node-y', { node: 'node-y' }),
];
const inclusionPods = (): V1Pod[] => [existing('p-b1', 'node-a'), existing('p-b2', 'node-b'), existing('p-y1', 'node-y')];

const inclusionPolicies: FilterCase[] = [
  {
    name: 'nodeAffinityPolicy Honor (the default) leaves out nodes the nodeSelector excludes: pods spread 1/1/0/~1~',
    pod: pod('p').labels({ foo: '' }).nodeSelector({ foo: '' }).with(spread(1, 'node', foo)).obj(),
    nodes: inclusionNodes(false),
    pods: inclusionPods(),
    want: {
      'node-a': [skewed(byNode1, 'node-a', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0 } })],
      'node-b': [skewed(byNode1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0 } })],
      'node-x': [],
      'node-y': [],
    },
  },
  {
    name: 'nodeAffinityPolicy Ignore counts nodes the nodeSelector excludes: pods spread 1/1/0/1',
    pod: pod('p').labels({ foo: '' }).nodeSelector({ foo: '' }).with(spread(1, 'node', foo, { nodeAffinityPolicy: 'Ignore' })).obj(),
    nodes: inclusionNodes(false),
    pods: inclusionPods(),
    want: {
      ...failing(['node-a', 'node-b', 'node-y'], (name) => [
        skewed(constraint(0, 'node', 1, 'foo', { nodeAffinityPolicy: 'Ignore' }), name, { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0, 'node-y': 1 } }),
      ]),
      'node-x': [],
    },
  },
  {
    name: 'nodeAffinityPolicy Honor leaves out nodes the required node affinity excludes',
    pod: pod('p').labels({ foo: '' }).affinityTerm({ key: 'foo', operator: 'In', values: [''] }).with(spread(1, 'node', foo)).obj(),
    nodes: inclusionNodes(false),
    pods: inclusionPods(),
    want: {
      'node-a': [skewed(byNode1, 'node-a', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0 } })],
      'node-b': [skewed(byNode1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0 } })],
      'node-x': [],
      'node-y': [],
    },
  },
  {
    name: 'nodeTaintsPolicy Honor leaves out nodes with untolerated taints: pods spread 1/1/0/~1~',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', foo, { nodeTaintsPolicy: 'Honor' })).obj(),
    nodes: inclusionNodes(true),
    pods: inclusionPods(),
    want: {
      'node-a': [skewed(constraint(0, 'node', 1, 'foo', { nodeTaintsPolicy: 'Honor' }), 'node-a', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0 } })],
      'node-b': [skewed(constraint(0, 'node', 1, 'foo', { nodeTaintsPolicy: 'Honor' }), 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0 } })],
      'node-x': [],
      'node-y': [],
    },
  },
  {
    name: 'nodeTaintsPolicy Honor counts a tainted node whose taint the pod tolerates',
    pod: pod('p')
      .labels({ foo: '' })
      .tolerate({ key: unschedulable.key, operator: 'Exists', effect: 'NoSchedule' })
      .with(spread(1, 'node', foo, { nodeTaintsPolicy: 'Honor' }))
      .obj(),
    nodes: inclusionNodes(true),
    pods: inclusionPods(),
    want: {
      ...failing(['node-a', 'node-b', 'node-y'], (name) => [
        skewed(constraint(0, 'node', 1, 'foo', { nodeTaintsPolicy: 'Honor' }), name, { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0, 'node-y': 1 } }),
      ]),
      'node-x': [],
    },
  },
  {
    name: 'nodeTaintsPolicy Ignore (the default) counts tainted nodes',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', foo)).obj(),
    nodes: inclusionNodes(true),
    pods: inclusionPods(),
    want: {
      ...failing(['node-a', 'node-b', 'node-y'], (name) => [skewed(byNode1, name, { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0, 'node-y': 1 } })]),
      'node-x': [],
    },
  },
];

const zone0 = constraint(0, 'zone', 1);
const node1 = constraint(1, 'node', 1);
const node1bar = constraint(1, 'node', 1, 'bar');

const multipleConstraints: FilterCase[] = [
  {
    name: 'soft (ScheduleAnyway) constraints are bypassed; indexes still name the pod’s own list',
    pod: pod('p')
      .labels({ foo: '' })
      .with(spread(1, 'zone', foo, { whenUnsatisfiable: 'ScheduleAnyway' }))
      .with(spread(1, 'zone', foo))
      .with(spread(1, 'node', foo, { whenUnsatisfiable: 'ScheduleAnyway' }))
      .with(spread(1, 'node', foo))
      .obj(),
    nodes: [n('node-a', { zone: 'zone1', node: 'node-a' }), n('node-b', { zone: 'zone1', node: 'node-b' }), n('node-y', { zone: 'zone2', node: 'node-y' })],
    pods: [...spread2103(), existing('p-y4', 'node-y')],
    want: {
      'node-a': [skewed(constraint(3, 'node', 1), 'node-a', { matching: 2, min: 1, skew: 2, counts: { 'node-a': 2, 'node-b': 1, 'node-y': 4 } })],
      'node-b': [],
      'node-y': [
        skewed(constraint(1, 'zone', 1), 'zone2', { matching: 4, min: 3, skew: 2, counts: { zone1: 3, zone2: 4 } }),
        skewed(constraint(3, 'node', 1), 'node-y', { matching: 4, min: 1, skew: 4, counts: { 'node-a': 2, 'node-b': 1, 'node-y': 4 } }),
      ],
    },
  },
  {
    name: 'two constraints on zone and node, spreads = [3/3, 2/1/0/3]: only node-x fits',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).with(spread(1, 'node', foo)).obj(),
    nodes: fourNodes(),
    pods: spread2103(),
    want: {
      'node-a': [skewed(node1, 'node-a', { matching: 2, min: 0, skew: 3, counts: counts2103 })],
      'node-b': [skewed(node1, 'node-b', { matching: 1, min: 0, skew: 2, counts: counts2103 })],
      'node-x': [],
      'node-y': [skewed(node1, 'node-y', { matching: 3, min: 0, skew: 4, counts: counts2103 })],
    },
  },
  {
    name: 'two constraints on zone and node, spreads = [3/4, 2/1/0/4]: no node fits, and node-y fails both',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).with(spread(1, 'node', foo)).obj(),
    nodes: fourNodes(),
    pods: [...spread2103(), existing('p-y4', 'node-y')],
    want: {
      'node-a': [skewed(node1, 'node-a', { matching: 2, min: 0, skew: 3, counts: { 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 4 } })],
      'node-b': [skewed(node1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 4 } })],
      'node-x': [skewed(zone0, 'zone2', { matching: 4, min: 3, skew: 2, counts: { zone1: 3, zone2: 4 } })],
      'node-y': [
        skewed(zone0, 'zone2', { matching: 4, min: 3, skew: 2, counts: { zone1: 3, zone2: 4 } }),
        skewed(node1, 'node-y', { matching: 4, min: 0, skew: 5, counts: { 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 4 } }),
      ],
    },
  },
  {
    name: 'constraints hold different selectors, spreads = [1/0, 1/0/0/1]: only node-x fits',
    pod: pod('p').labels({ foo: '', bar: '' }).with(spread(1, 'zone', foo)).with(spread(1, 'node', bar)).obj(),
    nodes: fourNodes(),
    pods: [existing('p-a1', 'node-a'), existing('p-y1', 'node-y', { bar: '' })],
    want: {
      'node-a': [skewed(zone0, 'zone1', { matching: 1, min: 0, skew: 2, counts: { zone1: 1, zone2: 0 } })],
      'node-b': [skewed(zone0, 'zone1', { matching: 1, min: 0, skew: 2, counts: { zone1: 1, zone2: 0 } })],
      'node-x': [],
      'node-y': [skewed(node1bar, 'node-y', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 0, 'node-x': 0, 'node-y': 1 } })],
    },
  },
  {
    name: "constraints hold different selectors but the pod doesn't match itself on the zone constraint: node-a and node-b fit",
    pod: pod('p').labels({ bar: '' }).with(spread(1, 'zone', foo)).with(spread(1, 'node', bar)).obj(),
    nodes: fourNodes(),
    pods: [existing('p-a1', 'node-a'), existing('p-x1', 'node-x', { bar: '' }), existing('p-y1', 'node-y', { bar: '' })],
    want: {
      'node-a': [],
      'node-b': [],
      'node-x': [skewed(node1bar, 'node-x', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 0, 'node-x': 1, 'node-y': 1 } })],
      'node-y': [skewed(node1bar, 'node-y', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 0, 'node-x': 1, 'node-y': 1 } })],
    },
  },
  {
    name: "two constraints on zone and node, absence of label 'node' on node-x: node-x is counted for neither and fails as unresolvable",
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo)).with(spread(1, 'node', foo)).obj(),
    nodes: [
      n('node-a', { zone: 'zone1', node: 'node-a' }),
      n('node-b', { zone: 'zone1', node: 'node-b' }),
      n('node-x', { zone: 'zone2' }),
      n('node-y', { zone: 'zone2', node: 'node-y' }),
    ],
    pods: [existing('p-a1', 'node-a'), existing('p-x1', 'node-x'), existing('p-y3', 'node-y')],
    want: {
      'node-a': [skewed(node1, 'node-a', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 0, 'node-y': 1 } })],
      'node-b': [],
      'node-x': [labelMissing(node1)],
      'node-y': [skewed(node1, 'node-y', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 0, 'node-y': 1 } })],
    },
  },
  {
    name: 'two node inclusion constraints, zone: affinity Honor/taints Honor, node: Honor/Ignore: only node-x fits',
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'zone', foo, { nodeTaintsPolicy: 'Honor' })).with(spread(1, 'node', foo)).obj(),
    nodes: [
      n('node-a', { zone: 'zone1', node: 'node-a', foo: '' }),
      n('node-b', { zone: 'zone1', node: 'node-b', foo: '' }),
      n('node-x', { zone: 'zone2', node: 'node-x', foo: '' }),
      node('node-y').labels({ zone: 'zone2', node: 'node-y' }).taint(unschedulable.key, undefined, unschedulable.effect).obj(),
    ],
    pods: [existing('p-a1', 'node-a'), existing('p-b1', 'node-b'), existing('p-y1', 'node-y')],
    want: {
      'node-a': [
        skewed(constraint(0, 'zone', 1, 'foo', { nodeTaintsPolicy: 'Honor' }), 'zone1', { matching: 2, min: 0, skew: 3, counts: { zone1: 2, zone2: 0 } }),
        skewed(node1, 'node-a', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0, 'node-y': 1 } }),
      ],
      'node-b': [
        skewed(constraint(0, 'zone', 1, 'foo', { nodeTaintsPolicy: 'Honor' }), 'zone1', { matching: 2, min: 0, skew: 3, counts: { zone1: 2, zone2: 0 } }),
        skewed(node1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0, 'node-y': 1 } }),
      ],
      'node-x': [],
      // node-y's own pod is not counted for zone2 (its taint), but node-y is in zone2 all the same.
      'node-y': [skewed(node1, 'node-y', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 1, 'node-b': 1, 'node-x': 0, 'node-y': 1 } })],
    },
  },
];

const labelKeys: FilterCase[] = [
  {
    name: 'matchLabelKeys are ANDed with a non-empty selector: only pods with the same value count',
    pod: pod('p').labels({ foo: '', rev: 'v2' }).with(spread(1, 'node', foo, { matchLabelKeys: ['rev'] })).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' })],
    pods: [existing('p-a1', 'node-a', { foo: '', rev: 'v1' }), existing('p-a2', 'node-a', { foo: '', rev: 'v1' }), existing('p-b1', 'node-b', { foo: '', rev: 'v2' })],
    want: {
      'node-a': [],
      'node-b': [skewed(constraint(0, 'node', 1, 'foo,rev in (v2)'), 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 1 } })],
    },
  },
  {
    name: 'matchLabelKeys turn an empty selector into one that counts',
    pod: pod('p').labels({ foo: '', rev: 'v2' }).with(spread(1, 'node', {}, { matchLabelKeys: ['rev'] })).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' })],
    pods: [existing('p-a1', 'node-a', { rev: 'v1' }), existing('p-b1', 'node-b', { rev: 'v2' })],
    want: {
      'node-a': [],
      'node-b': [skewed(constraint(0, 'node', 1, 'rev in (v2)'), 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 1 } })],
    },
  },
  {
    name: 'matchLabelKeys are ignored when the selector is nil: nothing is counted',
    pod: pod('p').labels({ foo: '', rev: 'v2' }).with(spread(1, 'node', null, { matchLabelKeys: ['rev'] })).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' })],
    pods: [existing('p-b1', 'node-b', { rev: 'v2' }), existing('p-b2', 'node-b', { rev: 'v2' })],
    want: { 'node-a': [], 'node-b': [] },
  },
  {
    name: "a matchLabelKeys key the pod doesn't carry is ignored",
    pod: pod('p').labels({ foo: '' }).with(spread(1, 'node', foo, { matchLabelKeys: ['rev'] })).obj(),
    nodes: [n('node-a', { node: 'node-a' }), n('node-b', { node: 'node-b' })],
    pods: [existing('p-b1', 'node-b', { foo: '', rev: 'v1' })],
    want: {
      'node-a': [],
      'node-b': [skewed(byNode1, 'node-b', { matching: 1, min: 0, skew: 2, counts: { 'node-a': 0, 'node-b': 1 } })],
    },
  },
];

describe('PodTopologySpread', () => {
  describe.each([
    ['a single constraint', singleConstraint],
    ['minDomains', minDomains],
    ['nodeAffinityPolicy and nodeTaintsPolicy', inclusionPolicies],
    ['several constraints', multipleConstraints],
    ['matchLabelKeys', labelKeys],
  ])('%s', (_title, cases) => {
    it.each(cases)('$name', ({ pod: target, nodes, pods, want }) => {
      expect(verdicts(rule, target, nodes, { pods })).toEqual(want);
    });
  });

  it('shows the node’s domain and the emptiest ones when there are many domains', () => {
    const names = Array.from({ length: 12 }, (_, i) => `node-${String(i).padStart(2, '0')}`);
    const nodes = names.map((name) => n(name, { node: name }));
    const pods = names.slice(1).flatMap((name) => [existing(`${name}-1`, name), existing(`${name}-2`, name)]);
    pods.push(existing('node-11-3', 'node-11'));
    const target = pod('p').labels({ foo: '' }).with(spread(1, 'node', foo)).obj();
    const got = verdicts(rule, target, nodes, { pods });
    expect(got['node-00']).toEqual([]);
    expect(got['node-11']).toEqual([
      {
        plugin: 'PodTopologySpread',
        code: 'Unschedulable',
        detail: {
          kind: 'spreadSkewExceeded',
          constraint: byNode1,
          domain: 'node-11',
          matching: 3,
          selfMatch: true,
          globalMinimum: 0,
          belowMinDomains: false,
          domainCount: 12,
          skew: 4,
          counts: [
            { domain: 'node-00', pods: 0 },
            { domain: 'node-11', pods: 3 },
          ],
        },
      },
    ]);
  });

  it('needs nodes and pods only when the pod has a DoNotSchedule constraint', () => {
    const soft = pod('p').with(spread(1, 'zone', foo, { whenUnsatisfiable: 'ScheduleAnyway' })).obj();
    const hard = pod('p').with(spread(1, 'zone', foo)).obj();
    expect(rule.needs(contextFor(soft, []).pod)).toEqual([]);
    expect(rule.needs(contextFor(hard, []).pod)).toEqual(['nodes', 'pods']);
  });

  describe('messages', () => {
    it('states the domain, the counts, the minimum and the skew', () => {
      const reason = skewed(zone1, 'zone2', { matching: 2, min: 0, skew: 3, counts: { zone1: 0, zone2: 2 } });
      expect(reason.detail.kind === 'spreadSkewExceeded' && messages.spreadSkewExceeded(reason.detail)).toBe(
        'spread constraint 1 (zone, maxSkew 1, pods foo): zone=zone2 would hold 2 + 1 (this pod) matching pods against a global minimum of 0, skew 3 > maxSkew 1; matching pods per zone: zone1=0, zone2=2',
      );
    });

    it('says when minDomains forced the global minimum to zero', () => {
      const c = constraint(0, 'node', 2, 'foo', { minDomains: 4 });
      const reason = skewed(c, 'node-a', { matching: 2, min: 0, skew: 3, belowMinDomains: true, onlyMinDomains: true, counts: { 'node-a': 2, 'node-b': 2, 'node-c': 1 } });
      expect(reason.detail.kind === 'spreadSkewExceeded' && messages.spreadSkewExceeded(reason.detail)).toBe(
        'spread constraint 1 (node, maxSkew 2, minDomains 4, pods foo): node=node-a would hold 2 + 1 (this pod) matching pods against a global minimum of 0 (only 3 domains, fewer than minDomains 4), skew 3 > maxSkew 2; matching pods per node: node-a=2, node-b=2, node-c=1; only because 3 domains are fewer than minDomains 4',
      );
    });

    it('names the missing label', () => {
      expect(messages.spreadLabelMissing({ kind: 'spreadLabelMissing', constraint: constraint(0, 'rack', 1, null) })).toBe(
        'node has no label "rack", the topologyKey of spread constraint 1 (rack, maxSkew 1, pods no selector (matches no pod)); the scheduler rejects such a node whatever the counts',
      );
    });
  });
});
