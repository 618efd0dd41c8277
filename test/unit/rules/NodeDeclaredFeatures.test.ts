// NodeDeclaredFeatures, case by case: what a pod's spec requires (component-helpers v0.37.2
// nodedeclaredfeatures/features/*, InferForScheduling), the PreFilter's Skip, and the Filter
// against node.status.declaredFeatures (upstream nodedeclaredfeatures_test.go TestFilter names).
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import rule, { requiredFeatures } from '../../../src/engine/rules/NodeDeclaredFeatures.js';
import { node, pod } from '../../support/builders.js';
import { evaluate, runRule } from '../../support/rules.js';

const RESTART_ALL = 'RestartAllContainersOnContainerExits';
const USERNS_HOSTNET = 'UserNamespacesHostNetworkSupport';
const BIND_OPTIONS = 'VolumeBindMountOptions';

const restartAll = { action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [42] } };
const restartSelf = { action: 'Restart', exitCodes: { operator: 'In', values: [1] } };

const first = (p: V1Pod): V1Container => p.spec!.containers[0]!;
const restartingAll = () => pod('p').with((p) => (first(p).restartPolicyRules = [restartAll]));
const hostNetworkInUserNamespace = () =>
  pod('p').with((p) => {
    p.spec!.hostNetwork = true;
    p.spec!.hostUsers = false;
  });
const declaring = (name: string, ...features: string[]) => node(name).with((n) => (n.status!.declaredFeatures = features));

describe('NodeDeclaredFeatures: what a pod requires', () => {
  it.each([
    { name: 'a plain pod requires nothing', pod: pod('p'), want: [] },
    { name: 'a Restart rule requires nothing', pod: pod('p').with((p) => (first(p).restartPolicyRules = [restartSelf])), want: [] },
    { name: 'a RestartAllContainers rule on a container', pod: restartingAll(), want: [{ feature: RESTART_ALL, field: 'spec.containers[app].restartPolicyRules[0]' }] },
    {
      name: 'a RestartAllContainers rule on an init container',
      pod: pod('p').with((p) => (p.spec!.initContainers = [{ name: 'setup', image: 'setup', restartPolicyRules: [restartSelf, restartAll] }])),
      want: [{ feature: RESTART_ALL, field: 'spec.initContainers[setup].restartPolicyRules[1]' }],
    },
    {
      name: 'ephemeral containers are not looked at for restart rules',
      pod: pod('p').with((p) => (p.spec!.ephemeralContainers = [{ name: 'debug', image: 'debug', restartPolicyRules: [restartAll] } as never])),
      want: [],
    },
    { name: 'host network in a user namespace', pod: hostNetworkInUserNamespace(), want: [{ feature: USERNS_HOSTNET, field: 'spec.hostUsers' }] },
    { name: 'host network with host users requires nothing', pod: pod('p').with((p) => (p.spec!.hostNetwork = true)), want: [] },
    { name: 'a user namespace without host network requires nothing', pod: pod('p').with((p) => (p.spec!.hostUsers = false)), want: [] },
    {
      name: 'bind mount options on an ephemeral container',
      pod: pod('p').with((p) => (p.spec!.ephemeralContainers = [{ name: 'debug', image: 'debug', volumeMounts: [{ name: 'v', mountPath: '/v', bindMountOptions: ['nosuid'] } as never] }])),
      want: [{ feature: BIND_OPTIONS, field: 'spec.ephemeralContainers[debug].volumeMounts[0].bindMountOptions' }],
    },
    { name: 'empty bind mount options require nothing', pod: pod('p').with((p) => (first(p).volumeMounts = [{ name: 'v', mountPath: '/v', bindMountOptions: [] } as never])), want: [] },
    {
      name: 'multiple feature requirements, in the registry order',
      pod: hostNetworkInUserNamespace().with((p) => (first(p).restartPolicyRules = [restartAll])),
      want: [
        { feature: RESTART_ALL, field: 'spec.containers[app].restartPolicyRules[0]' },
        { feature: USERNS_HOSTNET, field: 'spec.hostUsers' },
      ],
    },
  ])('$name', ({ pod: p, want }) => {
    expect(requiredFeatures(p.obj())).toEqual(want);
  });
});

describe('NodeDeclaredFeatures: PreFilter', () => {
  it('skips a pod with no requirements', () => {
    expect(evaluate(rule, pod('p').obj(), [node('n').obj()]).preFilter).toEqual({ skip: true });
  });

  it('runs the Filter for a pod with a requirement', () => {
    expect(evaluate(rule, restartingAll().obj(), [node('n').obj()]).preFilter).toEqual({});
  });
});

describe('NodeDeclaredFeatures: Filter', () => {
  const fails = (missing: { feature: string; field: string }[], declared: string[]) => [
    { plugin: 'NodeDeclaredFeatures', code: 'UnschedulableAndUnresolvable', detail: { kind: 'featureNotDeclared', missing, declared } },
  ];
  const restartMissing = [{ feature: RESTART_ALL, field: 'spec.containers[app].restartPolicyRules[0]' }];

  it.each([
    { name: 'Node matches requirements', pod: restartingAll(), node: declaring('n', RESTART_ALL), want: [] },
    { name: 'Node does not match requirements', pod: restartingAll(), node: declaring('n', 'InPlacePodLevelResourcesVerticalScaling'), want: fails(restartMissing, ['InPlacePodLevelResourcesVerticalScaling']) },
    { name: 'Node with multiple features, pod requires subset', pod: restartingAll(), node: declaring('n', 'ExtendWebSocketsToKubelet', RESTART_ALL, USERNS_HOSTNET), want: [] },
    { name: 'Node has no declared features', pod: restartingAll(), node: node('n'), want: fails(restartMissing, []) },
    { name: 'Node has an empty declared list', pod: restartingAll(), node: declaring('n'), want: fails(restartMissing, []) },
    {
      name: 'Node with some but not all required features',
      pod: hostNetworkInUserNamespace().with((p) => (first(p).restartPolicyRules = [restartAll])),
      node: declaring('n', RESTART_ALL),
      want: fails([{ feature: USERNS_HOSTNET, field: 'spec.hostUsers' }], [RESTART_ALL]),
    },
    { name: 'Names the registry does not know are kept in the list but satisfy nothing', pod: restartingAll(), node: declaring('n', 'SomeFutureFeature'), want: fails(restartMissing, ['SomeFutureFeature']) },
    { name: 'A pod with no requirements fits a node that declares nothing', pod: pod('p'), node: node('n'), want: [] },
  ])('$name', ({ pod: p, node: n, want }) => {
    expect(runRule(rule, p.obj(), n.obj())).toEqual(want);
  });

  it('needs nothing but the node object', () => {
    expect(evaluate(rule, restartingAll().obj(), [node('n').obj()]).nodes).toEqual({ n: fails(restartMissing, []) });
    expect(rule.needs({ pod: restartingAll().obj(), namespace: 'default', name: 'p' } as never)).toEqual([]);
  });
});
