// The scheduler's FailedScheduling / PodScheduled messages, one case per wording per release
// (see src/engine/scheduler-message/catalog.ts for the sources). Messages marked "verbatim" are
// copied from a real control plane or a public report; the others are built in the shape the
// named release prints (framework/types.go FitError.Error of that release).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countsByPlugin, parseSchedulerMessage as parseWith, type MessageSource, type ParsedReason } from '../../src/engine/scheduler-message/index.js';
import { ruleSet } from '../../src/messages/registry.js';

// Messages are read with the registry's wordings (src/messages/registry.ts).
const parseSchedulerMessage = (message: string, from?: MessageSource) => parseWith(ruleSet.catalog, message, from);

const r = (count: number, text: string, plugin?: string, detail?: Record<string, string>): ParsedReason =>
  ({ count, text, ...(plugin ? { plugin } : {}), ...(detail ? { detail } : {}) }) as ParsedReason;

// The tails of each era, for messages built in a release's shape.
const v124 = (n: number) => ` preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
const v125 = (n: number) => `${v124(n)}.`; // the doubled period, v1.25 to v1.27 (until PR #117588)
const v134 = (n: number) => ` no new claims to deallocate,${v124(n)}`;

describe('DESIGN.md: messages seen from a real v1.36 control plane (verbatim)', () => {
  it('reads taints and node affinity, the DRA words and preemption', () => {
    const text =
      "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    expect(parseSchedulerMessage(text)).toEqual({
      kind: 'nodeCounts',
      totalNodes: 3,
      reasons: [r(1, 'node(s) had untolerated taint(s)', 'TaintToleration'), r(2, "node(s) didn't match Pod's node affinity/selector", 'NodeAffinity')],
      postFilter: ['no new claims to deallocate'],
      preemption: { text: '0/3 nodes are available: 3 Preemption is not helpful for scheduling', notHelpful: 3 },
      truncated: false,
      unknownReasons: [],
    });
  });

  it('reads Too many pods as the pods resource, and both preemption counts', () => {
    const text =
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Too many pods. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
    const parsed = parseSchedulerMessage(text);
    expect(parsed.reasons).toEqual([r(1, 'node(s) had untolerated taint(s)', 'TaintToleration'), r(2, 'Too many pods', 'NodeResourcesFit', { resource: 'pods' })]);
    expect(parsed.preemption).toEqual({
      text: '0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod',
      notHelpful: 1,
      noVictims: 2,
    });
    expect(countsByPlugin(parsed)).toEqual(new Map([['TaintToleration', 1], ['NodeResourcesFit', 2]]));
  });
});

describe('v1.37 (verbatim from a real v1.37.2 control plane, DESIGN.md)', () => {
  const placement = '0/2 nodes are available: 2 Insufficient cpu. preemption: found a potential placement for pod on node worker-1, preempting 1 victims';

  it.each(['condition', 'event'] as const)('a successful preemption ends without a period, and is whole (%s)', (from) => {
    expect(parseSchedulerMessage(placement, from)).toEqual({
      kind: 'nodeCounts',
      totalNodes: 2,
      reasons: [r(2, 'Insufficient cpu', 'NodeResourcesFit', { resource: 'cpu' })],
      preemption: { text: 'found a potential placement for pod on node worker-1, preempting 1 victims', placement: { node: 'worker-1', victims: 1 } },
      truncated: false,
      unknownReasons: [],
    });
  });

  it('no "no new claims to deallocate" before the preemption words', () => {
    const parsed = parseSchedulerMessage(
      "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    expect(parsed.postFilter).toBeUndefined();
    expect(parsed.preemption?.notHelpful).toBe(3);
    expect(countsByPlugin(parsed)).toEqual(new Map([['TaintToleration', 1], ['NodeAffinity', 2]]));
  });

  it('unchanged: an unbound immediate claim, then "not found"', () => {
    const parsed = parseSchedulerMessage('0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found');
    expect(parsed.kind).toBe('preFilter');
    expect(parsed.postFilter).toEqual(['not found']);
    expect(parsed.truncated).toBe(false);
  });

  it('unchanged: preemptionPolicy=Never', () => {
    const parsed = parseSchedulerMessage('0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.');
    expect(parsed.preemption).toEqual({ text: 'not eligible due to preemptionPolicy=Never' });
  });
});

// The same scheduling failure (2 nodes short of cpu, 1 tainted) in the shape each release gives
// it (framework/types.go FitError.Error and the PostFilter words of that release).
const byRelease: [string, string][] = [
  ['v1.20-v1.23: no preemption words', '0/3 nodes are available: 1 node(s) had taint {dedicated: gpu}, that the pod didn\'t tolerate, 2 Insufficient cpu.'],
  ['v1.24: preemption counted per node', `0/3 nodes are available: 1 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate, 2 Insufficient cpu.${v124(3)}`],
  ['v1.25-v1.27: the doubled period', `0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.${v125(3)}`],
  ['v1.28-v1.33: one period again', `0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.${v124(3)}`],
  ['v1.34.0: the DRA words before preemption', `0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.${v134(3)}`],
  ['v1.35-v1.36: taints no longer named', `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.${v134(3)}`],
  ['v1.37: no DRA words', `0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.${v124(3)}`],
  ['v1.37: preemption found a node', '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: found a potential placement for pod on node worker-2, preempting 2 victims'],
];

describe('one failure in the shape of each release, v1.20 to v1.37', () => {
  it.each(byRelease)('%s', (_name, text) => {
    for (const from of ['condition', 'event'] as const) {
      const parsed = parseSchedulerMessage(text, from);
      expect(parsed.truncated).toBe(false);
      expect(parsed.unknownReasons).toEqual([]);
      expect(countsByPlugin(parsed)).toEqual(new Map([['TaintToleration', 1], ['NodeResourcesFit', 2]]));
    }
  });
});

// One filter wording per release that prints it: [name, message, the reason it gives].
const filterWordings: [string, string, ParsedReason][] = [
  ['v1.20: a cordoned node', '0/2 nodes are available: 2 node(s) were unschedulable.', r(2, 'node(s) were unschedulable', 'NodeUnschedulable')],
  ['v1.36: a cordoned node', `0/2 nodes are available: 2 node(s) were unschedulable.${v134(2)}`, r(2, 'node(s) were unschedulable', 'NodeUnschedulable')],
  ['v1.21: a node with no spec', '0/1 nodes are available: 1 node(s) had unknown conditions.', r(1, 'node(s) had unknown conditions', 'NodeUnschedulable')],
  ['v1.30: spec.nodeName names another node', `0/3 nodes are available: 3 node(s) didn't match the requested node name.${v124(3)}`, r(3, "node(s) didn't match the requested node name", 'NodeName')],
  ['v1.17: the HostName predicate', "0/2 nodes are available: 2 node(s) didn't match the requested hostname.", r(2, "node(s) didn't match the requested hostname", 'NodeName')],
  ['v1.17: taints, no key named', "0/2 nodes are available: 2 node(s) had taints that the pod didn't tolerate.", r(2, "node(s) had taints that the pod didn't tolerate", 'TaintToleration')],
  [
    'v1.20: a taint named in braces, followed by a comma',
    "0/2 nodes are available: 2 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate.",
    r(2, "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate", 'TaintToleration', { key: 'dedicated', value: 'gpu' }),
  ],
  [
    'v1.24: a taint with an empty value, before preemption words',
    `0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate.${v124(1)}`,
    r(1, "node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate", 'TaintToleration', { key: 'node.kubernetes.io/not-ready', value: '' }),
  ],
  [
    'v1.25: an untolerated taint named in braces',
    `0/2 nodes are available: 2 node(s) had untolerated taint {CriticalAddonsOnly: true}.${v125(2)}`,
    r(2, 'node(s) had untolerated taint {CriticalAddonsOnly: true}', 'TaintToleration', { key: 'CriticalAddonsOnly', value: 'true' }),
  ],
  ['v1.35: untolerated taint(s), nothing named', `0/2 nodes are available: 2 node(s) had untolerated taint(s).${v134(2)}`, r(2, 'node(s) had untolerated taint(s)', 'TaintToleration')],
  ['v1.20: nodeSelector said "node selector"', "0/2 nodes are available: 2 node(s) didn't match node selector.", r(2, "node(s) didn't match node selector", 'NodeAffinity')],
  ['v1.21: "Pod\'s node affinity"', "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity.", r(2, "node(s) didn't match Pod's node affinity", 'NodeAffinity')],
  ['v1.22: "Pod\'s node affinity/selector"', "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.", r(2, "node(s) didn't match Pod's node affinity/selector", 'NodeAffinity')],
  [
    'v1.28: the profile\'s added affinity',
    `0/2 nodes are available: 2 node(s) didn't match scheduler-enforced node affinity.${v124(2)}`,
    r(2, "node(s) didn't match scheduler-enforced node affinity", 'NodeAffinity'),
  ],
  [
    'v1.29: a host port in use',
    `0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports.${v124(2)}`,
    r(2, "node(s) didn't have free ports for the requested pod ports", 'NodePorts'),
  ],
  ['v1.17: pods counted as a resource', '0/1 nodes are available: 1 Insufficient pods.', r(1, 'Insufficient pods', 'NodeResourcesFit', { resource: 'pods' })],
  [
    'v1.31: ephemeral storage',
    `0/1 nodes are available: 1 Insufficient ephemeral-storage.${v124(1)}`,
    r(1, 'Insufficient ephemeral-storage', 'NodeResourcesFit', { resource: 'ephemeral-storage' }),
  ],
  ['v1.26: a GCE PD or EBS volume in use', `0/1 nodes are available: 1 node(s) had no available disk.${v125(1)}`, r(1, 'node(s) had no available disk', 'VolumeRestrictions')],
  [
    'v1.29: a ReadWriteOncePod claim in use',
    `0/1 nodes are available: 1 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode.${v124(1)}`,
    r(1, 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode', 'VolumeRestrictions'),
  ],
  ['v1.27: the CSI volume limit', `0/1 nodes are available: 1 node(s) exceed max volume count.${v125(1)}`, r(1, 'node(s) exceed max volume count', 'NodeVolumeLimits')],
  [
    'v1.23: no PV to bind',
    "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind.",
    r(2, "node(s) didn't find available persistent volumes to bind", 'VolumeBinding'),
  ],
  ['v1.32: "volume node affinity conflict"', `0/2 nodes are available: 2 node(s) had volume node affinity conflict.${v124(2)}`, r(2, 'node(s) had volume node affinity conflict', 'VolumeBinding')],
  [
    'v1.33: "didn\'t match PersistentVolume\'s node affinity"',
    `0/2 nodes are available: 2 node(s) didn't match PersistentVolume's node affinity.${v124(2)}`,
    r(2, "node(s) didn't match PersistentVolume's node affinity", 'VolumeBinding'),
  ],
  ['v1.24: CSI storage capacity', `0/1 nodes are available: 1 node(s) did not have enough free storage.${v124(1)}`, r(1, 'node(s) did not have enough free storage', 'VolumeBinding')],
  [
    'v1.28: a claim bound to a PV that is gone',
    `0/1 nodes are available: 1 node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s).${v124(1)}`,
    r(1, 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)', 'VolumeBinding'),
  ],
  ['v1.22: a zonal volume in another zone', '0/3 nodes are available: 3 node(s) had no available volume zone.', r(3, 'node(s) had no available volume zone', 'VolumeZone')],
  [
    'v1.30: a topology spread constraint',
    `0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.${v124(3)}`,
    r(3, "node(s) didn't match pod topology spread constraints", 'PodTopologySpread'),
  ],
  [
    'v1.30: a spread node missing the topology label, in parentheses',
    `0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints (missing required label).${v124(3)}`,
    r(3, "node(s) didn't match pod topology spread constraints (missing required label)", 'PodTopologySpread'),
  ],
  ['v1.22: pod affinity', "0/3 nodes are available: 3 node(s) didn't match pod affinity rules.", r(3, "node(s) didn't match pod affinity rules", 'InterPodAffinity')],
  ['v1.22: pod anti-affinity', "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.", r(3, "node(s) didn't match pod anti-affinity rules", 'InterPodAffinity')],
  [
    'v1.22: an existing pod\'s anti-affinity',
    "0/3 nodes are available: 3 node(s) didn't satisfy existing pods anti-affinity rules.",
    r(3, "node(s) didn't satisfy existing pods anti-affinity rules", 'InterPodAffinity'),
  ],
  ['v1.31: DRA cannot allocate', `0/2 nodes are available: 2 cannot allocate all claims.${v124(2)}`, r(2, 'cannot allocate all claims', 'DynamicResources')],
  ['v1.27: an allocated claim elsewhere', `0/2 nodes are available: 2 resourceclaim not available on the node.${v125(2)}`, r(2, 'resourceclaim not available on the node', 'DynamicResources')],
  [
    'v1.28: the DRA driver found the node unsuitable, in parentheses',
    `0/2 nodes are available: 2 resourceclaim cannot be allocated for the node (unsuitable).${v124(2)}`,
    r(2, 'resourceclaim cannot be allocated for the node (unsuitable)', 'DynamicResources'),
  ],
  ['v1.26: nodes a PreFilterResult left out', `0/2 nodes are available: 2 node is filtered out by the prefilter result.${v125(2)}`, r(2, 'node is filtered out by the prefilter result')],
  [
    'v1.32: the plugin that left nodes out, named in brackets',
    `0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity].${v124(2)}`,
    r(2, "node(s) didn't satisfy plugin(s) [NodeAffinity]", 'NodeAffinity', { plugins: 'NodeAffinity' }),
  ],
];

