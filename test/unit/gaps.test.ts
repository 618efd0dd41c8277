// Partial input is a gap, never an answer: what the engine does with each kind of gap, rule by
// rule, and which gaps it reports for a pod.
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { summarySentence } from '../../src/messages/summary.js';
import type { Collections, Gap, Snapshot } from '../../src/snapshot/types.js';
import { node, pod, snapshotOf } from '../support/builders.js';

function diagnosisOf(snapshot: Snapshot, name = 'p'): Diagnosis {
  const outcome = diagnose(ruleSet, snapshot, { namespace: 'default', name });
  if (outcome.kind !== 'diagnosis') throw new Error('expected a diagnosis');
  return outcome.diagnosis;
}

const pending = (p: V1Pod): V1Pod => ({ ...p, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient cpu.' }] } });
const target = pending(pod('p').req({ cpu: '1' }).obj());
const other = pod('other', 'kube-system').req({ cpu: '3' }).on('big').obj();

describe('a dump whose only pod is the target', () => {
  const snapshot = snapshotOf({ pods: [target], nodes: [node('big').allocatable({ cpu: '4' }).obj(), node('small').allocatable({ cpu: '500m' }).obj()] }, []);
  const d = diagnosisOf(snapshot);

  it('is a gap on pods', () => {
    expect(d.gaps).toEqual([{ collection: 'pods', cause: 'onlyTarget' }]);
  });
  it('leaves a node that passes what was checked unproven, never a fit', () => {
    expect(d.nodes.find((n) => n.name === 'big')).toMatchObject({ fits: false, verdict: 'unproven', reasons: [], unchecked: ['NodeResourcesFit', 'InterPodAffinity'] });
    expect(d.counts).toMatchObject({ fitting: 0, unproven: 1 });
  });
  it('keeps a failure that no missing pod can undo: a request above the whole allocatable', () => {
    expect(d.nodes.find((n) => n.name === 'small')).toMatchObject({ fits: false, verdict: 'fails', reasons: [{ plugin: 'NodeResourcesFit' }] });
  });
  it('is no gap once any other pod is in the input, nor for a live read', () => {
    expect(diagnosisOf(snapshotOf({ pods: [target, other], nodes: [node('big').obj()] }, [])).gaps).toEqual([]);
    expect(diagnosisOf(snapshotOf({ pods: [target], nodes: [node('big').obj()] }, [], 'live')).gaps).toEqual([]);
  });
});

describe('a claim the input cannot show', () => {
  const withClaim = pending(pod('p').with((p) => {
    p.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }];
  }).obj());
  const objects = { pods: [withClaim, other], nodes: [node('big').obj()] };

  it('is never "not found" when claims were not captured: VolumeBinding is not checked', () => {
    const d = diagnosisOf(snapshotOf(objects, [{ collection: 'persistentVolumeClaims', cause: 'absentFromDump' }]));
    expect(d.preFilter).toEqual([]);
    expect(d.nodes[0]).toMatchObject({ verdict: 'unproven' });
    expect(d.nodes[0]?.unchecked).toContain('VolumeBinding');
    expect(d.notChecked).toContainEqual({ plugin: 'VolumeBinding', cause: 'gap', collections: ['persistentVolumeClaims'] });
  });
  it('is "not found" when claims were captured and it is not among them', () => {
    const d = diagnosisOf(snapshotOf(objects, []));
    expect(d.preFilter.map((r) => r.plugin)).toEqual(['VolumeRestrictions']);
  });
});

describe('which gaps are reported', () => {
  it('a kind no check of this pod reads is not reported from a dump; a refused read always is', () => {
    const gaps: Gap[] = [
      { collection: 'cronJobs', cause: 'absentFromDump' },
      { collection: 'priorityClasses', cause: 'forbidden', permission: { verb: 'list', resource: 'priorityclasses.scheduling.k8s.io', scope: 'cluster' } },
    ];
    expect(diagnosisOf(snapshotOf({ pods: [target, other], nodes: [node('big').obj()] }, gaps)).gaps).toEqual([gaps[1]]);
  });
});

