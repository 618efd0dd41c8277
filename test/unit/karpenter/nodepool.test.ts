// Our replay of what Karpenter checks before it launches a node of a NodePool for a pod
// (sigs.k8s.io/karpenter v1.15.0: pkg/scheduling/requirements.go Compatible with
// AllowUndefinedWellKnownLabels, pkg/scheduling/taints.go Taints.ToleratesPod, the limits of
// pkg/controllers/provisioning/scheduling/scheduler.go, the readiness filter of provisioner.go).
// Cases named like upstream's requirements_test.go and taints_test.go.
import type { V1Taint } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { checkNodePools } from '../../../src/engine/karpenter/nodepool.js';
import type { KarpenterNodePool, KarpenterRequirement } from '../../../src/snapshot/types.js';
import { pod } from '../../support/builders.js';

interface PoolSpec {
  requirements?: KarpenterRequirement[];
  labels?: Record<string, string>;
  taints?: V1Taint[];
  startupTaints?: V1Taint[];
  limits?: Record<string, string>;
  used?: Record<string, string>;
  ready?: boolean;
}

function pool(name: string, s: PoolSpec = {}): KarpenterNodePool {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: { ...(s.labels ? { metadata: { labels: s.labels } } : {}), spec: { requirements: s.requirements ?? [], taints: s.taints ?? [], ...(s.startupTaints ? { startupTaints: s.startupTaints } : {}) } },
      ...(s.limits ? { limits: s.limits } : {}),
    },
    status: {
      ...(s.used ? { resources: s.used } : {}),
      conditions:
        s.ready === false
          ? [{ type: 'Ready', status: 'False', reason: 'UnhealthyDependents' }, { type: 'NodeClassReady', status: 'False', reason: 'NodeClassNotFound', message: 'NodeClass not found on cluster', lastTransitionTime: '2026-12-01T10:00:00Z' }, { type: 'ValidationSucceeded', status: 'True' }]
          : [{ type: 'Ready', status: 'True' }],
    },
  };
}

const req = (key: string, operator: string, ...values: string[]): KarpenterRequirement => ({ key, operator, ...(values.length > 0 ? { values } : {}) });
const kinds = (p: KarpenterNodePool, target = pod('p').obj()) => checkNodePools([p], target)[0]?.problems.map((x) => x.kind);

type Builder = ReturnType<typeof pod>;