describe('each filter wording, in the shape of a release that prints it', () => {
  it.each(filterWordings)('%s', (_name, text, reason) => {
    const parsed = parseSchedulerMessage(text);
    expect(parsed.reasons).toEqual([reason]);
    expect(parsed.kind).toBe('nodeCounts');
    expect(parsed.unknownReasons).toEqual([]);
    expect(parsed.truncated).toBe(false);
  });
});

// One PreFilter wording per release: [name, message, the text and plugin it names].
const preFilterWordings: [string, string, { text: string; plugin?: string; detail?: Record<string, string> }][] = [
  ['v1.36: unbound immediate claims', `0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.${v134(3)}`, { text: 'pod has unbound immediate PersistentVolumeClaims', plugin: 'VolumeBinding' }],
  [
    'v1.36: a claim that does not exist, named in quotes',
    `0/3 nodes are available: persistentvolumeclaim "data" not found.${v134(3)}`,
    { text: 'persistentvolumeclaim "data" not found', plugin: 'VolumeRestrictions', detail: { claim: 'data' } },
  ],
  [
    'v1.30: a claim being deleted',
    `0/3 nodes are available: persistentvolumeclaim "data" is being deleted.${v124(3)}`,
    { text: 'persistentvolumeclaim "data" is being deleted', plugin: 'VolumeBinding', detail: { claim: 'data' } },
  ],
  [
    'v1.30: a lost claim',
    `0/3 nodes are available: persistentvolumeclaim "data" bound to non-existent persistentvolume "pv-1".${v124(3)}`,
    { text: 'persistentvolumeclaim "data" bound to non-existent persistentvolume "pv-1"', plugin: 'VolumeBinding', detail: { claim: 'data', volume: 'pv-1' } },
  ],
  [
    'v1.27: an ephemeral volume not created yet',
    `0/3 nodes are available: waiting for ephemeral volume controller to create the persistentvolumeclaim "web-0-scratch".${v125(3)}`,
    { text: 'waiting for ephemeral volume controller to create the persistentvolumeclaim "web-0-scratch"', plugin: 'VolumeBinding', detail: { claim: 'web-0-scratch' } },
  ],
  ['v1.29: matchFields terms with no node in common', `0/3 nodes are available: pod affinity terms conflict.${v124(3)}`, { text: 'pod affinity terms conflict', plugin: 'NodeAffinity' }],
  ['v1.31: a DRA claim in use', `0/3 nodes are available: resourceclaim in use.${v124(3)}`, { text: 'resourceclaim in use', plugin: 'DynamicResources' }],
  [
    'v1.33: a missing device class',
    `0/3 nodes are available: request gpu: device class gpu.example.com does not exist.${v124(3)}`,
    { text: 'request gpu: device class gpu.example.com does not exist', plugin: 'DynamicResources', detail: { request: 'gpu', deviceClass: 'gpu.example.com' } },
  ],
  [
    'v1.34: a DRA claim that does not exist',
    `0/3 nodes are available: resourceclaim.resource.k8s.io "gpu-claim" not found.${v134(3)}`,
    { text: 'resourceclaim.resource.k8s.io "gpu-claim" not found', plugin: 'DynamicResources', detail: { claim: 'gpu-claim' } },
  ],
  [
    'v1.30: PreFilterResults with no node in common',
    `0/3 nodes are available: node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] simultaneously.${v124(3)}`,
    { text: "node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] simultaneously", detail: { plugins: 'NodeAffinity VolumeBinding' } },
  ],
];

