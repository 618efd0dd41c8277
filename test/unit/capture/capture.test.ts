// A capture's parts, each able to fail: the manifest keeps schema/capture.v1.json and says how
// each collection was read; redaction drops every planted secret and keeps what the engine
// reads; a capture is never written over anything nor left half-written; and a hostile or
// damaged capture is refused in one line (exit 3), never by a stack trace or a file written.
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../../src/errors.js';
import { parseRead, type ListLike } from '../../../src/sources/capture/manifest.js';
import { redactObject } from '../../../src/sources/capture/redact.js';
import { unpackTarGz } from '../../../src/sources/capture/tar.js';
import { captureFiles, writeCapture } from '../../../src/sources/capture/write.js';
import { readDump } from '../../../src/sources/dump/read.js';
import { maxArchiveEntries } from '../../../src/sources/dump/limits.js';
import { collectionNames, emptyCollections, type Snapshot } from '../../../src/snapshot/types.js';
import captureSchema from '../../../schema/capture.v1.json' with { type: 'json' };

const scratch = mkdtempSync(path.join(tmpdir(), 'wp-capture-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => path.join(scratch, `${++n}-${name}`);

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validManifest = ajv.compile(captureSchema);

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-0',
    namespace: 'shop',
    uid: 'u1',
    annotations: {
      'example.com/token': 'SECRET-ANNOTATION',
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container app',
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ kind: 'Pod', spec: { containers: [{ name: 'app', env: [{ name: 'A', value: 'SECRET-IN-APPLIED' }], resources: { requests: { cpu: '1' } } }] } }),
    },
  },
  spec: {
    nodeSelector: { disk: 'ssd' },
    containers: [
      {
        name: 'app',
        image: 'SECRET-IMAGE',
        command: ['SECRET-COMMAND'],
        args: ['SECRET-ARG'],
        env: [{ name: 'PASSWORD', value: 'SECRET-ENV' }],
        livenessProbe: { exec: { command: ['SECRET-PROBE'] } },
        resources: { requests: { cpu: '1' } },
        ports: [{ containerPort: 80, hostPort: 80 }],
      },
    ],
    volumes: [{ name: 'conf', secret: { secretName: 'SECRET-VOLUME-NAME' } }, { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }],
  },
  status: { phase: 'Pending' },
};

function snapshotWith(pods: unknown[], extra: Partial<Snapshot> = {}): Snapshot {
  return { source: { kind: 'live', description: 'test' }, objects: { ...emptyCollections(), pods: pods as never }, gaps: [], ...extra };
}

const base = { selection: { namespace: 'shop', name: 'web-0' }, toolVersion: 'test', serverVersion: 'v1.37.2', capturedAt: new Date('2026-12-05T10:00:00Z'), redactNames: false };

describe('redaction', () => {
  it('drops environment values, command lines, probes, images, secret volume names and unread annotations', () => {
    const cut = JSON.stringify(redactObject('pods', 'Pod', pod));
    for (const planted of ['SECRET-ANNOTATION', 'SECRET-IN-APPLIED', 'SECRET-IMAGE', 'SECRET-COMMAND', 'SECRET-ARG', 'SECRET-ENV', 'SECRET-PROBE', 'SECRET-VOLUME-NAME']) expect(cut).not.toContain(planted);
  });

  it('keeps what the engine reads: requests, ports, selectors, claims, the limit-ranger note, applied requests', () => {
    const cut = redactObject('pods', 'Pod', pod) as typeof pod;
    expect(cut.spec.containers[0]).toEqual({ name: 'app', resources: { requests: { cpu: '1' } }, ports: [{ containerPort: 80, hostPort: 80 }] });
    expect(cut.spec.nodeSelector).toEqual({ disk: 'ssd' });
    expect(cut.spec.volumes).toEqual([{ name: 'conf', secret: {} }, { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);
    expect(cut.metadata.annotations['kubernetes.io/limit-ranger']).toBe(pod.metadata.annotations['kubernetes.io/limit-ranger']);
    expect(JSON.parse(cut.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])).toEqual({ spec: { containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }] } });
  });

  it("keeps of cluster-autoscaler's status ConfigMap its status key alone", () => {
    const cut = redactObject('clusterAutoscalerStatus', 'ConfigMap', { metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: { status: 'ok', other: 'SECRET' } });
    expect(cut).toEqual({ metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system' }, data: { status: 'ok' } });
  });

  it('cuts the pod templates of owners the same way', () => {
    const deployment = { metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2, template: { metadata: { labels: { app: 'web' }, annotations: { a: 'SECRET-T' } }, spec: pod.spec } } };
    const cut = JSON.stringify(redactObject('deployments', 'Deployment', deployment));
    expect(cut).not.toMatch(/SECRET/);
    expect(cut).toContain('"replicas":2');
  });
});

