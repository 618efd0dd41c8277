// readDump end to end: files, folders and stdin; copies of one dump read once; every collection
// the dump does not hold named as a gap; progress on long reads; objects cut to what is read.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { requestOrigins } from '../../../src/engine/resources/origins.js';
import { looksLikeJson, progressMeter, readDump } from '../../../src/sources/dump/read.js';
import { slim } from '../../../src/sources/dump/slim.js';
import { collectionNames, collectionOfKind, type CollectionName } from '../../../src/snapshot/types.js';
import { chunks } from './read-text.js';

const example = path.resolve(import.meta.dirname, '..', '..', '..', 'examples', 'gpu-taint-typo.yaml');
const exampleText = readFileSync(example, 'utf8');
const scratch = mkdtempSync(path.join(tmpdir(), 'why-pending-dump-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
/** A fresh folder holding these files. */
function dumpFolder(files: Record<string, string>): string {
  const dir = path.join(scratch, `case-${++folders}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const stdin = () => Readable.from([]);
const exampleJson = JSON.stringify(parse(exampleText), null, 4);

describe('copies of one dump are read once', () => {
  it('the same file twice in a folder gives the snapshot of one copy, and says how many were repeated', async () => {
    const one = await readDump(example, stdin());
    const dir = dumpFolder({ 'a.yaml': exampleText, 'b.yaml': exampleText });
    const both = await readDump(dir, stdin());
    expect(both.objects).toEqual(one.objects);
    expect(both.gaps).toEqual(one.gaps);
    const count = Object.values(one.objects).reduce((n, list) => n + list.length, 0);
    expect(both.notes).toEqual([{ kind: 'repeatedObjects', count }]);
  });

  it('a YAML and a JSON copy of one dump in a folder give the snapshot of one copy', async () => {
    const one = await readDump(example, stdin());
    const dir = dumpFolder({ 'cluster.json': exampleJson, 'cluster.yaml': exampleText });
    const both = await readDump(dir, stdin());
    expect(both.objects).toEqual(one.objects);
    expect(both.gaps).toEqual(one.gaps);
    expect(both.notes).toHaveLength(1);
  });

  it('two captures of one cluster keep the newer node and say which copy was dropped', async () => {
    const nodeAt = (rv: string, cpu: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'u1', resourceVersion: rv }, status: { allocatable: { cpu } } });
    const dir = dumpFolder({
      'a.yaml': stringify({ apiVersion: 'v1', kind: 'List', items: [nodeAt('1200', '8')] }),
      'b.json': JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [nodeAt('1100', '4')] }),
    });
    const snapshot = await readDump(dir, stdin());
    expect(snapshot.objects.nodes.map((n) => n.status?.allocatable?.['cpu'])).toEqual(['8']);
    expect(snapshot.notes).toEqual([
      {
        kind: 'conflictingVersions',
        object: { kind: 'Node', name: 'n1' },
        kept: { resourceVersion: '1200', where: `${path.join(dir, 'a.yaml')}, item 1` },
        dropped: [{ resourceVersion: '1100', where: `${path.join(dir, 'b.json')}, item 1` }],
      },
    ]);
  });
});

/** One object of every kind the snapshot holds. */
function objectOf(kind: string): Record<string, unknown> {
  if (kind === 'Event') return { apiVersion: 'v1', kind, metadata: { name: 'e', namespace: 'shop' }, involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'shop' }, reason: 'Scheduled', message: 'ok' };
  // The one ConfigMap read is cluster-autoscaler's status; any other is dropped unread.
  if (kind === 'ConfigMap') return { apiVersion: 'v1', kind, metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: { status: 'autoscalerStatus: Running\n' } };
  return { apiVersion: 'v1', kind, metadata: { name: `a-${kind.toLowerCase()}`, namespace: 'shop' } };
}

describe("of ConfigMaps, only cluster-autoscaler's status and its status key are kept", () => {
  it('drops every other ConfigMap unread, whatever its shape, and every other key', async () => {
    const items = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-secrets-ish', namespace: 'shop' }, data: { password: 'hunter2' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-autoscaler-status', namespace: 'shop' }, data: 'not even a map' },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: { status: 'autoscalerStatus: Running\n', other: 'dropped' }, binaryData: { b: 'AA==' } },
    ];
    const dir = dumpFolder({ 'dump.yaml': stringify({ apiVersion: 'v1', kind: 'List', items }) });
    const snapshot = await readDump(dir, stdin());
    expect(snapshot.objects.clusterAutoscalerStatus).toHaveLength(1);
    expect(snapshot.objects.clusterAutoscalerStatus[0]?.data).toEqual({ status: 'autoscalerStatus: Running\n' });
    expect(JSON.stringify(snapshot)).not.toContain('hunter2');
    expect(snapshot.gaps.map((g) => g.collection)).not.toContain('clusterAutoscalerStatus');
  });
});

describe('every collection the dump does not hold is a gap', () => {
  const allKinds = ['Event', ...Object.keys(collectionOfKind)];
  it.each([
    { name: 'nodes and pods only: every other collection', kinds: ['Node', 'Pod'], present: ['nodes', 'pods'] },
    { name: 'a lone pod: everything but pods', kinds: ['Pod'], present: ['pods'] },
    { name: 'one object of every kind: no gap', kinds: allKinds, present: [...collectionNames] },
    { name: 'only kinds the engine does not read: every collection', kinds: ['Service'], present: [] },
  ])('$name', async ({ kinds, present }) => {
    const dir = dumpFolder({ 'dump.yaml': stringify({ apiVersion: 'v1', kind: 'List', items: kinds.map(objectOf) }) });
    const snapshot = await readDump(dir, stdin());
    expect(snapshot.gaps).toEqual(collectionNames.filter((c) => !(present as CollectionName[]).includes(c)).map((collection) => ({ collection, cause: 'absentFromDump' })));
  });
});

describe('a kind captured empty is no gap', () => {
  const emptyList = stringify({ apiVersion: 'v1', kind: 'List', items: [], metadata: { resourceVersion: '' } });
  const nodes = stringify({ apiVersion: 'v1', kind: 'List', items: [objectOf('Node')] });
  it.each<{ name: string; files: Record<string, string>; captured: CollectionName[] }>([
    { name: 'one file per kind, as the README captures: empty files named after their kind', files: { 'nodes.yaml': nodes, 'pv.yaml': emptyList, 'persistentvolumeclaims.json': '{"apiVersion":"v1","items":[],"kind":"List"}' }, captured: ['nodes', 'persistentVolumes', 'persistentVolumeClaims'] },
    { name: 'short names and singular names count too', files: { 'no.yaml': nodes, 'SC.yml': emptyList, 'csinode.yaml': emptyList }, captured: ['nodes', 'storageClasses', 'csiNodes'] },
    { name: 'an empty typed list says its kind (cluster-info dump, the raw API)', files: { 'dump.yaml': nodes, 'x.json': '{"kind":"PodList","apiVersion":"v1","items":[]}' }, captured: ['nodes', 'pods'] },
    { name: 'a file named after no kind proves nothing', files: { 'nodes.yaml': nodes, 'case.yaml': emptyList }, captured: ['nodes'] },
  ])('$name', async ({ files, captured }) => {
    const snapshot = await readDump(dumpFolder(files), stdin());
    expect(snapshot.gaps.map((g) => g.collection)).toEqual(collectionNames.filter((c) => !captured.includes(c)));
  });
});

describe('stdin', () => {
  it.each([
    { name: 'YAML in small chunks', text: exampleText, sizes: [3, 17] },
    { name: 'JSON in small chunks', text: exampleJson, sizes: [5] },
    { name: 'YAML in one chunk', text: exampleText, sizes: [1 << 20] },
  ])('$name reads as the file does', async ({ text, sizes }) => {
    const fromFile = await readDump(example, stdin());
    const fromStdin = await readDump('-', Readable.from(chunks(Buffer.from(text), sizes).map((c) => Buffer.from(c))));
    expect(fromStdin.objects).toEqual(fromFile.objects);
    expect(fromStdin.source).toEqual({ kind: 'dump', description: 'stdin' });
  });

  it('an object that contains itself (an alias inside its own anchor) is an input error', async () => {
    const text = 'items:\n- &n\n  kind: Node\n  metadata:\n    name: n1\n    x: *n\nkind: List\n';
    await expect(readDump('-', Readable.from([text]))).rejects.toThrow(/^<stdin>, item 1: the object contains itself/);
  });

  it('an empty stdin holds no objects', async () => {
    await expect(readDump('-', stdin())).rejects.toThrow(/holds no Kubernetes objects/);
  });
});

describe('JSON or YAML, from the first bytes', () => {
  it.each([
    { text: '{"kind": "List"}', complete: true, json: true },
    { text: '  \n{\n  "apiVersion"', complete: false, json: true },
    { text: '[{"kind": "Pod"}]', complete: true, json: true },
    { text: '[]', complete: true, json: true },
    { text: '{}', complete: true, json: true },
    { text: '\uFEFF{"a": 1}', complete: true, json: true },
    { text: '{kind: Pod, metadata: {name: x}}', complete: true, json: false },
    { text: '[{kind: Pod}]', complete: true, json: false },
    { text: 'apiVersion: v1', complete: true, json: false },
    { text: '---\n{"kind": "Pod"}', complete: true, json: false },
    { text: '{   ', complete: false, json: undefined },
    { text: '{   ', complete: true, json: true },
    { text: '', complete: true, json: false },
  ])('$text (complete: $complete) is JSON: $json', ({ text, complete, json }) => {
    expect(looksLikeJson(text, complete)).toBe(json);
  });

  it('a flow-style YAML dump is read as YAML', async () => {
    const dir = dumpFolder({ 'flow.yaml': '{apiVersion: v1, kind: Node, metadata: {name: n1}}\n' });
    expect((await readDump(dir, stdin())).objects.nodes.map((n) => n.metadata?.name)).toEqual(['n1']);
  });
});

describe('progress on a long read', () => {
  it('says nothing in the first second, then at most four times a second', () => {
    let now = 0;
    const lines: string[] = [];
    const meter = progressMeter((line) => lines.push(line), () => now);
    const at = (ms: number, bytes: number, objects: number) => {
      now = ms;
      meter('case.yaml', bytes, objects);
    };
    at(500, 10e6, 1000);
    at(999, 20e6, 2000);
    at(1001, 120e6, 41000);
    at(1200, 130e6, 42000);
    at(1260, 140e6, 43000);
    expect(lines).toEqual(['reading dump case.yaml: 120 MB, 41,000 objects so far', 'reading dump case.yaml: 140 MB, 43,000 objects so far']);
  });

  it('is not asked for when no one listens', async () => {
    await expect(readDump(example, stdin(), {})).resolves.toBeDefined();
  });
});

describe('objects are cut to what is read', () => {
  const managed = (containers: Record<string, unknown>) => ({
    manager: 'kubectl',
    operation: 'Update',
    fieldsV1: { 'f:metadata': { 'f:labels': {} }, 'f:spec': { 'f:containers': containers, 'f:dnsPolicy': {} } },
  });
  const pod = (): V1Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-0',
      namespace: 'shop',
      annotations: { 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container web' },
      managedFields: [
        managed({ 'k:{"name":"web"}': { 'f:image': {}, 'f:resources': { 'f:limits': { 'f:cpu': {} }, 'f:requests': { 'f:memory': {} } } } }),
        managed({ 'k:{"name":"side"}': { 'f:image': {} } }),
      ],
    },
    spec: {
      containers: [
        { name: 'web', image: 'web', env: [{ name: 'A', value: 'b' }], envFrom: [{ configMapRef: { name: 'c' } }], command: ['run'], args: ['--x'], livenessProbe: {}, resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } },
        { name: 'side', image: 'side', resources: { requests: { cpu: '100m' }, limits: { cpu: '100m' } } },
      ],
    },
  });

  it('a pod keeps its annotations, and of its managedFields only who wrote which requests', () => {
    const cut = pod();
    slim('Pod', cut as Record<string, unknown>);
    expect(cut.metadata?.annotations).toEqual(pod().metadata?.annotations);
    expect(cut.metadata?.managedFields).toEqual([
      { manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:resources': { 'f:requests': { 'f:memory': {} } } } } } } },
      { manager: 'kubectl', operation: 'Update' },
    ]);
    expect(cut.spec?.containers[0]).toEqual({ name: 'web', image: 'web', resources: pod().spec?.containers[0]?.resources });
  });

  it('the engine tells defaulted requests the same way, before and after', () => {
    const cut = pod();
    slim('Pod', cut as Record<string, unknown>);
    expect(requestOrigins(cut)).toEqual(requestOrigins(pod()));
    expect(requestOrigins(cut)).not.toEqual([]);
  });

  it('a node loses its managedFields and its image list, and keeps the rest', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', managedFields: [{ manager: 'kubelet' }], labels: { a: 'b' } }, status: { images: [{ names: ['x'] }], allocatable: { cpu: '4' } } };
    slim('Node', node);
    expect(node).toEqual({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { a: 'b' } }, status: { allocatable: { cpu: '4' } } });
  });

  it("a cordoned node keeps, of its managedFields, who set spec.unschedulable and when", () => {
    const cordoner = { manager: 'kubectl', operation: 'Update', time: '2026-03-04T08:30:02Z', fieldsV1: { 'f:spec': { 'f:unschedulable': {}, 'f:podCIDR': {} } } };
    const node = { kind: 'Node', metadata: { name: 'n1', managedFields: [{ manager: 'kubelet', fieldsV1: { 'f:status': {} } }, cordoner] }, spec: { unschedulable: true } };
    slim('Node', node);
    expect(node.metadata.managedFields).toEqual([{ manager: 'kubectl', operation: 'Update', time: '2026-03-04T08:30:02Z', fieldsV1: { 'f:spec': { 'f:unschedulable': {} } } }]);
  });
});

describe("the cluster's version (`kubectl version -o json|yaml` in the dump)", () => {
  // As kubectl v1.34 prints it; the server part is k8s.io/apimachinery version.Info.
  const versionOutput = {
    clientVersion: { major: '1', minor: '34', gitVersion: 'v1.34.1', platform: 'linux/amd64' },
    kustomizeVersion: 'v5.7.1',
    serverVersion: { major: '1', minor: '33+', gitVersion: 'v1.33.5-eks-3025e55', platform: 'linux/amd64' },
  };

  it.each([
    ['version.json', JSON.stringify(versionOutput, null, 4)],
    ['version.yaml', stringify(versionOutput)],
  ])('%s in a folder: the server gitVersion, as served, and not counted as an object', async (name, text) => {
    const without = await readDump(dumpFolder({ 'cluster.yaml': exampleText }), stdin());
    const snapshot = await readDump(dumpFolder({ 'cluster.yaml': exampleText, [name]: text }), stdin());
    expect(snapshot.cluster).toEqual({ version: 'v1.33.5-eks-3025e55' });
    expect(snapshot.objects).toEqual(without.objects);
    expect(snapshot.gaps).toEqual(without.gaps);
    expect(without.cluster).toBeUndefined();
  });

  it('in the same multi-document YAML file as the objects, and from stdin', async () => {
    const text = `${stringify(versionOutput)}---\n${exampleText}`;
    const snapshot = await readDump('-', Readable.from([text]));
    expect(snapshot.cluster).toEqual({ version: 'v1.33.5-eks-3025e55' });
    expect(snapshot.objects.nodes.length).toBeGreaterThan(0);
  });

  it('without the server part (kubectl could not reach it): no version, and no error', async () => {
    const { serverVersion: _server, ...clientOnly } = versionOutput;
    const snapshot = await readDump(dumpFolder({ 'cluster.yaml': exampleText, 'version.json': JSON.stringify(clientOnly) }), stdin());
    expect(snapshot.cluster).toBeUndefined();
  });

  it('a version alone is no dump', async () => {
    await expect(readDump(dumpFolder({ 'version.json': JSON.stringify(versionOutput) }), stdin())).rejects.toThrow(/holds no Kubernetes objects/);
  });
});