describe('each PreFilter wording, in the v1.25+ shape that names it once', () => {
  it.each(preFilterWordings)('%s', (_name, text, preFilterReason) => {
    const parsed = parseSchedulerMessage(text);
    expect(parsed.kind).toBe('preFilter');
    expect(parsed.preFilterReason).toEqual(preFilterReason);
    expect(parsed.reasons).toEqual([]);
    expect(parsed.unknownReasons).toEqual([]);
    expect(countsByPlugin(parsed)).toEqual(new Map([[preFilterReason.plugin ?? '?', 3]]));
  });
});

describe('real messages from public reports (verbatim)', () => {
  it('v1.20 (kubernetes#100400): the generic affinity reason alone counts its node', () => {
    const parsed = parseSchedulerMessage("0/20 nodes are available: 1 node(s) didn't match pod affinity/anti-affinity, 19 node(s) didn't match node selector.");
    expect(parsed.reasons).toEqual([
      { ...r(1, "node(s) didn't match pod affinity/anti-affinity", 'InterPodAffinity'), companion: true },
      r(19, "node(s) didn't match node selector", 'NodeAffinity'),
    ]);
    expect(countsByPlugin(parsed)).toEqual(new Map([['InterPodAffinity', 1], ['NodeAffinity', 19]]));
  });

  it('v1.19-v1.20 (minio/directpv#100): a PreFilter rejection counted on every node', () => {
    const parsed = parseSchedulerMessage('0/4 nodes are available: 4 pod has unbound immediate PersistentVolumeClaims.');
    expect(parsed.kind).toBe('preFilter');
    expect(parsed.preFilterReason).toEqual({ text: 'pod has unbound immediate PersistentVolumeClaims', plugin: 'VolumeBinding' });
    expect(countsByPlugin(parsed)).toEqual(new Map([['VolumeBinding', 4]]));
  });

  it('<= v1.17 (kubernetes#120293): pod slots, hostname and two resources', () => {
    const parsed = parseSchedulerMessage(
      "0/254 nodes are available: 1 Too many pods, 154 node(s) didn't match the requested hostname, 33 Insufficient memory, 69 Insufficient cpu.",
    );
    expect(countsByPlugin(parsed)).toEqual(new Map([['NodeResourcesFit', 103], ['NodeName', 154]]));
  });

  it('v1.23 (kubernetes#108096): volume node affinity conflict', () => {
    const parsed = parseSchedulerMessage('0/1 nodes are available: 1 node(s) had volume node affinity conflict.');
    expect(parsed.reasons).toEqual([r(1, 'node(s) had volume node affinity conflict', 'VolumeBinding')]);
  });

  it('v1.24 (kubernetes#107775): a masked taint value, a comma inside the taint reason, preemptionPolicy=Never', () => {
    const parsed = parseSchedulerMessage(
      "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had taint {virtual-kubelet.io/provider: ***}, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector. preemption: not eligible due to preemptionPolicy=Never.",
    );
    expect(parsed.reasons).toEqual([
      r(1, 'Insufficient cpu', 'NodeResourcesFit', { resource: 'cpu' }),
      r(1, "node(s) had taint {virtual-kubelet.io/provider: ***}, that the pod didn't tolerate", 'TaintToleration', { key: 'virtual-kubelet.io/provider', value: '***' }),
      r(2, "node(s) didn't match Pod's node affinity/selector", 'NodeAffinity'),
    ]);
    expect(parsed.preemption).toEqual({ text: 'not eligible due to preemptionPolicy=Never' });
  });

  it('v1.25-v1.27 (kubernetes#123301): the doubled period after preemption', () => {
    const parsed = parseSchedulerMessage(
      '0/11 nodes are available: 10 Insufficient memory, 4 Insufficient cpu. preemption: 0/11 nodes are available: 11 No preemption victims found for incoming pod..',
    );
    expect(parsed.truncated).toBe(false);
    expect(parsed.preemption).toEqual({ text: '0/11 nodes are available: 11 No preemption victims found for incoming pod', noVictims: 11 });
    expect(countsByPlugin(parsed)).toEqual(new Map([['NodeResourcesFit', 14]]));
  });

  it('v1.25-v1.27: a missing claim named once, then the doubled period', () => {
    const parsed = parseSchedulerMessage(
      '0/3 nodes are available: persistentvolumeclaim "rc-definitely-missing-pvc" not found. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    expect(parsed.preFilterReason).toEqual({ text: 'persistentvolumeclaim "rc-definitely-missing-pvc" not found', plugin: 'VolumeRestrictions', detail: { claim: 'rc-definitely-missing-pvc' } });
    expect(parsed.preemption?.noVictims).toBe(3);
  });

  it('v1.2x: a host port, and nodes a PreFilterResult left out (DaemonSet pod)', () => {
    const parsed = parseSchedulerMessage(
      "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node is filtered out by the prefilter result. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    expect(countsByPlugin(parsed)).toEqual(new Map([['NodePorts', 1], ['?', 2]]));
    expect(parsed.unknownReasons).toEqual([]);
  });

  it('v1.33.2 (killercoda): two untolerated taints, each named', () => {
    const parsed = parseSchedulerMessage(
      '0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    expect(parsed.reasons.map((x) => x.detail)).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', value: '' },
      { key: 'node.kubernetes.io/unreachable', value: '' },
    ]);
    expect(countsByPlugin(parsed)).toEqual(new Map([['TaintToleration', 2]]));
  });

  it('v1.34.0: taints still named, with the DRA words', () => {
    const parsed = parseSchedulerMessage(
      '0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {spray: mortein}. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    expect(parsed.reasons[1]).toEqual(r(1, 'node(s) had untolerated taint {spray: mortein}', 'TaintToleration', { key: 'spray', value: 'mortein' }));
    expect(parsed.postFilter).toEqual(['no new claims to deallocate']);
  });

  it('v1.34+: DRA words before a preemption that is not eligible', () => {
    const parsed = parseSchedulerMessage('0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.');
    expect(parsed.postFilter).toEqual(['no new claims to deallocate']);
    expect(parsed.preemption).toEqual({ text: 'not eligible due to preemptionPolicy=Never' });
    expect(parsed.truncated).toBe(false);
  });

  it('v1.3x (kindnet DaemonSet): the plugin that left nodes out, named in brackets', () => {
    const parsed = parseSchedulerMessage(
      "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
    );
    expect(countsByPlugin(parsed)).toEqual(new Map([['NodeResourcesFit', 1], ['NodeAffinity', 1]]));
  });

  it('v1.3x DRA (line breaks of the paste joined): the DRA reason and "still not schedulable"', () => {
    const parsed = parseSchedulerMessage(
      "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
    expect(countsByPlugin(parsed)).toEqual(new Map([['DynamicResources', 1], ['NodeAffinity', 1]]));
    expect(parsed.postFilter).toEqual(['still not schedulable']);
  });
});

describe('several reasons for one node', () => {
  it('counts each insufficient resource, each with its resource name', () => {
    const parsed = parseSchedulerMessage(`0/3 nodes are available: 2 Insufficient cpu, 1 Insufficient memory, 1 Insufficient nvidia.com/gpu.${v134(3)}`);
    expect(parsed.reasons).toEqual([
      r(2, 'Insufficient cpu', 'NodeResourcesFit', { resource: 'cpu' }),
      r(1, 'Insufficient memory', 'NodeResourcesFit', { resource: 'memory' }),
      r(1, 'Insufficient nvidia.com/gpu', 'NodeResourcesFit', { resource: 'nvidia.com/gpu' }),
    ]);
    // One node can lack two resources: the sum counts reasons, as the scheduler prints them.
    expect(countsByPlugin(parsed)).toEqual(new Map([['NodeResourcesFit', 4]]));
  });

  it('v1.20: the generic affinity reason beside the specific one does not count its nodes twice', () => {
    const parsed = parseSchedulerMessage("0/3 nodes are available: 3 node(s) didn't match pod affinity/anti-affinity, 3 node(s) didn't match pod anti-affinity rules.");
    expect(countsByPlugin(parsed)).toEqual(new Map([['InterPodAffinity', 3]]));
  });

  it('v1.21: the generic reason said "rules" too, and is still a companion', () => {
    const parsed = parseSchedulerMessage("0/3 nodes are available: 3 node(s) didn't match pod affinity rules, 3 node(s) didn't match pod affinity/anti-affinity rules.");
    expect(parsed.reasons[1]?.companion).toBe(true);
    expect(countsByPlugin(parsed)).toEqual(new Map([['InterPodAffinity', 3]]));
  });
});

// schedule_one.go truncateMessage: an event keeps NoteLengthLimit (1024) bytes, the last 4 being
// " ..."; it cuts bytes, not characters. The condition keeps the whole text.
const bytes = (text: string): number => new TextEncoder().encode(text).length;
const truncateLikeTheScheduler = (text: string): string => {
  const b = new TextEncoder().encode(text);
  if (b.length <= 1024) return text;
  // A stray byte of a split character becomes U+FFFD when the API server writes JSON.
  return `${new TextDecoder().decode(b.slice(0, 1020))} ...`;
};
// A taint reason whose key pads the kept text to exactly 1020 bytes, so that `kept` is what the
// cut leaves at the end: the event as the scheduler would have written it.
const pad = (key: string) => `1 node(s) had untolerated taint {${key}: x}, `;
function eventCutAfter(kept: string, total = 9): string {
  const prefix = `0/${total} nodes are available: `;
  const head = prefix + pad('k'.repeat(1020 - bytes(prefix) - bytes(pad('')) - bytes(kept))) + kept;
  expect(bytes(head)).toBe(1020);
  return `${head} ...`;
}

describe('truncated event messages', () => {
  it('keeps the reasons before the cut and sets the cut one aside', () => {
    const parsed = parseSchedulerMessage(eventCutAfter("2 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node aff"), 'event');
    expect(parsed.truncated).toBe(true);
    expect(parsed.reasons.slice(1)).toEqual([r(2, 'Insufficient cpu', 'NodeResourcesFit', { resource: 'cpu' }), r(1, 'Insufficient memory', 'NodeResourcesFit', { resource: 'memory' })]);
    expect(parsed.cutOff).toBe("1 node(s) didn't match Pod's node aff");
    expect(parsed.unknownReasons).toEqual([]);
  });

  it('does not take a resource name cut in half for a resource', () => {
    const parsed = parseSchedulerMessage(eventCutAfter('2 Insufficient cpu, 1 Insufficient nvidia.co'), 'event');
    expect(parsed.reasons.slice(1).map((x) => x.text)).toEqual(['Insufficient cpu']);
    expect(parsed.cutOff).toBe('1 Insufficient nvidia.co');
  });

  it('keeps every filter reason when the cut falls in the preemption words', () => {
    const parsed = parseSchedulerMessage(eventCutAfter('3 Insufficient cpu. no new claims to deallocate, preemption: 0/9 nodes are available: 3 No preemp'), 'event');
    expect(parsed.truncated).toBe(true);
    expect(parsed.reasons.slice(1)).toEqual([r(3, 'Insufficient cpu', 'NodeResourcesFit', { resource: 'cpu' })]);
    expect(parsed.cutOff).toBeUndefined();
    expect(parsed.preemption).toEqual({ text: '0/9 nodes are available: 3 No preemp' });
  });

  it('a cut right after a sentence loses no reason', () => {
    const parsed = parseSchedulerMessage(eventCutAfter('3 Insufficient cpu.'), 'event');
    expect(parsed.truncated).toBe(true);
    expect(parsed.reasons.slice(1)).toEqual([r(3, 'Insufficient cpu', 'NodeResourcesFit', { resource: 'cpu' })]);
    expect(parsed.cutOff).toBeUndefined();
  });

  it('a cut through a multi-byte character: 1024 bytes plus U+FFFD for the stray bytes', () => {
    // é is 2 bytes: one of two paddings puts byte 1020 inside one.
    const cuts = [600, 601].map((n) =>
      truncateLikeTheScheduler(`0/2 nodes are available: ${pad('k'.repeat(n))}1 node(s) had untolerated taint {zone: ${'\u00e9'.repeat(300)}}.${v124(2)}`),
    );
    const split = cuts.find((c) => bytes(c) > 1024);
    expect(split && bytes(split)).toBe(1026);
    expect(parseSchedulerMessage(split ?? '', 'event').truncated).toBe(true);
  });

  it('a condition is never cut, even when it ends like a cut event', () => {
    const text = eventCutAfter('2 Insufficient cpu, 1 Insufficient memory');
    const parsed = parseSchedulerMessage(text, 'condition');
    expect(parsed.truncated).toBe(false);
    expect(parsed.cutOff).toBeUndefined();
  });

  it('a short event ending in " ..." was not cut by the scheduler', () => {
    const parsed = parseSchedulerMessage('0/3 nodes are available: 3 Insufficient cpu. ...', 'event');
    expect(parsed.truncated).toBe(false);
  });

  it('a missing final period is not a cut (the v1.37 preemption words end without one)', () => {
    const text = '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient c';
    expect(parseSchedulerMessage(text, 'event').truncated).toBe(false);
    expect(parseSchedulerMessage(text).truncated).toBe(false);
  });

  it('v1.25-v1.34: a 100-node message cut at 1 KiB keeps a prefix of its reasons (kubernetes#109475)', () => {
    const parts = Array.from({ length: 100 }, (_, i) => `1 node(s) had untolerated taint {key-fake-${i}: value-fake-${i}}`).sort();
    const whole = `0/100 nodes are available: ${parts.join(', ')}.${v124(100)}`;
    const event = truncateLikeTheScheduler(whole);
    expect(bytes(event)).toBe(1024);
    const parsed = parseSchedulerMessage(event, 'event');
    expect(parsed.truncated).toBe(true);
    const kept = parsed.reasons.map((x) => `${x.count} ${x.text}`);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(parts.slice(0, kept.length));
    expect(parts[kept.length]?.startsWith(parsed.cutOff ?? '\u0000')).toBe(true);
    // The condition keeps the whole text.
    expect(parseSchedulerMessage(whole).reasons).toHaveLength(100);
  });
});

describe('messages without node counts', () => {
  it('reads a scheduling gate', () => {
    expect(parseSchedulerMessage('Scheduling is blocked due to non-empty scheduling gates')).toEqual({ kind: 'gated', reasons: [], truncated: false, unknownReasons: [] });
  });

  it('reads "no nodes available to schedule pods" as a cluster of no nodes', () => {
    expect(parseSchedulerMessage('no nodes available to schedule pods')).toEqual({ kind: 'other', totalNodes: 0, reasons: [], truncated: false, unknownReasons: [] });
  });

  it('v1.21+: a PreFilter plugin error names the plugin', () => {
    const parsed = parseSchedulerMessage('running PreFilter plugin "VolumeBinding": error getting PVC "default/data": could not find v1.PersistentVolumeClaim "default/data"');
    expect(parsed.kind).toBe('preFilter');
    expect(parsed.preFilterReason).toEqual({ text: 'error getting PVC "default/data": could not find v1.PersistentVolumeClaim "default/data"', plugin: 'VolumeBinding' });
    expect(parsed.failedPlugin?.extensionPoint).toBe('PreFilter');
  });

  it('v1.20: a Filter plugin error, with the pod named', () => {
    const parsed = parseSchedulerMessage('running "VolumeBinding" filter plugin for pod "web-0": pod has unbound immediate PersistentVolumeClaims');
    expect(parsed.kind).toBe('other');
    expect(parsed.failedPlugin).toEqual({ extensionPoint: 'filter', plugin: 'VolumeBinding', text: 'pod has unbound immediate PersistentVolumeClaims' });
  });

  it('v1.3x: a PreBind error is not a verdict on nodes', () => {
    const parsed = parseSchedulerMessage('running PreBind plugin "VolumeBinding": binding volumes: pv "pvc-7d8e" node affinity doesn\'t match node "n1": no matching NodeSelectorTerms');
    expect(parsed.kind).toBe('other');
    expect(parsed.failedPlugin?.extensionPoint).toBe('PreBind');
    expect(parsed.reasons).toEqual([]);
  });

  it('keeps a message it cannot read as unknown', () => {
    const parsed = parseSchedulerMessage('binding rejected: pods "web-0" is forbidden');
    expect(parsed).toEqual({ kind: 'other', reasons: [], truncated: false, unknownReasons: ['binding rejected: pods "web-0" is forbidden'] });
  });
});

describe('unknown wordings', () => {
  it('are counted under "?" and their text is kept', () => {
    const parsed = parseSchedulerMessage('0/5 nodes are available: 2 Insufficient cpu, 3 node(s) were rejected by the GPU topology plugin.');
    expect(parsed.unknownReasons).toEqual(['node(s) were rejected by the GPU topology plugin']);
    expect(parsed.reasons[1]).toEqual(r(3, 'node(s) were rejected by the GPU topology plugin'));
    expect(countsByPlugin(parsed)).toEqual(new Map([['NodeResourcesFit', 2], ['?', 3]]));
  });
});

// The current (v1.36) wordings, and the reason texts they print.
const currentWordings: [string, string][] = [
  ['NodeUnschedulable', 'node(s) were unschedulable'],
  ['NodeName', "node(s) didn't match the requested node name"],
  ['TaintToleration', 'node(s) had untolerated taint(s)'],
  ['NodeAffinity', "node(s) didn't match Pod's node affinity/selector"],
  ['NodeAffinity', "node(s) didn't satisfy plugin(s) [NodeAffinity]"],
  ['NodePorts', "node(s) didn't have free ports for the requested pod ports"],
  ['NodeResourcesFit', 'Too many pods'],
  ['VolumeRestrictions', 'node(s) had no available disk'],
  ['NodeVolumeLimits', 'node(s) exceed max volume count'],
  ['VolumeBinding', "node(s) didn't match PersistentVolume's node affinity"],
  ['VolumeBinding', "node(s) didn't find available persistent volumes to bind"],
  ['VolumeZone', 'node(s) had no available volume zone'],
  ['PodTopologySpread', "node(s) didn't match pod topology spread constraints (missing required label)"],
  ['InterPodAffinity', "node(s) didn't match pod anti-affinity rules"],
  ['DynamicResources', 'cannot allocate all claims'],
];
// Resource names are qualified names: they begin and end with a letter or digit.
const resourceName = fc.stringMatching(/^[a-z]([a-z0-9.-]{0,18}[a-z0-9])?(\/[a-z]([a-z0-9-]{0,14}[a-z0-9])?)?$/);
const knownReason = fc.oneof(
  fc.constantFrom(...currentWordings),
  resourceName.map((name): [string, string] => ['NodeResourcesFit', `Insufficient ${name}`]),
);

describe('a message built the way v1.36 builds it reads back its counts', () => {
  it('for any counts of distinct known reasons', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 5000 }), knownReason), { minLength: 1, maxLength: 12, selector: ([, [, text]]) => text }),
        fc.boolean(),
        (pairs, withTail) => {
          // FitError.Error: "%v %v" per reason, sort.Strings, joined with ", ", then ".".
          const parts = pairs.map(([count, [, text]]) => `${count} ${text}`).sort();
          const total = pairs.reduce((sum, [count]) => sum + count, 0);
          const text = `0/${total} nodes are available: ${parts.join(', ')}.${withTail ? v134(total) : ''}`;
          const parsed = parseSchedulerMessage(text);
          expect(parsed.reasons.map((x) => `${x.count} ${x.text}`)).toEqual(parts);
          const expected = new Map<string, number>();
          for (const [count, [plugin]] of pairs) expected.set(plugin, (expected.get(plugin) ?? 0) + count);
          expect(countsByPlugin(parsed)).toEqual(expected);
          expect(parsed.unknownReasons).toEqual([]);
          expect(parsed.truncated).toBe(false);
        },
      ),
    );
  });
});
