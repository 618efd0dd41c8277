// Cases drawn from upstream kubernetes v1.34 pkg/scheduler/framework/plugins/interpodaffinity/
// filtering_test.go (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes), with the
// same labels and terms. Differences, each noted at its case: upstream terms built without a
// topologyKey get one here (an empty key fails every node on a missing label, hiding what the case
// is about); namespaceSelector cases use `kubernetes.io/metadata.name`, the one namespace label a
// snapshot knows, plus a case showing that other labels are reported as not evaluated; where
// upstream stops at the first failing check, every failing check is asserted here.
import { describe, expect, it } from 'vitest';
import type { Reason } from '../../../src/engine/reasons.js';
import rule, {
  type AffinityTermRef,
  type AntiAffinityConflict,
  type ExistingAntiAffinityConflict,
  type PodRef,
  type UnmatchedAffinityTerm,
} from '../../../src/engine/rules/InterPodAffinity.js';
import descriptor from '../../../src/messages/rules/InterPodAffinity.js';
import { affinity, antiAffinity, exists, expressions, inValues, notIn, terminating } from '../../support/affinity-builders.js';
import { buildContext } from '../../../src/engine/context.js';
import { patchedContext } from '../../../src/engine/fixes/patch.js';
import type { Gap, NamespaceRecord } from '../../../src/snapshot/types.js';
import { contextFor, node, pod, snapshotOf } from '../../support/builders.js';
import { verdicts, type FilterCase } from '../../support/rules.js';

const { messages } = descriptor;

const n = (name: string, labels: Record<string, string>) => node(name).labels(labels).obj();
const existing = (name: string, on: string, labels: Record<string, string>, namespace?: string) => pod(name, namespace).labels(labels).on(on);

function term(index: number, topologyKey: string, selector: string | null, namespaces = ['default'], extra: Partial<AffinityTermRef> = {}): AffinityTermRef {
  return { index, topologyKey, selector, namespaces, ...extra };
}

const ref = (name: string, nodeName: string, namespace = 'default'): PodRef => ({ namespace, name, node: nodeName });

function labelMissing(...terms: AffinityTermRef[]): Reason {
  return { plugin: 'InterPodAffinity', code: 'UnschedulableAndUnresolvable', detail: { kind: 'podAffinityLabelMissing', terms } };
}

function unmatched(terms: UnmatchedAffinityTerm[], matchingPods: PodRef[] = [], selfMatch = false): Reason {
  return {
    plugin: 'InterPodAffinity',
    code: 'UnschedulableAndUnresolvable',
    detail: { kind: 'podAffinityUnmatched', terms, matchingPods, matchingPodCount: matchingPods.length, selfMatch },
  };
}

function antiConflict(...terms: AntiAffinityConflict[]): Reason {
  return { plugin: 'InterPodAffinity', code: 'Unschedulable', detail: { kind: 'podAntiAffinityConflict', terms } };
}

function existingConflict(...conflicts: ExistingAntiAffinityConflict[]): Reason {
  return { plugin: 'InterPodAffinity', code: 'Unschedulable', detail: { kind: 'existingPodAntiAffinityConflict', conflicts, conflictCount: conflicts.length } };
}

const conflict = (t: AffinityTermRef, domain: string, ...pods: PodRef[]): AntiAffinityConflict => ({ term: t, domain, pods, podCount: pods.length });

// TestRequiredAffinitySingleNode: one node, and (mostly) one existing pod labelled service=securityscan.
const node1 = () => n('node1', { region: 'r1', zone: 'z11' });
const scan = () => existing('scan', 'node1', { service: 'securityscan' });
const securityscan = inValues('service', 'securityscan', 'value2');

