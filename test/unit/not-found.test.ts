// A name that names nothing (engine/target.ts resolve, messages/errors.ts describeNotFound):
// the names like it in the namespace, near misses first, and the other namespaces that have it.
import type { V1Deployment, V1ReplicaSet } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { resolve } from '../../src/engine/target.js';
import { describeNotFound } from '../../src/messages/errors.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { ClusterEvent, Collections } from '../../src/snapshot/types.js';
import { pod, snapshotOf } from '../support/builders.js';

const deployment = (name: string, namespace: string): V1Deployment => ({ metadata: { name, namespace, uid: `uid-${namespace}-${name}` } });
const replicaSet = (name: string, namespace: string, owner: string): V1ReplicaSet => ({
  metadata: { name, namespace, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: owner, uid: `uid-${namespace}-${owner}`, controller: true }] },
});
const ownedPod = (name: string, namespace: string, kind: string, owner: string) =>
  pod(name, namespace).with((p) => ((p.metadata ??= {}).ownerReferences = [{ apiVersion: 'apps/v1', kind, name: owner, uid: `uid-${owner}`, controller: true }])).obj();
const scaled = (name: string, namespace: string): ClusterEvent => ({
  type: 'Normal',
  reason: 'ScalingReplicaSet',
  message: 'Scaled up',
  involved: { kind: 'Deployment', namespace, name },
  count: 1,
  reporter: 'deployment-controller',
});

const cluster: Partial<Collections> = {
  pods: [pod('web-0', 'shop').obj(), pod('web-1', 'shop').obj(), pod('api-0', 'shop').obj(), pod('web-0', 'staging').obj(), pod('web-0', 'qa').obj(), ownedPod('db-0', 'shop', 'StatefulSet', 'db')],
  deployments: [deployment('web', 'shop'), deployment('web', 'staging')],
  replicaSets: [replicaSet('checkout-7d9f', 'shop', 'checkout')],
  events: [scaled('cart', 'shop'), scaled('cart', 'qa')],
};

describe('resolve: a name that names nothing', () => {
  it.each<{ name: string; namespace: string; query: string; suggestions: string[]; elsewhere: string[] }>([
    { name: 'a pod typed with a letter O for a zero: the look-alike first, then the like names', namespace: 'shop', query: 'web-O', suggestions: ['web-0', 'web-1', 'db-0'], elsewhere: [] },
    { name: 'a pod typed with a trailing space: the white-space near miss first', namespace: 'shop', query: 'api-0 ', suggestions: ['api-0', 'web-0', 'db-0'], elsewhere: [] },
    { name: 'a pod in the wrong namespace: the namespaces that have it, sorted', namespace: 'default', query: 'web-0', suggestions: [], elsewhere: ['qa', 'shop', 'staging'] },
    { name: 'a pod in one wrong namespace, with like names here too', namespace: 'staging', query: 'web-1', suggestions: ['web-0'], elsewhere: ['shop'] },
    { name: 'a deployment in letter case, known only as an object (no event names it)', namespace: 'shop', query: 'deploy/Web', suggestions: ['web'], elsewhere: [] },
    { name: 'a deployment with a Cyrillic e', namespace: 'shop', query: 'deploy/w\u0435b', suggestions: ['web'], elsewhere: [] },
    { name: 'a deployment known only by its ReplicaSet, in letter case', namespace: 'shop', query: 'deploy/Checkout', suggestions: ['checkout'], elsewhere: [] },
    { name: 'a deployment known only from events, in the wrong namespace', namespace: 'default', query: 'deploy/cart', suggestions: [], elsewhere: ['qa', 'shop'] },
    { name: 'a deployment object in the wrong namespace', namespace: 'qa', query: 'deploy/web', suggestions: [], elsewhere: ['shop', 'staging'] },
    { name: 'a statefulset known by its pods, typed in upper case', namespace: 'shop', query: 'sts/DB', suggestions: ['db'], elsewhere: [] },
    { name: 'nothing like it anywhere', namespace: 'shop', query: 'zzz-batch', suggestions: [], elsewhere: [] },
  ])('$name', ({ namespace, query, suggestions, elsewhere }) => {
    expect(resolve(snapshotOf(cluster), { namespace, name: query })).toEqual({ found: 'nothing', kind: expect.any(String), suggestions, elsewhere });
  });

  it('a deployment its ReplicaSet names is found through it, though the dump lacks the Deployment', () => {
    const snapshot = snapshotOf({ ...cluster, pods: [ownedPod('checkout-7d9f-x2x', 'shop', 'ReplicaSet', 'checkout-7d9f')] });
    expect(resolve(snapshot, { namespace: 'shop', name: 'deploy/checkout' })).toMatchObject({ found: 'pod', pod: { metadata: { name: 'checkout-7d9f-x2x' } } });
    expect(resolve(snapshotOf(cluster), { namespace: 'shop', name: 'deploy/checkout' })).toMatchObject({ found: 'ownerWithoutPods' });
  });
});

describe('describeNotFound', () => {
  const source = 'dump.yaml';
  const line = (namespace: string, query: string) => {
    const outcome = diagnose(ruleSet, snapshotOf(cluster), { namespace, name: query });
    if (outcome.kind !== 'notFound') throw new Error(`${query} was found`);
    return describeNotFound(outcome, source);
  };

  it.each([
    { name: 'one other namespace: the flag to add', namespace: 'staging', query: 'web-1', line: 'pod "web-1" not found in namespace "staging" (dump.yaml); it exists in namespace "shop": add -n shop' },
    { name: 'several: each flag', namespace: 'default', query: 'web-0', line: 'pod "web-0" not found in namespace "default" (dump.yaml); it exists in namespaces "qa", "shop" and "staging": add -n qa, -n shop or -n staging' },
    { name: 'a near miss in the namespace', namespace: 'shop', query: 'web-O', line: 'pod "web-O" not found in namespace "shop" (dump.yaml); did you mean web-0, web-1, db-0?' },
    { name: 'an owner suggested with the kind as typed', namespace: 'shop', query: 'deploy/Web', line: 'deployment "deploy/Web" not found in namespace "shop" (dump.yaml); did you mean deploy/web?' },
    { name: 'nothing like it', namespace: 'shop', query: 'zzz-batch', line: 'pod "zzz-batch" not found in namespace "shop" (dump.yaml)' },
  ])('$name', ({ namespace, query, line: expected }) => {
    expect(line(namespace, query)).toBe(expected);
  });

  it('names three namespaces and counts the rest', () => {
    const pods = ['a', 'b', 'c', 'd', 'e'].map((ns) => pod('job-0', ns).obj());
    const outcome = diagnose(ruleSet, snapshotOf({ pods }), { namespace: 'default', name: 'job-0' });
    if (outcome.kind !== 'notFound') throw new Error('found');
    expect(describeNotFound(outcome, source)).toBe('pod "job-0" not found in namespace "default" (dump.yaml); it exists in namespaces "a", "b", "c" and 2 more: add -n a, -n b or -n c');
  });
});