describe('the manifest', () => {
  it('names how each collection was read and keeps the published schema', () => {
    const sent = [
      { path: '/api/v1/namespaces/shop/pods/web-0', status: 200 },
      { path: '/api/v1/nodes?limit=500', status: 200 },
      { path: '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1%2Cstatus.phase%21%3DSucceeded&limit=500', status: 200 },
      { path: '/apis/storage.k8s.io/v1/storageclasses?limit=500', status: 403 },
      { path: '/k8s/clusters/c-1/apis/apps/v1/namespaces/shop/replicasets?labelSelector=app%3Dweb&limit=500', status: 200 },
    ];
    const lists: ListLike[] = [
      { path: '/api/v1/nodes', query: { limit: '500' }, items: 3, kept: 3 },
      { path: '/apis/apps/v1/namespaces/shop/replicasets', query: { labelSelector: 'app=web', limit: '500' }, items: 2, kept: 1 },
    ];
    const gaps = [{ collection: 'storageClasses' as const, cause: 'forbidden' as const, permission: { verb: 'list', resource: 'storageclasses.storage.k8s.io', scope: 'cluster' } }];
    const { manifest } = captureFiles({ ...base, snapshot: snapshotWith([pod], { gaps, podsReadOn: ['node-1'] }), sent, lists });
    expect(validManifest(manifest), JSON.stringify(validManifest.errors)).toBe(true);
    expect(manifest.collections.nodes).toMatchObject({ state: 'complete', reads: [{ verb: 'list', scope: 'cluster', items: 3, kept: 3 }] });
    expect(manifest.collections.pods.state).toBe('partial');
    expect(manifest.collections.pods.reads).toContainEqual(expect.objectContaining({ verb: 'get', namespace: 'shop', name: 'web-0' }));
    expect(manifest.collections.pods.reads).toContainEqual(expect.objectContaining({ verb: 'list', node: 'node-1' }));
    expect(manifest.collections.storageClasses).toMatchObject({ state: 'refused', permission: gaps[0]?.permission });
    expect(manifest.collections.replicaSets).toMatchObject({ state: 'partial', reads: [{ labelSelector: 'app=web', items: 2, kept: 1 }] });
    expect(manifest.collections.jobs.state).toBe('notRead');
    expect(manifest.snapshot).toEqual({ gaps, podsReadOn: ['node-1'] });
    expect(manifest.server.gitVersion).toBe('v1.37.2');
  });

  it('lists every collection the snapshot has, and the schema the same', () => {
    expect(Object.keys(captureSchema.properties.collections.properties).sort()).toEqual([...collectionNames].sort());
    expect(parseRead({ path: '/version', status: 200 })).toBeUndefined();
    expect(parseRead({ path: '/api/v1/namespaces/shop', status: 200 })).toMatchObject({ collection: 'namespaces', record: { verb: 'get', name: 'shop' } });
  });

  it('is refused, in one line, when it is not a manifest this release reads', async () => {
    const dir = fresh('bad-manifest');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ apiVersion: 'why-pending.capture/v9', kind: 'Capture' }));
    await expect(readDump(dir, process.stdin)).rejects.toThrow(/manifest.json: apiVersion "why-pending.capture\/v9" is not why-pending.capture\/v1/);
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ apiVersion: 'why-pending.capture/v1', kind: 'Capture', snapshot: { gaps: [{ collection: 'nope', cause: 'error' }] } }));
    await expect(readDump(dir, process.stdin)).rejects.toThrow(/snapshot.gaps is missing or malformed/);
  });
});