const singleNode: FilterCase[] = [
  {
    name: 'a pod without required pod affinity rules schedules onto a node with no existing pods',
    pod: pod('p').obj(),
    nodes: [node1()],
    want: { node1: [] },
  },
  {
    name: 'satisfies required pod affinity using an In operator that matches the existing pod',
    pod: pod('p').labels({ security: 'S1' }).with(affinity('region', expressions(securityscan))).obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: { node1: [] },
  },
  {
    name: 'satisfies required pod affinity using a NotIn operator that matches the existing pod',
    pod: pod('p').labels({ security: 'S1' }).with(affinity('region', expressions(notIn('service', 'securityscan3', 'value3')))).obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: { node1: [] },
  },
  {
    // Upstream leaves the topologyKey empty, which fails on the missing label first.
    name: 'does not satisfy pod affinity because the matching pod is in another namespace than the term names',
    pod: pod('p').labels({ security: 'S1' }).with(affinity('region', expressions(securityscan), { namespaces: ['DiffNameSpace'] })).obj(),
    nodes: [node1()],
    pods: [existing('scan', 'node1', { service: 'securityscan' }, 'ns').obj()],
    want: { node1: [unmatched([{ term: term(0, 'region', 'service in (securityscan,value2)', ['DiffNameSpace']), domain: 'r1', elsewhere: [], elsewhereDomains: 0 }])] },
  },
  {
    name: "does not satisfy pod affinity because the selector doesn't match the existing pod (nor the pod itself)",
    pod: pod('p').labels({ service: 'securityscan' }).with(affinity('region', expressions(inValues('service', 'antivirusscan', 'value2')))).obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: { node1: [unmatched([{ term: term(0, 'region', 'service in (antivirusscan,value2)'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 }])] },
  },
  {
    name: 'satisfies pod affinity with different operators in several terms',
    pod: pod('p')
      .labels({ security: 'S1' })
      .with(affinity('region', expressions(exists('service'), { key: 'wrongkey', operator: 'DoesNotExist' })))
      .with(affinity('region', expressions(inValues('service', 'securityscan'), notIn('service', 'WrongValue'))))
      .obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: { node1: [] },
  },
  {
    name: 'requirements are ANDed: one unmatched requirement in the second term leaves both terms without a pod',
    pod: pod('p')
      .labels({ security: 'S1' })
      .with(affinity('region', expressions(exists('service'), { key: 'wrongkey', operator: 'DoesNotExist' })))
      .with(affinity('region', expressions(inValues('service', 'securityscan2'), notIn('service', 'WrongValue'))))
      .obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: {
      node1: [
        unmatched([
          { term: term(0, 'region', 'service,!wrongkey'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 },
          { term: term(1, 'region', 'service in (securityscan2),service notin (WrongValue)'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 },
        ]),
      ],
    },
  },
  {
    name: 'satisfies pod affinity and pod anti-affinity with the existing pod',
    pod: pod('p')
      .labels({ security: 'S1' })
      .with(affinity('region', expressions(securityscan)))
      .with(antiAffinity('node', expressions(inValues('service', 'antivirusscan', 'value2'))))
      .obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: { node1: [] },
  },
  {
    name: "satisfies pod affinity but not the pod's anti-affinity with the existing pod",
    pod: pod('p').labels({ security: 'S1' }).with(affinity('region', expressions(securityscan))).with(antiAffinity('zone', expressions(securityscan))).obj(),
    nodes: [node1()],
    pods: [scan().obj()],
    want: { node1: [antiConflict(conflict(term(0, 'zone', 'service in (securityscan,value2)'), 'z11', ref('scan', 'node1')))] },
  },
  {
    name: "satisfies the pod's affinity and anti-affinity but not the existing pod's anti-affinity (symmetry)",
    pod: pod('p')
      .labels({ service: 'securityscan' })
      .with(affinity('region', expressions(securityscan)))
      .with(antiAffinity('node', expressions(inValues('service', 'antivirusscan', 'value2'))))
      .obj(),
    nodes: [node1()],
    pods: [scan().with(antiAffinity('zone', expressions(securityscan))).obj()],
    want: { node1: [existingConflict({ pod: ref('scan', 'node1'), term: term(0, 'zone', 'service in (securityscan,value2)'), domain: 'z11' })] },
  },
  {
    name: 'a pod that does not match its own affinity term cannot be the first of its group',
    pod: pod('p').labels({ service: 'securityscan' }).with(affinity('region', expressions(notIn('service', 'securityscan', 'value2')))).obj(),
    nodes: [node1()],
    // On a node the snapshot does not hold: not counted.
    pods: [existing('scan', 'node2', { service: 'securityscan' }).obj()],
    want: { node1: [unmatched([{ term: term(0, 'region', 'service notin (securityscan,value2)'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 }])] },
  },
  {
    name: "an existing pod's anti-affinity is respected when the incoming pod has no anti-affinity",
    pod: pod('p').labels({ service: 'securityscan' }).obj(),
    nodes: [node1()],
    pods: [scan().with(antiAffinity('zone', expressions(securityscan))).obj()],
    want: { node1: [existingConflict({ pod: ref('scan', 'node1'), term: term(0, 'zone', 'service in (securityscan,value2)'), domain: 'z11' })] },
  },
  {
    name: "an existing pod's anti-affinity that doesn't select the incoming pod is satisfied",
    pod: pod('p').labels({ service: 'securityscan' }).obj(),
    nodes: [node1()],
    pods: [scan().with(antiAffinity('zone', expressions(notIn('service', 'securityscan', 'value2')))).obj()],
    want: { node1: [] },
  },
  {
    name: "satisfies the existing pod's anti-affinity but not the incoming pod's (second term)",
    pod: pod('p').labels({ service: 'securityscan' }).with(antiAffinity('region', expressions(exists('service')))).with(antiAffinity('region', expressions(exists('security')))).obj(),
    nodes: [node1()],
    pods: [existing('s1', 'node1', { security: 'S1' }).with(antiAffinity('zone', expressions(exists('security')))).obj()],
    want: { node1: [antiConflict(conflict(term(1, 'region', 'security'), 'r1', ref('s1', 'node1')))] },
  },
  {
    name: 'anti-affinity symmetry a2: only the existing pod’s second term selects the incoming pod',
    pod: pod('p').labels({ security: 'S1' }).with(antiAffinity('zone', expressions(exists('security')))).obj(),
    nodes: [node1()],
    pods: [scan().with(antiAffinity('zone', expressions(exists('service')))).with(antiAffinity('zone', expressions(exists('security')))).obj()],
    want: { node1: [existingConflict({ pod: ref('scan', 'node1'), term: term(1, 'zone', 'security'), domain: 'z11' })] },
  },
  {
    // Upstream stops at the incoming pod's anti-affinity; the existing pod's would fail too.
    name: 'anti-affinity symmetry b1: both sides select each other, both failures are reported in the scheduler’s order, and the first says it is symmetric',
    pod: pod('p').labels({ abc: '', xyz: '' }).with(antiAffinity('zone', expressions(exists('abc')))).with(antiAffinity('zone', expressions(exists('def')))).obj(),
    nodes: [node1()],
    pods: [
      existing('e', 'node1', { def: '', xyz: '' })
        .with(antiAffinity('zone', expressions(exists('abc'))))
        .with(antiAffinity('zone', expressions(exists('def'))))
        .obj(),
    ],
    want: {
      node1: [
        { ...antiConflict(conflict(term(1, 'zone', 'def'), 'z11', ref('e', 'node1'))), detail: { kind: 'podAntiAffinityConflict', terms: [conflict(term(1, 'zone', 'def'), 'z11', ref('e', 'node1'))], symmetric: true } },
        existingConflict({ pod: ref('e', 'node1'), term: term(0, 'zone', 'abc'), domain: 'z11' }),
      ],
    },
  },
];

const byName = (namespace: string) => expressions(inValues('kubernetes.io/metadata.name', namespace));

const namespaces: FilterCase[] = [
  {
    name: 'affinity with a namespaceSelector on the namespace name selects the matching pod',
    pod: pod('p').labels({ security: 'S1' }).with(affinity('region', expressions(securityscan), { namespaceSelector: byName('subteam1.team1') })).obj(),
    nodes: [node1()],
    pods: [existing('scan', 'node1', { service: 'securityscan' }, 'subteam1.team1').obj()],
    want: { node1: [] },
  },
  {
    name: 'affinity with a non-matching namespaceSelector finds no pod',
    pod: pod('p').labels({ security: 'S1' }).with(affinity('region', expressions(securityscan), { namespaceSelector: byName('subteam1.team1') })).obj(),
    nodes: [node1()],
    pods: [existing('scan', 'node1', { service: 'securityscan' }, 'subteam1.team2').obj()],
    want: {
      node1: [
        unmatched([
          { term: term(0, 'region', 'service in (securityscan,value2)', [], { namespaceSelector: 'kubernetes.io/metadata.name in (subteam1.team1)' }), domain: 'r1', elsewhere: [], elsewhereDomains: 0 },
        ]),
      ],
    },
  },
  {
    name: 'anti-affinity with a matching namespaceSelector',
    pod: pod('p', 'subteam1.team1')
      .labels({ security: 'S1' })
      .with(antiAffinity('zone', expressions(securityscan), { namespaceSelector: byName('subteam2.team1') }))
      .obj(),
    nodes: [node1()],
    pods: [existing('scan', 'node1', { service: 'securityscan' }, 'subteam2.team1').obj()],
    want: {
      node1: [
        antiConflict(
          conflict(term(0, 'zone', 'service in (securityscan,value2)', [], { namespaceSelector: 'kubernetes.io/metadata.name in (subteam2.team1)' }), 'z11', ref('scan', 'node1', 'subteam2.team1')),
        ),
      ],
    },
  },
  {
    name: 'anti-affinity with an empty namespaceSelector covers every namespace',
    pod: pod('p', 'subteam1.team1').labels({ security: 'S1' }).with(antiAffinity('zone', expressions(securityscan), { namespaceSelector: {} })).obj(),
    nodes: [node1()],
    pods: [existing('scan', 'node1', { service: 'securityscan' }, 'subteam2.team1').obj()],
    want: {
      node1: [antiConflict(conflict(term(0, 'zone', 'service in (securityscan,value2)', [], { namespaceSelector: '' }), 'z11', ref('scan', 'node1', 'subteam2.team1')))],
    },
  },
  {
    name: 'anti-affinity with a non-matching namespaceSelector',
    pod: pod('p', 'subteam1.team1')
      .labels({ security: 'S1' })
      .with(antiAffinity('zone', expressions(securityscan), { namespaceSelector: byName('subteam1.team1') }))
      .obj(),
    nodes: [node1()],
    pods: [existing('scan', 'node1', { service: 'securityscan' }, 'subteam1.team2').obj()],
    want: { node1: [] },
  },
  {
    name: "an existing pod's anti-affinity covers only its own namespace by default",
    pod: pod('p', 'ns1').labels({ service: 'securityscan' }).obj(),
    nodes: [node1()],
    pods: [existing('other', 'node1', {}, 'ns2').with(antiAffinity('zone', expressions(securityscan))).obj()],
    want: { node1: [] },
  },
  {
    name: "an existing pod's anti-affinity with a namespaceSelector naming the incoming pod's namespace",
    pod: pod('p', 'ns1').labels({ service: 'securityscan' }).obj(),
    nodes: [node1()],
    pods: [existing('other', 'node1', {}, 'ns2').with(antiAffinity('zone', expressions(securityscan), { namespaceSelector: byName('ns1') })).obj()],
    want: {
      node1: [
        existingConflict({
          pod: ref('other', 'node1', 'ns2'),
          term: term(0, 'zone', 'service in (securityscan,value2)', [], { namespaceSelector: 'kubernetes.io/metadata.name in (ns1)', namespacesSelected: ['ns1'] }),
          domain: 'z11',
        }),
      ],
    },
  },
];

// TestRequiredAffinityMultipleNodes.
const china = (name: string) => n(name, { region: 'China' });
const chinaAz1 = (name: string) => n(name, { region: 'China', az: 'az1' });
const india = (name: string) => n(name, { region: 'India' });
const rz = (name: string, region: string, zone: string) => n(name, { region, zone, hostname: name });

const multipleNodes: FilterCase[] = [
  {
    name: 'a pod can be scheduled onto all the nodes that share the topology value of a node running a matching pod',
    pod: pod('p').with(affinity('region', expressions(inValues('foo', 'bar')))).obj(),
    nodes: [china('node1'), chinaAz1('node2'), india('node3')],
    pods: [existing('p1', 'node1', { foo: 'bar' }).obj()],
    want: {
      node1: [],
      node2: [],
      node3: [unmatched([{ term: term(0, 'region', 'foo in (bar)'), domain: 'India', elsewhere: [{ domain: 'China', pods: 1 }], elsewhereDomains: 1 }], [ref('p1', 'node1')])],
    },
  },
  {
    name: 'the first pod of a group with affinity to itself is not blocked when no pod matches anywhere',
    pod: pod('p')
      .labels({ foo: 'bar', service: 'securityscan' })
      .with(affinity('zone', expressions(inValues('foo', 'bar'))))
      .with(affinity('zone', expressions(inValues('service', 'securityscan'))))
      .obj(),
    nodes: [n('nodeA', { zone: 'az1', hostname: 'h1' }), n('nodeB', { zone: 'az2', hostname: 'h2' })],
    pods: [existing('p1', 'nodeA', { foo: 'bar' }).obj()],
    want: { nodeA: [], nodeB: [] },
  },
  {
    name: 'the first pod of a group can only be scheduled on nodes labelled with the requested topology keys',
    pod: pod('p')
      .labels({ foo: 'bar', service: 'securityscan' })
      .with(affinity('zone', expressions(inValues('foo', 'bar'))))
      .with(affinity('zone', expressions(inValues('service', 'securityscan'))))
      .obj(),
    nodes: [n('nodeA', { zoneLabel: 'az1', hostname: 'h1' }), n('nodeB', { zoneLabel: 'az2', hostname: 'h2' })],
    pods: [existing('p1', 'nodeA', { foo: 'bar' }).obj()],
    want: {
      nodeA: [labelMissing(term(0, 'zone', 'foo in (bar)'), term(1, 'zone', 'service in (securityscan)'))],
      nodeB: [labelMissing(term(0, 'zone', 'foo in (bar)'), term(1, 'zone', 'service in (securityscan)'))],
    },
  },
  {
    name: 'once a pod of the group runs, the next one must join its domain even though it matches its own term',
    pod: pod('p').labels({ app: 'db' }).with(affinity('zone', { app: 'db' })).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('db-0', 'nodeA', { app: 'db' }).obj()],
    want: {
      nodeA: [],
      nodeB: [unmatched([{ term: term(0, 'zone', 'app=db'), domain: 'z2', elsewhere: [{ domain: 'z1', pods: 1 }], elsewhereDomains: 1 }], [ref('db-0', 'nodeA')], true)],
    },
  },
  {
    name: 'a matching pod on a node without the topology key does not count, so the first-pod rule still applies elsewhere',
    pod: pod('p').labels({ app: 'db' }).with(affinity('zone', { app: 'db' })).obj(),
    nodes: [n('nodeA', { zone: 'z1' }), n('nodeB', {})],
    pods: [existing('db-0', 'nodeB', { app: 'db' }).obj()],
    want: { nodeA: [], nodeB: [labelMissing(term(0, 'zone', 'app=db'))] },
  },
  {
    name: 'nodeA and nodeB share a region and nodeA runs a pod the anti-affinity selects: neither fits',
    pod: pod('p').with(antiAffinity('region', expressions(inValues('foo', 'abc')))).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('abc', 'nodeA', { foo: 'abc' }).obj()],
    want: {
      nodeA: [antiConflict(conflict(term(0, 'region', 'foo in (abc)'), 'r1', ref('abc', 'nodeA')))],
      nodeB: [antiConflict(conflict(term(0, 'region', 'foo in (abc)'), 'r1', ref('abc', 'nodeA')))],
    },
  },
  {
    name: 'anti-affinity fails when any of its terms selects a pod in the node’s domain',
    pod: pod('p').with(antiAffinity('region', expressions(inValues('foo', 'abc')))).with(antiAffinity('zone', expressions(inValues('service', 'securityscan')))).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('both', 'nodeA', { foo: 'abc', service: 'securityscan' }).obj()],
    want: {
      nodeA: [
        antiConflict(conflict(term(0, 'region', 'foo in (abc)'), 'r1', ref('both', 'nodeA')), conflict(term(1, 'zone', 'service in (securityscan)'), 'z1', ref('both', 'nodeA'))),
      ],
      nodeB: [antiConflict(conflict(term(0, 'region', 'foo in (abc)'), 'r1', ref('both', 'nodeA')))],
    },
  },
  {
    name: 'anti-affinity blocks the region of a selected pod in the same namespace; a pod in another namespace is not selected',
    pod: pod('p', 'NS1').labels({ foo: '123' }).with(antiAffinity('region', expressions(inValues('foo', 'bar')))).obj(),
    nodes: [china('nodeA'), chinaAz1('nodeB'), india('nodeC')],
    pods: [
      existing('bar', 'nodeA', { foo: 'bar' }, 'NS1').obj(),
      existing('other', 'nodeC', {}, 'NS2').with(antiAffinity('region', expressions(inValues('foo', '123')))).obj(),
      existing('bar-elsewhere', 'nodeC', { foo: 'bar' }, 'NS2').obj(),
    ],
    want: {
      nodeA: [antiConflict(conflict(term(0, 'region', 'foo in (bar)', ['NS1']), 'China', ref('bar', 'nodeA', 'NS1')))],
      nodeB: [antiConflict(conflict(term(0, 'region', 'foo in (bar)', ['NS1']), 'China', ref('bar', 'nodeA', 'NS1')))],
      nodeC: [],
    },
  },
  {
    name: "an existing pod's anti-affinity term whose topologyKey no node has blocks nothing",
    pod: pod('p').labels({ foo: '' }).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
    pods: [existing('e', 'nodeA', {}).with(antiAffinity('invalid-node-label', expressions(exists('foo')))).obj()],
    want: { nodeA: [], nodeB: [] },
  },
  {
    name: "the incoming pod's anti-affinity needs the topologyKey as well as a selected pod",
    pod: pod('p').with(antiAffinity('invalid-node-label', expressions(exists('foo')))).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
    pods: [existing('foo', 'nodeA', { foo: '' }).obj()],
    want: { nodeA: [], nodeB: [] },
  },
  {
    name: "the incoming pod violates existing pods' anti-affinity on every node, through different terms",
    pod: pod('p').labels({ foo: '', bar: '' }).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [
      existing('e1', 'nodeA', {}).with(antiAffinity('zone', expressions(exists('foo')))).obj(),
      existing('e2', 'nodeA', {}).with(antiAffinity('region', expressions(exists('bar')))).obj(),
    ],
    want: {
      nodeA: [existingConflict({ pod: ref('e1', 'nodeA'), term: term(0, 'zone', 'foo'), domain: 'z1' }, { pod: ref('e2', 'nodeA'), term: term(0, 'region', 'bar'), domain: 'r1' })],
      nodeB: [existingConflict({ pod: ref('e2', 'nodeA'), term: term(0, 'region', 'bar'), domain: 'r1' })],
    },
  },
  {
    name: "the incoming pod's anti-affinity is violated on every node, by different terms",
    pod: pod('p').with(antiAffinity('zone', expressions(exists('foo')))).with(antiAffinity('region', expressions(exists('bar')))).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('foo', 'nodeA', { foo: '' }).obj(), existing('bar', 'nodeB', { bar: '' }).obj()],
    want: {
      nodeA: [antiConflict(conflict(term(0, 'zone', 'foo'), 'z1', ref('foo', 'nodeA')), conflict(term(1, 'region', 'bar'), 'r1', ref('bar', 'nodeB')))],
      nodeB: [antiConflict(conflict(term(1, 'region', 'bar'), 'r1', ref('bar', 'nodeB')))],
    },
  },
  {
    name: "an existing pod's anti-affinity counts only terms whose selector and topologyKey both match",
    pod: pod('p').labels({ foo: '', bar: '' }).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('e', 'nodeA', {}).with(antiAffinity('invalid-node-label', expressions(exists('foo')))).with(antiAffinity('zone', expressions(exists('bar')))).obj()],
    want: { nodeA: [existingConflict({ pod: ref('e', 'nodeA'), term: term(1, 'zone', 'bar'), domain: 'z1' })], nodeB: [] },
  },
  {
    name: 'affinity terms must all match the same pod: two pods matching one term each do not satisfy it',
    pod: pod('p').with(affinity('region', expressions(exists('foo')))).with(affinity('zone', expressions(exists('bar')))).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('pod1', 'nodeA', { foo: '' }).obj(), existing('pod2', 'nodeB', { bar: '' }).obj()],
    want: {
      nodeA: [
        unmatched([
          { term: term(0, 'region', 'foo'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 },
          { term: term(1, 'zone', 'bar'), domain: 'z1', elsewhere: [], elsewhereDomains: 0 },
        ]),
      ],
      nodeB: [
        unmatched([
          { term: term(0, 'region', 'foo'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 },
          { term: term(1, 'zone', 'bar'), domain: 'z2', elsewhere: [], elsewhereDomains: 0 },
        ]),
      ],
    },
  },
  {
    name: 'affinity terms all matched by one pod are satisfied on every node sharing both its region and zone',
    pod: pod('p').with(affinity('region', expressions(exists('foo')))).with(affinity('zone', expressions(exists('bar')))).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1'), rz('nodeC', 'r1', 'z2')],
    pods: [existing('pod1', 'nodeA', { foo: '', bar: '' }).obj()],
    want: {
      nodeA: [],
      nodeB: [],
      nodeC: [unmatched([{ term: term(1, 'zone', 'bar'), domain: 'z2', elsewhere: [{ domain: 'z1', pods: 1 }], elsewhereDomains: 1 }], [ref('pod1', 'nodeA')])],
    },
  },
  {
    name: 'a terminating pod still counts for anti-affinity',
    pod: pod('p').with(antiAffinity('hostname', { app: 'web' })).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
    pods: [existing('web-0', 'nodeA', { app: 'web' }).with(terminating).obj()],
    want: { nodeA: [antiConflict(conflict(term(0, 'hostname', 'app=web'), 'nodeA', ref('web-0', 'nodeA')))], nodeB: [] },
  },
  {
    name: 'affinity and anti-affinity failures are both reported, affinity first',
    pod: pod('p').with(affinity('zone', { app: 'db' })).with(antiAffinity('region', { app: 'web' })).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z2')],
    pods: [existing('db-0', 'nodeA', { app: 'db' }).obj(), existing('web-0', 'nodeA', { app: 'web' }).obj()],
    want: {
      nodeA: [antiConflict(conflict(term(0, 'region', 'app=web'), 'r1', ref('web-0', 'nodeA')))],
      nodeB: [
        unmatched([{ term: term(0, 'zone', 'app=db'), domain: 'z2', elsewhere: [{ domain: 'z1', pods: 1 }], elsewhereDomains: 1 }], [ref('db-0', 'nodeA')]),
        antiConflict(conflict(term(0, 'region', 'app=web'), 'r1', ref('web-0', 'nodeA'))),
      ],
    },
  },
];

