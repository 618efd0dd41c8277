// The cluster's release, and the rules of that release replayed (engine/release.ts): the version
// read as a minor release, a plugin left out before the release that turns it on by default, and
// the request arithmetic and NodeResourcesFit answers that follow a feature gate's default.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { buildContext } from '../../src/engine/context.js';
import { minorOf, releaseOf } from '../../src/engine/release.js';
import { forRelease } from '../../src/engine/releaseRules.js';
import { podRequests } from '../../src/engine/resources/requests.js';
import { releaseLine } from '../../src/messages/release.js';
import { ruleSet } from '../../src/messages/registry.js';
import { emptyCollections, type Collections, type Snapshot } from '../../src/snapshot/types.js';
import { node, pod, snapshotOf } from '../support/builders.js';

function onCluster(version: string | undefined, objects: Partial<Collections>): Snapshot {
  return { ...snapshotOf(objects), ...(version !== undefined ? { cluster: { version } } : {}) };
}

// A pod without requests on n1 beside the target: a dump whose only pod is the target leaves
// what runs on the nodes unknown, and no node would be called a fit.
const idle = pod('idle').on('n1').obj();

function diagnosed(version: string | undefined, target: V1Pod, objects: Partial<Collections>): Diagnosis {
  const outcome = diagnose(ruleSet, onCluster(version, { ...objects, pods: [...(objects.pods ?? [idle]), target] }), { namespace: 'default', name: target.metadata?.name ?? '' });
  if (outcome.kind !== 'diagnosis') throw new Error(`expected a diagnosis, got ${outcome.kind}`);
  return outcome.diagnosis;
}

const firstPlugins = (d: Diagnosis) => Object.fromEntries(d.nodes.map((n) => [n.name, n.reasons.map((r) => `${r.plugin}:${r.detail.kind}`)]));