describe('writing', () => {
  it('never overwrites a file or a folder that holds something', async () => {
    const { files } = captureFiles({ ...base, snapshot: snapshotWith([pod]), sent: [], lists: [] });
    const dir = fresh('taken');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'mine.txt'), 'keep me');
    await expect(writeCapture(dir, files, base.capturedAt)).rejects.toThrow(UsageError);
    expect(readdirSync(dir)).toEqual(['mine.txt']);
    const archive = fresh('taken.tar.gz');
    writeFileSync(archive, 'keep me');
    await expect(writeCapture(archive, files, base.capturedAt)).rejects.toThrow(/already exists/);
    // An empty folder is taken, as kubectl cp would.
    const empty = fresh('empty');
    mkdirSync(empty);
    await writeCapture(empty, files, base.capturedAt);
    expect(readdirSync(empty).sort()).toEqual(['manifest.json', 'pods.json']);
  });

  it('writes a large file in pieces, gzip member after member, and reads it back whole', async () => {
    // 3 MB of pods: more than one piece of the List and more than one gzip member.
    const many = Array.from({ length: 6000 }, (_, i) => ({ ...pod, metadata: { ...pod.metadata, name: `pod-${i}`, labels: { filler: 'x'.repeat(400) } } }));
    const { files } = captureFiles({ ...base, snapshot: snapshotWith(many), sent: [], lists: [] });
    const pods = files.find((f) => f.path === 'pods.json');
    expect(pods?.pieces.length).toBeGreaterThan(1);
    const archive = fresh('large.tar.gz');
    await writeCapture(archive, files, base.capturedAt);
    const gz = readFileSync(archive);
    // A second member starts where the first ends: its magic number appears after byte 0.
    expect(gz.subarray(2).indexOf(Buffer.from([0x1f, 0x8b, 0x08]))).toBeGreaterThan(0);
    const unpacked = await unpackTarGz(createReadStream(archive), archive);
    expect(unpacked.find((f) => f.path === `${path.basename(archive, '.tar.gz')}/pods.json`)?.bytes.equals(Buffer.concat(pods?.pieces ?? []))).toBe(true);
    const dir = fresh('large-dir');
    await writeCapture(dir, files, base.capturedAt);
    expect(readFileSync(path.join(dir, 'pods.json')).equals(Buffer.concat(pods?.pieces ?? []))).toBe(true);
    const read = await readDump(archive, process.stdin);
    expect(read.objects.pods.map((p) => p.metadata?.name)).toEqual(many.map((p) => p.metadata.name));
  });

  it('leaves nothing half-written when it cannot write', async () => {
    const { files } = captureFiles({ ...base, snapshot: snapshotWith([pod]), sent: [], lists: [] });
    const target = path.join(fresh('missing-parent'), 'case.tar.gz');
    await expect(writeCapture(target, files, base.capturedAt)).rejects.toThrow(InputError);
    expect(existsSync(path.dirname(target))).toBe(false);
  });
});