const labelKeys: FilterCase[] = [
  {
    name: 'matchLabelKeys narrow anti-affinity to pods with the same value of the key',
    pod: pod('p').labels({ app: 'web', rev: 'v2' }).with(antiAffinity('hostname', { app: 'web' }, { matchLabelKeys: ['rev'] })).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
    pods: [existing('web-v1', 'nodeA', { app: 'web', rev: 'v1' }).obj(), existing('web-v2', 'nodeB', { app: 'web', rev: 'v2' }).obj()],
    want: { nodeA: [], nodeB: [antiConflict(conflict(term(0, 'hostname', 'app=web,rev in (v2)'), 'nodeB', ref('web-v2', 'nodeB')))] },
  },
  {
    name: 'mismatchLabelKeys keep a tenant off nodes where another tenant runs',
    pod: pod('p').labels({ tenant: 'a' }).with(antiAffinity('hostname', expressions(exists('tenant')), { mismatchLabelKeys: ['tenant'] })).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
    pods: [existing('a-0', 'nodeA', { tenant: 'a' }).obj(), existing('b-0', 'nodeB', { tenant: 'b' }).obj()],
    want: { nodeA: [], nodeB: [antiConflict(conflict(term(0, 'hostname', 'tenant,tenant notin (a)'), 'nodeB', ref('b-0', 'nodeB')))] },
  },
  {
    name: "an existing pod's matchLabelKeys are read from its own labels",
    pod: pod('p').labels({ app: 'web', rev: 'v2' }).obj(),
    nodes: [rz('nodeA', 'r1', 'z1'), rz('nodeB', 'r1', 'z1')],
    pods: [
      existing('web-v1', 'nodeA', { app: 'web', rev: 'v1' }).with(antiAffinity('hostname', { app: 'web' }, { matchLabelKeys: ['rev'] })).obj(),
      existing('web-v2', 'nodeB', { app: 'web', rev: 'v2' }).with(antiAffinity('hostname', { app: 'web' }, { matchLabelKeys: ['rev'] })).obj(),
    ],
    want: { nodeA: [], nodeB: [existingConflict({ pod: ref('web-v2', 'nodeB'), term: term(0, 'hostname', 'app=web,rev in (v2)'), domain: 'nodeB' })] },
  },
];

