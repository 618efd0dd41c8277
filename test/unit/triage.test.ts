import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { diagnosePod } from '../../src/engine/diagnose.js';
import { equivalenceKey } from '../../src/engine/equivalence.js';
import { pendingPods, triage } from '../../src/engine/triage.js';
import { ruleSet } from '../../src/messages/registry.js';
import { readDump } from '../../src/sources/dump/read.js';
import { emptyCollections, type Snapshot } from '../../src/snapshot/types.js';
import { triageCluster } from '../bench/triage.js';

const several = path.join(import.meta.dirname, '..', 'triage-scenarios', 'several-causes', 'cluster.yaml');

function pod(name: string, spec: V1Pod['spec'], extra: Partial<V1Pod> = {}): V1Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop', labels: { app: 'web' } }, spec, status: { phase: 'Pending' }, ...extra };
}

describe('triage', () => {
  it('diagnoses each pending pod as a single diagnosis of it would, though pods of a class share the replay', async () => {
    const snapshot = await readDump(several, process.stdin);
    const t = triage(ruleSet, snapshot, {}, (found) => found);
    const alone = pendingPods(snapshot, {}).map((p) => diagnosePod(ruleSet, snapshot, p));
    // By namespace, then name.
    expect(t.kept.map((d) => d.pod.name)).toEqual(['report', 'api-5c6b7-pqrst', 'api-5c6b7-uvwxy', 'migrate', 'web-7d9f8-abcde', 'web-7d9f8-fghij', 'web-7d9f8-klmno']);
    expect(t.kept.map((_, i) => t.diagnosisOf(i))).toEqual(alone);
    // The findings are the diagnosis without its fixes.
    expect(t.kept).toEqual(alone.map(({ fixes: _f, podsToConfirmFixes: _p, ...findings }) => findings));
    expect(alone.some((d) => d.fixes.length > 0)).toBe(true);
  });

  it('at scale, pods of one ReplicaSet get the verdicts the first of them got, computed alone', () => {
    const cluster = triageCluster(60, 2, 25);
    const snapshot: Snapshot = { source: { kind: 'dump', description: 'synthetic' }, objects: { ...emptyCollections(), nodes: cluster.nodes, pods: cluster.pods }, gaps: [] };
    const t = triage(ruleSet, snapshot, { namespace: 'shop' }, (found) => found);
    expect(t.kept).toHaveLength(25);
    const last = pendingPods(snapshot, { namespace: 'shop' }).at(-1);
    if (!last) throw new Error('no pending pod');
    expect(t.diagnosisOf(24)).toEqual(diagnosePod(ruleSet, snapshot, last));
  });

  it('proposes fixes only for the pods asked about, once per class (a triage shows one pod\'s per group)', async () => {
    const snapshot = await readDump(several, process.stdin);
    // Every filter call counted: judging a pod calls them, and so does confirming each fix.
    let calls = 0;
    const counted = { ...ruleSet, rules: ruleSet.rules.map((r) => ({ ...r, filter: (ctx: Parameters<typeof r.filter>[0], node: Parameters<typeof r.filter>[1]) => (calls++, r.filter(ctx, node)) })) };
    const pods = pendingPods(snapshot, {});
    const i = pods.findIndex((p) => equivalenceKey(p) !== undefined && diagnosePod(ruleSet, snapshot, p).fixes.length > 0);
    expect(i).toBeGreaterThanOrEqual(0);
    const t = triage(counted, snapshot, {}, (found) => 'fixes' in found);
    // Nothing proposed while the pods were replayed: a finding has no fixes to keep.
    expect(t.kept).not.toContain(true);
    calls = 0;
    const first = t.diagnosisOf(i);
    expect(first.fixes.length).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(0);
    calls = 0;
    expect(t.diagnosisOf(i)).toEqual(first);
    expect(calls).toBe(0);
  });

  it('pods of one class in stages that judge nodes and stages that do not keep their own counts', () => {
    // Same spec (the same node set by hand), labels and namespace: one class. The first was bound
    // by the scheduler (not started: no node judged), the second was not (its nodes are judged).
    const spec = { nodeName: 'n1', containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '64' } } }] };
    const node = { metadata: { name: 'n1', labels: {} }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } };
    const snapshot: Snapshot = {
      source: { kind: 'dump', description: 'one class, two stages' },
      objects: { ...emptyCollections(), nodes: [node], pods: [pod('a', spec, { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] } }), pod('b', spec)] },
      gaps: [],
    };
    const t = triage(ruleSet, snapshot, {}, (found) => found);
    expect(t.kept.map((f) => f.stage)).toEqual(['ScheduledNotRunning', 'NodeNameSet']);
    const [a, b] = pendingPods(snapshot, {}).map((p) => diagnosePod(ruleSet, snapshot, p));
    expect(t.kept[0]?.counts).toEqual(a?.counts);
    expect(t.kept[1]?.counts).toEqual(b?.counts);
    expect(b?.counts.nodes).toBe(1);
  });

  it('refuses an index that is no pending pod of the triage', async () => {
    const snapshot = await readDump(several, process.stdin);
    const t = triage(ruleSet, snapshot, {}, () => 0);
    expect(() => t.diagnosisOf(t.kept.length)).toThrow(/no pending pod at 7 in this triage of 7/);
  });

  it('replays class after class, so that only one class\'s verdicts are alive at a time, and keeps pods in order', () => {
    // Two ReplicaSets' pods interleaved by name: a1 b1 a2 b2 ... in the scope's order.
    const spec = (cpu: string) => ({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu } } }] });
    const owned = (rs: string) => ({ metadata: { namespace: 'shop', labels: { app: rs }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: rs, controller: true }] } });
    const pods = ['1', '2', '3'].flatMap((n) => [
      { ...pod(`a${n}`, spec('64')), ...owned('a'), metadata: { ...owned('a').metadata, name: `a${n}` } },
      { ...pod(`b${n}`, spec('65')), ...owned('b'), metadata: { ...owned('b').metadata, name: `b${n}` } },
    ]);
    const node = { metadata: { name: 'n1', labels: {} }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } };
    const snapshot: Snapshot = { source: { kind: 'dump', description: 'two classes' }, objects: { ...emptyCollections(), nodes: [node], pods }, gaps: [] };
    const order: string[] = [];
    const t = triage(ruleSet, snapshot, {}, (found) => {
      order.push(found.pod.name ?? '');
      return found.pod.name;
    });
    expect(order).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    expect(t.kept).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3'].sort());
  });

  it('leaves out running, succeeded and terminating pods, and pods outside the scope', () => {
    const snapshot: Snapshot = {
      source: { kind: 'dump', description: 'pods' },
      objects: {
        ...emptyCollections(),
        pods: [
          pod('a', { containers: [] }),
          pod('b', { containers: [] }, { status: { phase: 'Running' } }),
          pod('c', { containers: [] }, { status: { phase: 'Succeeded' } }),
          pod('d', { containers: [] }, { metadata: { name: 'd', namespace: 'shop', deletionTimestamp: new Date(0) } }),
          pod('e', { containers: [] }, { metadata: { name: 'e', namespace: 'other' } }),
          pod('f', { containers: [] }, { metadata: { name: 'f', namespace: 'shop', labels: { app: 'api' } } }),
        ],
      },
      gaps: [],
    };
    expect(pendingPods(snapshot, { namespace: 'shop' }).map((p) => p.metadata?.name)).toEqual(['a', 'f']);
    expect(pendingPods(snapshot, {}).map((p) => p.metadata?.name)).toEqual(['e', 'a', 'f']);
    expect(pendingPods(snapshot, { selector: { matchLabels: { app: 'web' } } }).map((p) => p.metadata?.name)).toEqual(['a']);
  });
});