/** A ustar header for `name` of `type` with `size` bytes (checksum filled in). */
function header(name: string, type: string, size: number, link = ''): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write(link, 157);
  h.write('ustar\u000000', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

function archive(entries: { name: string; type?: string; body?: string; link?: string }[]): string {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    parts.push(header(e.name, e.type ?? '0', body.length, e.link), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  const file = fresh('hostile.tar.gz');
  writeFileSync(file, gzipSync(Buffer.concat(parts)));
  return file;
}

const podJson = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop' }, spec: { containers: [{ name: 'a' }] } });

describe('hostile captures are refused in one line', () => {
  const cases: { name: string; entries: Parameters<typeof archive>[0]; error: RegExp }[] = [
    { name: 'a symbolic link', entries: [{ name: 'case/pods.json', type: '2', link: '/etc/passwd' }], error: /is a symbolic link; a capture holds plain files only/ },
    { name: 'a hard link', entries: [{ name: 'case/pods.json', type: '1', link: '/etc/shadow' }], error: /is a hard link/ },
    { name: 'a device', entries: [{ name: 'case/dev', type: '3' }], error: /is a character device/ },
    { name: 'a FIFO', entries: [{ name: 'case/fifo', type: '6' }], error: /is a FIFO/ },
    { name: 'an absolute path', entries: [{ name: '/tmp/pods.json', body: podJson }], error: /has an absolute path/ },
    { name: '..', entries: [{ name: 'case/../../pods.json', body: podJson }], error: /climbs out with "\.\."/ },
    { name: 'a path too deep', entries: [{ name: 'a/b/c/d/e/f/g/h/i/j/pods.json', body: podJson }], error: /more than 8 folders deep/ },
  ];
  it.each(cases)('$name', async ({ entries, error }) => {
    const before = readdirSync(tmpdir()).length;
    const failure = await readDump(archive(entries), process.stdin).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as Error).message).toMatch(error);
    expect((failure as Error).message).not.toContain('\n');
    // Nothing was extracted anywhere.
    expect(readdirSync(tmpdir()).length).toBeLessThanOrEqual(before);
  });

  it('more entries than a capture ever has', async () => {
    const many = Array.from({ length: maxArchiveEntries + 1 }, (_, i) => ({ name: `case/f${i}.txt` }));
    await expect(readDump(archive(many), process.stdin)).rejects.toThrow(/more than 1,000 entries/);
  });

  it('a damaged header, a truncated archive, a file that is not gzip', async () => {
    const file = archive([{ name: 'case/pods.json', body: podJson }]);
    const bytes = (await import('node:zlib')).gunzipSync((await import('node:fs')).readFileSync(file));
    bytes[0] = 0x41;
    const damaged = fresh('damaged.tar.gz');
    writeFileSync(damaged, gzipSync(bytes));
    await expect(readDump(damaged, process.stdin)).rejects.toThrow(/bad header checksum/);
    const truncated = fresh('truncated.tar.gz');
    writeFileSync(truncated, gzipSync(Buffer.concat([header('case/pods.json', '0', 4096), Buffer.alloc(100)])));
    await expect(readDump(truncated, process.stdin)).rejects.toThrow(/ends inside an entry/);
    const notGzip = fresh('not.tar.gz');
    writeFileSync(notGzip, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]));
    await expect(readDump(notGzip, process.stdin)).rejects.toThrow(InputError);
  });

  it('a plain folder of dump files, tarred and gzipped, reads as that folder', async () => {
    const snapshot = await readDump(archive([{ name: 'case/pods.json', body: podJson }]), process.stdin);
    expect(snapshot.source.kind).toBe('dump');
    expect(snapshot.objects.pods.map((p) => p.metadata?.name)).toEqual(['web-0']);
  });
});

describe('nesting past any Kubernetes object', () => {
  it.each([
    ['JSON', 'deep.json', `{"kind":"Pod","metadata":{"name":"x"},"spec":${'['.repeat(200_000)}${']'.repeat(200_000)}}`],
    ['JSON in a List', 'deep-list.json', `{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"x"},"status":{"x":${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}}}]}`],
    ['YAML', 'deep.yaml', `kind: Pod\nmetadata: {name: x}\nspec: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`],
  ])('%s: exit 3 with the file and the depth', async (_kind, name, text) => {
    const file = fresh(name);
    writeFileSync(file, text);
    const failure = await readDump(file, process.stdin).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as Error).message).toContain(file);
    expect((failure as Error).message).toMatch(/nested deeper than 1,000 levels/);
  });
});