describe('InterPodAffinity', () => {
  describe.each([
    ['one node', singleNode],
    ['namespaces', namespaces],
    ['several nodes', multipleNodes],
    ['matchLabelKeys and mismatchLabelKeys', labelKeys],
  ])('%s', (_title, cases) => {
    it.each(cases)('$name', ({ pod: target, nodes, pods, want }) => {
      expect(verdicts(rule, target, nodes, { pods })).toEqual(want);
    });
  });

  describe('namespace labels', () => {
    const ns = (name: string, labels: Record<string, string> = {}): NamespaceRecord => ({ metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } });
    const namespacesGap: Gap = { collection: 'namespaces', cause: 'forbidden', permission: { verb: 'list', resource: 'namespaces', scope: 'cluster' } };
    // An existing pod's required anti-affinity against app=web in namespaces labelled env=prod.
    const db = () => existing('db-0', 'node1', { app: 'db' }, 'data').with(antiAffinity('hostname', { app: 'web' }, { namespaceSelector: { matchLabels: { env: 'prod' } } })).obj();
    const web = () => pod('web-0', 'shop').labels({ app: 'web' }).obj();
    const hosts = () => [n('node1', { hostname: 'node1' }), n('node2', { hostname: 'node2' })];
    const run = (target: ReturnType<typeof web>, pods: ReturnType<typeof db>[], namespaces: NamespaceRecord[], gaps: Gap[] = []) => {
      const ctx = buildContext(snapshotOf({ nodes: hosts(), pods: [...pods, target], namespaces }, gaps), target);
      return Object.fromEntries(ctx.nodes.map((facts) => [facts.name, { reasons: rule.filter(ctx, facts), notChecked: rule.notCheckedOn?.(ctx, facts) }]));
    };
    const dbTerm = (extra: Partial<AffinityTermRef> = {}) => term(0, 'hostname', 'app=web', [], { namespaceSelector: 'env=prod', ...extra });

    it("an existing pod's namespaceSelector selects the pending pod's namespace by its labels", () => {
      expect(run(web(), [db()], [ns('shop', { env: 'prod' }), ns('data')])).toEqual({
        node1: { reasons: [existingConflict({ pod: ref('db-0', 'node1', 'data'), term: dbTerm({ namespacesSelected: ['shop'] }), domain: 'node1' })], notChecked: undefined },
        node2: { reasons: [], notChecked: undefined },
      });
    });

    it("an existing pod's namespaceSelector does not select a namespace without the label", () => {
      expect(run(web(), [db()], [ns('shop', { env: 'staging' }), ns('data')])).toEqual({ node1: { reasons: [], notChecked: undefined }, node2: { reasons: [], notChecked: undefined } });
    });

    it("the pending pod's namespace unread leaves only the nodes the term reaches not checked, naming the namespace", () => {
      expect(run(web(), [db()], [], [namespacesGap])).toEqual({
        node1: { reasons: [], notChecked: { kind: 'namespaceLabelsUnread', namespace: 'shop', namespaceSelectors: ['env=prod'] } },
        node2: { reasons: [], notChecked: undefined },
      });
    });

    it('a term whose pod labels do not match needs no namespace', () => {
      const other = pod('api-0', 'shop').labels({ app: 'api' }).obj();
      expect(run(other, [db()], [], [namespacesGap])).toEqual({ node1: { reasons: [], notChecked: undefined }, node2: { reasons: [], notChecked: undefined } });
    });

    it("the pending pod's own anti-affinity resolves its namespaceSelector against the cluster's namespaces", () => {
      const target = pod('web-1', 'shop').labels({ app: 'web' }).with(antiAffinity('hostname', { app: 'db' }, { namespaceSelector: { matchLabels: { tier: 'data' } } })).obj();
      const plain = existing('db-0', 'node1', { app: 'db' }, 'data').obj();
      const own = (extra: Partial<AffinityTermRef>) => term(0, 'hostname', 'app=db', [], { namespaceSelector: 'tier=data', ...extra });
      expect(run(target, [plain], [ns('shop'), ns('data', { tier: 'data' })])).toEqual({
        node1: { reasons: [antiConflict(conflict(own({ namespacesSelected: ['data'] }), 'node1', ref('db-0', 'node1', 'data')))], notChecked: undefined },
        node2: { reasons: [], notChecked: undefined },
      });
      // Unreadable namespaces: the term selects nothing it can prove, says so, and the rule needs them.
      expect(run(target, [plain], [], [namespacesGap])).toEqual({ node1: { reasons: [], notChecked: undefined }, node2: { reasons: [], notChecked: undefined } });
      expect(rule.needs(contextFor(target, []).pod)).toEqual(['nodes', 'pods', 'namespaces']);
    });
  });

  it('lists the first five conflicting pods and counts the rest', () => {
    const pods = Array.from({ length: 7 }, (_, i) => existing(`web-${i}`, 'nodeA', { app: 'web' }).obj());
    const got = verdicts(rule, pod('p').with(antiAffinity('zone', { app: 'web' })).obj(), [rz('nodeA', 'r1', 'z1')], { pods });
    expect(got).toEqual({
      nodeA: [
        antiConflict({
          term: term(0, 'zone', 'app=web'),
          domain: 'z1',
          pods: [0, 1, 2, 3, 4].map((i) => ref(`web-${i}`, 'nodeA')),
          podCount: 7,
        }),
      ],
    });
  });

  it('shows the first ten domains where matching pods run and counts them all', () => {
    const zones = Array.from({ length: 12 }, (_, i) => `z${String(i).padStart(2, '0')}`);
    const nodes = zones.map((z) => rz(`node-${z}`, 'r1', z));
    const pods = zones.slice(1).map((z) => existing(`db-${z}`, `node-${z}`, { app: 'db' }).obj());
    const got = verdicts(rule, pod('p').with(affinity('zone', { app: 'db' })).obj(), nodes, { pods });
    const shown = zones.slice(1, 11).map((z) => ({ domain: z, pods: 1 }));
    const matching = zones.slice(1, 6).map((z) => ref(`db-${z}`, `node-${z}`));
    expect(got['node-z00']).toEqual([
      {
        plugin: 'InterPodAffinity',
        code: 'UnschedulableAndUnresolvable',
        detail: {
          kind: 'podAffinityUnmatched',
          terms: [{ term: term(0, 'zone', 'app=db'), domain: 'z00', elsewhere: shown, elsewhereDomains: 11 }],
          matchingPods: matching,
          matchingPodCount: 11,
          selfMatch: false,
        },
      },
    ]);
    expect(got['node-z05']).toEqual([]);
  });

  // A fix's replay judges a patched copy of the context (fixes/patch.ts); the PreFilter state of
  // the original is reused where the replay leaves what it reads the same.
  describe("in a fix's replay", () => {
    const target = () => pod('p').with(antiAffinity('zone', { app: 'web' })).obj();
    const cluster = () => [node('node1').labels({ zone: 'z1', hostname: 'node1' }).cordon().obj(), n('node2', { zone: 'z2', hostname: 'node2' })];
    const web = () => existing('web-0', 'node1', { app: 'web' }).obj();
    const onEachNode = (ctx: ReturnType<typeof contextFor>) => Object.fromEntries(ctx.nodes.map((f) => [f.name, rule.filter(ctx, f)]));
    const conflictOn = (nodeName: string, zone: string) => [antiConflict(conflict(term(0, 'zone', 'app=web'), zone, ref('web-0', nodeName)))];

    it('an uncordoned node keeps the answer, its pods and labels being the same', () => {
      const ctx = contextFor(target(), cluster(), { pods: [web()] });
      rule.preFilter?.(ctx);
      const uncordoned = patchedContext(ctx, [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: 'node1' }]);
      expect(uncordoned.nodes[0]).not.toBe(ctx.nodes[0]);
      rule.preFilter?.(uncordoned);
      expect(onEachNode(uncordoned)).toEqual({ node1: conflictOn('node1', 'z1'), node2: [] });
    });

    it('a relabelled node, or one whose pods preemption removes, is counted again', () => {
      const ctx = contextFor(target(), cluster(), { pods: [web()] });
      rule.preFilter?.(ctx);
      expect(onEachNode(ctx)).toEqual({ node1: conflictOn('node1', 'z1'), node2: [] });
      // node1 moved into node2's zone: the pod there now shares a domain with node2.
      const moved = patchedContext(ctx, [{ kind: 'labelNodes', cause: 'NodeAffinity', nodes: ['node1'], set: { zone: 'z2' }, remove: [] }]);
      rule.preFilter?.(moved);
      expect(onEachNode(moved)).toEqual({ node1: conflictOn('node1', 'z2'), node2: conflictOn('node1', 'z2') });
      const preempted = patchedContext(ctx, [{ kind: 'preempt', cause: 'InterPodAffinity', node: 'node1', victims: [{ namespace: 'default', name: 'web-0', priority: 0 }], budgetsKnown: true }]);
      rule.preFilter?.(preempted);
      expect(onEachNode(preempted)).toEqual({ node1: [], node2: [] });
    });
  });

  it('always needs nodes and pods: existing pods’ anti-affinity applies to any pod', () => {
    expect(rule.needs(contextFor(pod('p').obj(), []).pod)).toEqual(['nodes', 'pods']);
  });

  describe('messages', () => {
    it('names the term, the domain and where matching pods are', () => {
      expect(
        messages.podAffinityUnmatched({
          kind: 'podAffinityUnmatched',
          terms: [{ term: term(0, 'region', 'foo in (bar)'), domain: 'India', elsewhere: [{ domain: 'China', pods: 1 }], elsewhereDomains: 1 }],
          matchingPods: [ref('p1', 'node1')],
          matchingPodCount: 1,
          selfMatch: false,
        }),
      ).toBe('required pod affinity term 1 (pods foo in (bar) in namespace default, topologyKey region): no matching pod in region=India; matching pods run in region=China (1) (pods matching all terms: default/p1 on node1)');
    });

    it('says why the first pod of a group cannot schedule', () => {
      expect(
        messages.podAffinityUnmatched({
          kind: 'podAffinityUnmatched',
          terms: [{ term: term(0, 'region', 'service notin (securityscan)'), domain: 'r1', elsewhere: [], elsewhereDomains: 0 }],
          matchingPods: [],
          matchingPodCount: 0,
          selfMatch: false,
        }),
      ).toBe(
        'required pod affinity term 1 (pods service notin (securityscan) in namespace default, topologyKey region): no matching pod in region=r1; no pod matches all the affinity terms anywhere, and this pod does not match its own terms, so it cannot be the first of its group',
      );
    });

    it('names the missing topology label once per key', () => {
      expect(messages.podAffinityLabelMissing({ kind: 'podAffinityLabelMissing', terms: [term(0, 'zone', 'foo in (bar)'), term(1, 'zone', 'service in (securityscan)')] })).toBe(
        'node has no label "zone", needed by required pod affinity term 1 (pods foo in (bar) in namespace default, topologyKey zone); term 2 (pods service in (securityscan) in namespace default, topologyKey zone)',
      );
    });

    it('names the pods an anti-affinity term selects in the domain', () => {
      expect(messages.podAntiAffinityConflict({ kind: 'podAntiAffinityConflict', terms: [conflict(term(0, 'hostname', 'app=web'), 'nodeA', ref('web-0', 'nodeA'))] })).toBe(
        'required pod anti-affinity term 1 (pods app=web in namespace default, topologyKey hostname): hostname=nodeA already runs 1 matching pod: default/web-0 on nodeA',
      );
    });

    it('names the existing pod whose anti-affinity selects this pod, and what its namespaceSelector selected', () => {
      expect(
        messages.existingPodAntiAffinityConflict({
          kind: 'existingPodAntiAffinityConflict',
          conflicts: [{ pod: ref('cache-0', 'nodeA', 'shop'), term: term(0, 'zone', 'app=web', [], { namespaceSelector: 'team in (a)' }), domain: 'z1' }],
          conflictCount: 1,
        }),
      ).toBe('shop/cache-0 on nodeA has anti-affinity term 1 (pods app=web by namespaceSelector team in (a), topologyKey zone) matching this pod, and this node shares zone=z1 with it');
      expect(
        messages.podAntiAffinityConflict({ kind: 'podAntiAffinityConflict', terms: [conflict(term(0, 'hostname', 'app=db', [], { namespaceSelector: 'tier=data', namespacesSelected: ['data'] }), 'nodeA', ref('db-0', 'nodeA', 'data'))] }),
      ).toBe('required pod anti-affinity term 1 (pods app=db by namespaceSelector tier=data (selects data), topologyKey hostname): hostname=nodeA already runs 1 matching pod: data/db-0 on nodeA');
    });
  });
});