describe('requirements (Requirements.Compatible, well-known labels allowed undefined)', () => {
  it.each<{ name: string; pool: PoolSpec; pod: Builder; problems: string[] }>([
    { name: 'a nodeSelector on a template label is compatible', pool: { labels: { team: 'a' } }, pod: pod('p').nodeSelector({ team: 'a' }), problems: [] },
    { name: 'a nodeSelector on a label the NodePool does not define is not', pool: {}, pod: pod('p').nodeSelector({ team: 'a' }), problems: ['undefinedLabel'] },
    { name: 'a well-known label the NodePool does not define is allowed (the instance types define it)', pool: {}, pod: pod('p').nodeSelector({ 'topology.kubernetes.io/zone': 'z1' }), problems: [] },
    { name: "a cloud provider's instance-type label the NodePool does not define is left to its instance types (AWS)", pool: {}, pod: pod('p').nodeSelector({ 'karpenter.k8s.aws/instance-family': 'c7g' }), problems: [] },
    { name: "the KWOK provider's instance-size label, likewise", pool: {}, pod: pod('p').nodeSelector({ 'karpenter.kwok.sh/instance-size': '4x' }), problems: [] },
    { name: 'a label in a domain no provider owns is still undefined', pool: {}, pod: pod('p').nodeSelector({ 'example.com/instance-family': 'c' }), problems: ['undefinedLabel'] },
    { name: 'NotIn and DoesNotExist on an undefined custom label are allowed', pool: {}, pod: pod('p').affinityTerm({ key: 'team', operator: 'NotIn', values: ['a'] }, { key: 'gpu', operator: 'DoesNotExist' }), problems: [] },
    { name: 'In against In with a common value is compatible', pool: { requirements: [req('zone-x', 'In', 'a', 'b')] }, pod: pod('p').affinityTerm({ key: 'zone-x', operator: 'In', values: ['b', 'c'] }), problems: [] },
    { name: 'In against In with no common value is not', pool: { requirements: [req('zone-x', 'In', 'a', 'b')] }, pod: pod('p').affinityTerm({ key: 'zone-x', operator: 'In', values: ['c'] }), problems: ['noCommonValue'] },
    { name: 'In against NotIn of that value is not', pool: { requirements: [req('tier', 'NotIn', 'spot')] }, pod: pod('p').nodeSelector({ tier: 'spot' }), problems: ['noCommonValue'] },
    { name: 'NotIn against NotIn always passes', pool: { requirements: [req('tier', 'NotIn', 'spot')] }, pod: pod('p').affinityTerm({ key: 'tier', operator: 'NotIn', values: ['x'] }), problems: [] },
    { name: 'DoesNotExist against In is not compatible', pool: { labels: { gpu: 'true' } }, pod: pod('p').affinityTerm({ key: 'gpu', operator: 'DoesNotExist' }), problems: ['noCommonValue'] },
    { name: 'Exists against In is compatible', pool: { labels: { gpu: 'true' } }, pod: pod('p').affinityTerm({ key: 'gpu', operator: 'Exists' }), problems: [] },
    { name: 'Gt against an In value above the bound is compatible', pool: { requirements: [req('gen', 'In', '5')] }, pod: pod('p').affinityTerm({ key: 'gen', operator: 'Gt', values: ['4'] }), problems: [] },
    { name: 'Gt against an In value at the bound is not', pool: { requirements: [req('gen', 'In', '4')] }, pod: pod('p').affinityTerm({ key: 'gen', operator: 'Gt', values: ['4'] }), problems: ['noCommonValue'] },
    { name: 'Gt and Lt leaving no integer between them are not compatible', pool: { requirements: [req('gen', 'Lt', '5')] }, pod: pod('p').affinityTerm({ key: 'gen', operator: 'Gt', values: ['4'] }), problems: ['noCommonValue'] },
    { name: "the NodePool's own name label is defined", pool: {}, pod: pod('p').nodeSelector({ 'karpenter.sh/nodepool': 'np' }), problems: [] },
    { name: 'another NodePool named in the selector is not compatible', pool: {}, pod: pod('p').nodeSelector({ 'karpenter.sh/nodepool': 'other' }), problems: ['noCommonValue'] },
    {
      name: 'required terms are ORed: one compatible term is enough',
      pool: { labels: { team: 'a' } },
      pod: pod('p').affinityTerm({ key: 'team', operator: 'In', values: ['b'] }).affinityTerm({ key: 'team', operator: 'In', values: ['a'] }),
      problems: [],
    },
  ])('$name', ({ pool: spec, pod: target, problems }) => {
    expect(kinds(pool('np', spec), target.obj())).toEqual(problems);
  });

  it('a value that differs by letter case is a near miss, with its diff', () => {
    const [check] = checkNodePools([pool('gpu', { labels: { accelerator: 'nvidia-a100' } })], pod('p').nodeSelector({ accelerator: 'NVIDIA-A100' }).obj());
    expect(check?.problems).toMatchObject([{ kind: 'noCommonValue', closest: { wanted: 'NVIDIA-A100', value: 'nvidia-a100', diff: { kinds: ['case'] } } }]);
  });

  it('a key with a trailing space is a near miss of the defined one', () => {
    const [check] = checkNodePools([pool('np', { labels: { team: 'a' } })], pod('p').nodeSelector({ 'team ': 'a' }).obj());
    expect(check?.problems).toMatchObject([{ kind: 'undefinedLabel', closest: { key: 'team', diff: { kinds: ['trailingWhitespace'] } } }]);
  });
});