describe('equivalence classes', () => {
  const base = pod('web-1', { containers: [{ name: 'c', image: 'i' }] });
  it.each([
    { name: 'same spec, labels and namespace, other name: same class', other: { ...base, metadata: { ...base.metadata, name: 'web-2' } }, same: true },
    { name: 'another label: another class', other: { ...base, metadata: { ...base.metadata, labels: { app: 'api' } } }, same: false },
    { name: 'another namespace: another class', other: { ...base, metadata: { ...base.metadata, namespace: 'other' } }, same: false },
    { name: 'another spec: another class', other: pod('web-2', { containers: [{ name: 'c', image: 'j' }] }), same: false },
  ])('$name', ({ other, same }) => {
    expect(equivalenceKey(other) === equivalenceKey(base)).toBe(same);
  });

  // As admission leaves them: the ServiceAccount plugin's volume and mount, named at random.
  const admitted = (name: string, token: string, claim = 'data'): V1Pod =>
    pod(name, {
      containers: [{ name: 'c', image: 'i', volumeMounts: [{ name: token, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }, { name: 'data', mountPath: '/data' }] }],
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: claim } },
        { name: token, projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }] } },
      ],
    });
  it('pods admitted alike share a class, though admission named their token volume at random', () => {
    expect(equivalenceKey(admitted('web-1', 'kube-api-access-x7k2p'))).toBe(equivalenceKey(admitted('web-2', 'kube-api-access-q9m4z')));
  });
  it('a claim of its own still makes another class (VolumeBinding reads the claim by name)', () => {
    expect(equivalenceKey(admitted('web-1', 'kube-api-access-x7k2p'))).not.toBe(equivalenceKey(admitted('web-2', 'kube-api-access-x7k2p', 'data-2')));
  });

  it.each([
    { name: 'ResourceClaims (DynamicResources reads the claims made for this pod)', spec: { containers: [], resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }] } },
    { name: 'generic ephemeral volumes (the claim is controlled by this pod)', spec: { containers: [], volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }] } },
  ])('a pod with $name is in no class', ({ spec }) => {
    expect(equivalenceKey(pod('x', spec))).toBeUndefined();
  });

  it('a pod nominated to a node is in no class: the room its nomination holds counts against the others, not itself', () => {
    expect(equivalenceKey({ ...base, status: { phase: 'Pending', nominatedNodeName: 'worker-1' } })).toBeUndefined();
  });
});

describe('schema/triage.v1.json', () => {
  it('names the stages schema/diagnosis.v1.json names', async () => {
    const { readFileSync } = await import('node:fs');
    const read = (file: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'schema', file), 'utf8')) as { $defs: { Stage: { enum: string[] } } };
    expect(read('triage.v1.json').$defs.Stage.enum).toEqual(read('diagnosis.v1.json').$defs.Stage.enum);
  });

  it('is closed: a field it does not define fails', async () => {
    const { expectValidTriage } = await import('../support/schema.js');
    const doc = { apiVersion: 'whypending/v1', kind: 'Triage', version: '0', source: { kind: 'dump', description: 'x' }, scope: { namespace: null }, counts: { pending: 0, groups: 0 }, groups: [] };
    expectValidTriage(doc);
    expect(() => expectValidTriage({ ...doc, extra: 1 })).toThrow(/must NOT have additional properties/);
  });
});
