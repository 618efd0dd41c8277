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
    const shared = triage(ruleSet, snapshot, {});
    const alone = pendingPods(snapshot, {}).map((p) => diagnosePod(ruleSet, snapshot, p));
    // By namespace, then name.
    expect(shared.map((d) => d.pod.name)).toEqual(['report', 'api-5c6b7-pqrst', 'api-5c6b7-uvwxy', 'migrate', 'web-7d9f8-abcde', 'web-7d9f8-fghij', 'web-7d9f8-klmno']);
    expect(shared).toEqual(alone);
  });

  it('at scale, pods of one ReplicaSet get the verdicts the first of them got, computed alone', () => {
    const cluster = triageCluster(60, 2, 25);
    const snapshot: Snapshot = { source: { kind: 'dump', description: 'synthetic' }, objects: { ...emptyCollections(), nodes: cluster.nodes, pods: cluster.pods }, gaps: [] };
    const shared = triage(ruleSet, snapshot, { namespace: 'shop' });
    expect(shared).toHaveLength(25);
    const last = pendingPods(snapshot, { namespace: 'shop' }).at(-1);
    if (!last) throw new Error('no pending pod');
    expect(shared.at(-1)).toEqual(diagnosePod(ruleSet, snapshot, last));
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