describe('the release a version names', () => {
  it.each([
    ['v1.34.4', 34],
    ['v1.33.5-eks-3025e55', 33],
    ['v1.31.2+k3s1', 31],
    ['1.29', 29],
    [' v1.37.0-alpha.1 ', 37],
    ['v2.0.0', undefined],
    ['v1.', undefined],
    ['unknown', undefined],
  ])('%j is minor %s', (version, minor) => {
    expect(minorOf(version)).toBe(minor);
  });

  it.each([
    { name: 'no version: the newest modelled, assumed', version: undefined, want: { minor: 37, assumed: true } },
    { name: 'a version that is not 1.x: the newest, assumed, kept as given', version: 'v2.1.0', want: { version: 'v2.1.0', minor: 37, assumed: true } },
    { name: 'a modelled release: its own', version: 'v1.34.4', want: { version: 'v1.34.4', minor: 34, assumed: false } },
    { name: 'newer than modelled: the newest', version: 'v1.39.0', want: { version: 'v1.39.0', minor: 37, assumed: false } },
    { name: 'older than modelled: the oldest', version: 'v1.25.16', want: { version: 'v1.25.16', minor: 28, assumed: false } },
  ])('$name', ({ version, want }) => {
    expect(releaseOf(onCluster(version, {}))).toEqual(want);
  });

  it('says once which release was replayed, and why when it is not the cluster’s own', () => {
    expect(releaseLine({ rulesOf: '1.37', assumed: true })).toMatch(/^Checked against the filters of kube-scheduler 1\.37, the newest release modelled: the input does not say the cluster's version \(for a dump, add the output of `kubectl version -o json`\)\.$/);
    expect(releaseLine({ version: 'v1.34.4', rulesOf: '1.34', assumed: false })).toBe('Checked against the filters of kube-scheduler 1.34 (the cluster runs v1.34.4).');
    expect(releaseLine({ version: 'v1.39.0', rulesOf: '1.37', assumed: false })).toBe('Checked against the filters of kube-scheduler 1.37, the newest release modelled (the cluster runs v1.39.0).');
    expect(releaseLine({ version: 'v1.25.16', rulesOf: '1.28', assumed: false })).toBe('Checked against the filters of kube-scheduler 1.28, the oldest release modelled (the cluster runs v1.25.16).');
  });
});

describe('a plugin is not replayed before its release', () => {
  it('the registry for a release leaves out the rules whose `since` is later, and is the whole registry otherwise', () => {
    const names = (minor: number) => forRelease(ruleSet, minor).rules.map((r) => r.meta.name);
    expect(names(35)).not.toContain('NodeDeclaredFeatures');
    expect(names(36)).toContain('NodeDeclaredFeatures');
    expect(forRelease(ruleSet, 37)).toBe(ruleSet);
    expect(forRelease(ruleSet, 35)).toBe(forRelease(ruleSet, 35));
  });

  // A pod that needs a declared feature (host network in a user namespace) on a node that
  // declares none: NodeDeclaredFeatures (beta, on by default from v1.36) refuses it from 1.36 on.
  const userNamespaceHostNetwork = pod('userns').with((p) => {
    p.spec!.hostNetwork = true;
    p.spec!.hostUsers = false;
  });

  it.each([
    { version: 'v1.35.3', want: { n1: [] }, fitting: 1 },
    { version: 'v1.36.1', want: { n1: ['NodeDeclaredFeatures:featureNotDeclared'] }, fitting: 0 },
    { version: undefined, want: { n1: ['NodeDeclaredFeatures:featureNotDeclared'] }, fitting: 0 },
  ])('NodeDeclaredFeatures on $version', ({ version, want, fitting }) => {
    const d = diagnosed(version, userNamespaceHostNetwork.obj(), { nodes: [node('n1').obj()] });
    expect(firstPlugins(d)).toEqual(want);
    expect(d.counts.fitting).toBe(fitting);
  });
});

describe('sidecars (SidecarContainers: alpha and off in v1.28, on by default from v1.29)', () => {
  const withSidecar = () => pod('web').req({ cpu: '1' }).init('proxy', { cpu: '500m' }, true);

  it('v1.28: NodeResourcesFit refuses the pod in PreFilter, UnschedulableAndUnresolvable', () => {
    const d = diagnosed('v1.28.15', withSidecar().obj(), { nodes: [node('n1').obj()] });
    expect(d.cluster).toEqual({ version: 'v1.28.15', rulesOf: '1.28', assumed: false });
    expect(d.preFilter).toEqual([{ plugin: 'NodeResourcesFit', code: 'UnschedulableAndUnresolvable', detail: { kind: 'sidecarsDisabled', containers: ['proxy'] } }]);
    expect(d.counts.fitting).toBe(0);
  });

  it('v1.37: the sidecar adds to the containers, and the pod fits where 1.5 CPU is free', () => {
    const d = diagnosed('v1.37.2', withSidecar().obj(), { nodes: [node('n1').allocatable({ cpu: '1500m' }).obj(), node('n2').allocatable({ cpu: '1400m' }).obj()] });
    expect(d.preFilter).toEqual([]);
    expect(d.requests?.total['cpu']).toBe(1500n);
    expect(firstPlugins(d)).toEqual({ n1: [], n2: ['NodeResourcesFit:insufficientResource'] });
  });

  it('v1.28: a pod without sidecars is judged as ever', () => {
    const d = diagnosed('v1.28.15', pod('plain').req({ cpu: '1' }).init('migrate', { cpu: '2' }).obj(), { nodes: [node('n1').obj()] });
    expect(d.preFilter).toEqual([]);
    expect(d.counts.fitting).toBe(1);
  });
});

describe('pod-level resources (PodLevelResources: alpha and off in v1.32 and v1.33, on by default from v1.34)', () => {
  // Containers ask 1 CPU together; the pod-level request asks 3.
  const podLevel = () => pod('batch').req({ cpu: '500m' }).container('side', { cpu: '500m' }).podLevel({ cpu: '3' });

  it.each([
    { version: 'v1.33.5', cpu: 1000n, n1: [] },
    { version: 'v1.34.0', cpu: 3000n, n1: ['NodeResourcesFit:insufficientResource'] },
  ])('$version counts $cpu millicores', ({ version, cpu, n1 }) => {
    const d = diagnosed(version, podLevel().obj(), { nodes: [node('n1').allocatable({ cpu: '2' }).obj()] });
    expect(d.requests?.total['cpu']).toBe(cpu);
    expect(firstPlugins(d)).toEqual({ n1 });
  });

  it('a bound pod with pod-level requests fills its node by the release’s count', () => {
    const bound = pod('bound').req({ cpu: '100m' }).podLevel({ cpu: '3' }).on('n1').obj();
    const target = pod('small').req({ cpu: '500m' }).obj();
    const requested = (version: string) => buildContext(onCluster(version, { nodes: [node('n1').obj()], pods: [bound, target] }), target).nodes[0]?.requested['cpu'];
    expect(requested('v1.33.5')).toBe(100n);
    expect(requested('v1.34.0')).toBe(3000n);
  });
});

describe('in-place resize (InPlacePodVerticalScaling: beta and on by default from v1.33)', () => {
  // Resized down in the spec to 1 CPU; the kubelet has not applied it: 3 CPU still allocated.
  const resizing = () =>
    pod('resizing')
      .req({ cpu: '1' })
      .on('n1')
      .with((p) => {
        p.status = { phase: 'Running', containerStatuses: [{ name: 'app', image: 'app', imageID: '', ready: true, restartCount: 0, allocatedResources: { cpu: '3' }, resources: { requests: { cpu: '3' } } }] };
      })
      .obj();

  it.each([
    { version: 'v1.32.9', used: 1000n, n1: [] },
    { version: 'v1.33.0', used: 3000n, n1: ['NodeResourcesFit:insufficientResource'] },
  ])('$version counts the bound pod as $used millicores', ({ version, used, n1 }) => {
    const d = diagnosed(version, pod('web').req({ cpu: '2' }).obj(), { nodes: [node('n1').allocatable({ cpu: '4' }).obj()], pods: [resizing()] });
    expect(firstPlugins(d)).toEqual({ n1 });
    const reason = d.nodes[0]?.reasons[0]?.detail;
    if (reason?.kind === 'insufficientResource') expect(reason.used).toBe(used);
  });

  it('the arithmetic alone: the spec before v1.33, the larger of spec and status from it', () => {
    const p = resizing();
    expect(podRequests(p, { podLevelResources: true, statusResources: false }).total['cpu']).toBe(1000n);
    expect(podRequests(p).total['cpu']).toBe(3000n);
  });
});

describe('a request above the whole allocatable (PR #131345, v1.34)', () => {
  it.each([
    { version: 'v1.33.5', code: 'Unschedulable' },
    { version: 'v1.34.0', code: 'UnschedulableAndUnresolvable' },
  ])('$version says $code', ({ version, code }) => {
    const d = diagnosed(version, pod('huge').req({ cpu: '8' }).obj(), { nodes: [node('n1').obj()] });
    expect(d.nodes[0]?.reasons.map((r) => r.code)).toEqual([code]);
  });
});

describe("the release's filter order", () => {
  const names = (minor: number) => forRelease(ruleSet, minor).rules.map((r) => r.meta.name);

  it('1.37 runs NodeName before NodeUnschedulable; 1.36 and older the other way round', () => {
    expect(names(37).slice(0, 3)).toEqual(['NodeName', 'NodeUnschedulable', 'TaintToleration']);
    expect(names(36).slice(0, 3)).toEqual(['NodeUnschedulable', 'NodeName', 'TaintToleration']);
    expect(names(31).slice(0, 3)).toEqual(['NodeUnschedulable', 'NodeName', 'TaintToleration']);
  });

  it('the first reason of a cordoned node that a pod pinned by nodeName does not name follows the release', () => {
    const version = (v: string) => ({ version: v });
    const node = { metadata: { name: 'worker-2' }, spec: { unschedulable: true }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } };
    const pinned = { metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { nodeName: 'worker-1', containers: [{ name: 'c' }] }, status: { phase: 'Pending' } } as V1Pod;
    const first = (v: string) => {
      const snapshot = { source: { kind: 'dump' as const, description: 'test' }, objects: { ...emptyCollections(), nodes: [node], pods: [pinned] }, gaps: [], cluster: version(v) } as unknown as Snapshot;
      const outcome = diagnose(ruleSet, snapshot, { namespace: 'default', name: 'p' });
      if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
      return outcome.diagnosis.nodes[0]?.reasons.map((r) => r.plugin);
    };
    expect(first('v1.37.2')).toEqual(['NodeName', 'NodeUnschedulable']);
    expect(first('v1.36.3')).toEqual(['NodeUnschedulable', 'NodeName']);
  });
});