describe('an owner whose pods were never admitted', () => {
  const rs = { metadata: { name: 'web-1', namespace: 'default', uid: 'rs', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd', controller: true }] } };
  const deploy = { metadata: { name: 'web', namespace: 'default', uid: 'd' }, spec: { selector: { matchLabels: { app: 'web' } } } };
  const failed = {
    type: 'Warning', reason: 'FailedCreate', count: 3, reporter: 'replicaset-controller',
    message: '(combined from similar events): Error creating: pods "web-1-" is forbidden: exceeded quota: q, requested: requests.cpu=1, used: requests.cpu=0, limited: requests.cpu=500m',
    involved: { kind: 'ReplicaSet', namespace: 'default', name: 'web-1', uid: 'rs' },
  };
  it('describes the owners, with no invented pod name or scheduler, and judges no node', () => {
    const d = diagnosisOf(snapshotOf({ replicaSets: [rs], deployments: [deploy] as unknown as Collections['deployments'], events: [failed], nodes: [node('n').obj()] }, []), 'deploy/web');
    expect(d.stage).toBe('AdmissionRejected');
    expect(d.pod).toEqual({
      namespace: 'default',
      owners: [{ kind: 'ReplicaSet', namespace: 'default', name: 'web-1', uid: 'rs' }, { kind: 'Deployment', namespace: 'default', name: 'web', uid: 'd' }],
    });
    expect(d.counts.nodes).toBe(0);
  });
  it('quotes the failure without the event correlator\'s "combined from similar events" prefix', () => {
    const d = diagnosisOf(snapshotOf({ replicaSets: [rs], deployments: [deploy] as unknown as Collections['deployments'], events: [failed] }, []), 'deploy/web');
    // The refusal's numbers make the arithmetic, which the headline tells instead of quoting it.
    expect(summarySentence(d)).toBe('No pod of Deployment default/web was ever created: admission refuses it: each pod asks requests.cpu 1000m and quota q allows 500m in all, so no replica can ever be admitted.');
    const short = { ...failed, message: '(combined from similar events): pods "web-1-" is forbidden: exceeded quota: q' };
    const whole = diagnosisOf(snapshotOf({ replicaSets: [rs], deployments: [deploy] as unknown as Collections['deployments'], events: [short] }, []), 'deploy/web');
    expect(summarySentence(whole)).toBe('No pod of Deployment default/web was ever created: the API server rejected it at admission. ReplicaSet web-1 reports: pods "web-1-" is forbidden: exceeded quota: q');
  });
});

// PodDisruptionBudgets, cluster-autoscaler's status and Karpenter's objects are read for the
// stories, not by any filter: a gap in them leaves the replay whole, so it is no likely cause of
// a difference with the scheduler; a gap in what the filters read is.
describe('gaps of what only the stories read', () => {
  const refusal = { type: 'Warning', reason: 'FailedScheduling', message: 'Failed to schedule pod, incompatible requirements, label "pool" does not have known values', involved: { kind: 'Pod', namespace: 'default', name: 'p' }, time: Date.parse('2026-12-01T10:00:00Z'), count: 1, reporter: 'karpenter' };
  // The scheduler counted 2 nodes, the snapshot holds 1: they differ.
  const objects = { pods: [target, other], nodes: [node('big').allocatable({ cpu: '3' }).obj()], events: [refusal] };
  const forbidden = (collection: Gap['collection'], resource: string): Gap => ({ collection, cause: 'forbidden', permission: { verb: 'list', resource, scope: 'cluster' } });

  it.each([
    { name: "Karpenter's NodePools refused", gap: forbidden('nodePools', 'nodepools.karpenter.sh'), partial: false },
    { name: "cluster-autoscaler's status refused", gap: forbidden('clusterAutoscalerStatus', 'configmaps'), partial: false },
    { name: 'PodDisruptionBudgets refused', gap: forbidden('podDisruptionBudgets', 'poddisruptionbudgets.policy'), partial: false },
    { name: 'storage classes refused (a filter input)', gap: forbidden('storageClasses', 'storageclasses.storage.k8s.io'), partial: true },
  ])('$name', ({ gap, partial }) => {
    const d = diagnosisOf(snapshotOf(objects, [gap]));
    expect(d.stage).toBe('ScaleUpNotPossible');
    expect(d.gaps).toContainEqual(gap);
    expect(d.scheduler.agrees).toBe(false);
    expect(d.scheduler.likelyCauses.includes('partialData')).toBe(partial);
  });
});