describe('taints (Taints.ToleratesPod: every template taint, whatever its effect)', () => {
  const gpu: V1Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  it.each<{ name: string; pool: PoolSpec; pod: Builder; problems: string[] }>([
    { name: 'an untolerated NoSchedule taint fails', pool: { taints: [gpu] }, pod: pod('p'), problems: ['untoleratedTaint'] },
    { name: 'a matching toleration passes', pool: { taints: [gpu] }, pod: pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }), problems: [] },
    { name: 'Exists tolerates any value', pool: { taints: [gpu] }, pod: pod('p').tolerate({ key: 'dedicated', operator: 'Exists' }), problems: [] },
    { name: 'a PreferNoSchedule taint needs a toleration too (unlike kube-scheduler)', pool: { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }, pod: pod('p'), problems: ['untoleratedTaint'] },
    { name: 'startup taints need no toleration', pool: { startupTaints: [{ key: 'agent-not-ready', effect: 'NoSchedule' }] }, pod: pod('p'), problems: [] },
  ])('$name', ({ pool: spec, pod: target, problems }) => {
    expect(kinds(pool('np', spec), target.obj())).toEqual(problems);
  });

  it("the nearest toleration, as TaintToleration finds it: value GPU against gpu", () => {
    const [check] = checkNodePools([pool('gpu', { taints: [gpu] })], pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' }).obj());
    expect(check?.problems).toMatchObject([{ kind: 'untoleratedTaint', taint: gpu, nearest: { index: 0, mismatches: [{ field: 'value', wanted: 'GPU', actual: 'gpu', diff: { kinds: ['case'] } }] } }]);
  });
});

describe('limits and readiness', () => {
  it.each<{ name: string; spec: PoolSpec; pod: Builder; problems: Record<string, unknown>[] }>([
    { name: 'a limit reached fails', spec: { limits: { cpu: '10' }, used: { cpu: '10' } }, pod: pod('p').req({ cpu: '1' }), problems: [{ kind: 'limitReached', resource: 'cpu', limit: '10', used: '10', podAsks: '1' }] },
    { name: "a limit too close for the pod's request fails", spec: { limits: { cpu: '10' }, used: { cpu: '9500m' } }, pod: pod('p').req({ cpu: '1' }), problems: [{ kind: 'limitReached', resource: 'cpu', podAsks: '1' }] },
    { name: 'a limit with room passes', spec: { limits: { cpu: '10', memory: '100Gi' }, used: { cpu: '2', memory: '8Gi' } }, pod: pod('p').req({ cpu: '1', memory: '1Gi' }), problems: [] },
    { name: 'a nodes limit reached fails whatever the pod asks', spec: { limits: { nodes: '3' }, used: { nodes: '3' } }, pod: pod('p'), problems: [{ kind: 'limitReached', resource: 'nodes', limit: '3', used: '3' }] },
    { name: 'no status yet counts as nothing used', spec: { limits: { cpu: '1' } }, pod: pod('p').req({ cpu: '500m' }), problems: [] },
  ])('$name', ({ spec, pod: target, problems }) => {
    expect(checkNodePools([pool('np', spec)], target.obj())[0]?.problems).toMatchObject(problems);
  });

  it('a NodePool not ready is left out, with the conditions that are not True', () => {
    const [check] = checkNodePools([pool('np', { ready: false })], pod('p').obj());
    expect(check).toMatchObject({ fits: false, problems: [{ kind: 'notReady', ready: { status: 'False' }, failing: [{ type: 'NodeClassReady', status: 'False', reason: 'NodeClassNotFound', since: Date.parse('2026-12-01T10:00:00Z') }] }] });
  });

  it('every problem of a NodePool is kept, and the NodePools come sorted by name', () => {
    const checks = checkNodePools([pool('b', { taints: [{ key: 'x', effect: 'NoSchedule' }], limits: { cpu: '1' }, used: { cpu: '1' } }), pool('a')], pod('p').req({ cpu: '1' }).nodeSelector({ team: 'a' }).obj());
    expect(checks.map((c) => [c.nodePool, c.fits, c.problems.map((p) => p.kind)])).toEqual([
      ['a', false, ['undefinedLabel']],
      ['b', false, ['limitReached', 'untoleratedTaint', 'undefinedLabel']],
    ]);
  });
});
