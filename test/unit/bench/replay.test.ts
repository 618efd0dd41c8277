// The replay server's pieces (test/bench/replay): taking served pages apart and putting them
// together again, the selectors it answers, and renaming a pod in place in both encodings, read
// back by the project's own protobuf reader.
import { describe, expect, it } from 'vitest';
import { decodePodList } from '../../../src/sources/live/protobuf/envelope.js';
import { jsonList, jsonObject, partialMetadataItem, splitJsonList } from '../../bench/replay/json-items.js';
import { protobufList, splitProtobufList } from '../../bench/replay/protobuf-list.js';
import { copyPod, renamedNamespace, renamedUid, scale } from '../../bench/replay/scale.js';
import { labelFilter, matchesFields, parseFieldSelector } from '../../bench/replay/selectors.js';
import type { LoadedItem } from '../../bench/replay/store.js';
import { message, type Field } from '../../support/protobuf.js';

const uid = '5f0c6a2e-1d2b-4c3d-9e8f-0a1b2c3d4e5f';
const podJson = Buffer.from(
  `{"metadata":{"name":"web-1","namespace":"team-07","uid":"${uid}","labels":{"app":"web"},"annotations":{"a":"{\\"namespace\\":\\"team-07\\",\\"requests\\":{\\"cpu\\":\\"450m\\"}}"}},` +
    '"spec":{"containers":[{"name":"main","resources":{"limits":{"memory":"1Gi"},"requests":{"cpu":"450m","memory":"256Mi"}}},{"name":"side","resources":{"requests":{"cpu":"1","memory":"64Mi"}}}],"nodeName":"node-00007"},"status":{"phase":"Running"}}',
);
const container = (name: string, cpu: string, memory: string): Field => [2, [[1, name], [8, [[2, [[1, 'cpu'], [2, [[1, cpu]]]]], [2, [[1, 'memory'], [2, [[1, memory]]]]]]]]];
const podProtobuf = message([
  [1, [[1, 'web-1'], [3, 'team-07'], [5, uid], [11, [[1, 'app'], [2, 'web']]]]],
  [2, [container('main', '450m', '256Mi'), container('side', '1', '64Mi'), [10, 'node-00007']]],
  [3, [[1, 'Running']]],
]);
const item = (json: Buffer, protobuf: Buffer): LoadedItem => ({ key: 'team-07/web-1', namespace: 'team-07', name: 'web-1', uid, fields: { 'spec.nodeName': 'node-00007' }, labels: { app: 'web' }, json, protobuf });

describe('pages taken apart and put together again', () => {
  it('splits a JSON list into its items as served and rebuilds it byte for byte', () => {
    const page = Buffer.from(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"42","continue":"eyJ4IjoxfQ","remainingItemCount":3},"items":[${podJson.toString()},${podJson.toString()}]}\n`);
    const { meta, items } = splitJsonList(page);
    expect(meta).toEqual({ resourceVersion: '42', continue: 'eyJ4IjoxfQ', remainingItemCount: 3 });
    expect(items.map((i) => i.toString())).toEqual([podJson.toString(), podJson.toString()]);
    expect(jsonList('PodList', 'v1', meta, items).equals(page)).toBe(true);
    expect(splitJsonList(Buffer.from('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}\n')).items).toEqual([]);
  });

  it('serves an object with its kind first, and metadata alone', () => {
    expect(JSON.parse(jsonObject('Pod', 'v1', podJson).toString())).toMatchObject({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'web-1' } });
    expect(JSON.parse(partialMetadataItem(podJson).toString())).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: JSON.parse(podJson.toString()).metadata });
  });

  it('rebuilds a protobuf list the project reads, with its continue token', () => {
    const page = protobufList('PodList', 'v1', { resourceVersion: '42', continue: 'tok' }, [podProtobuf, podProtobuf]);
    const split = splitProtobufList(page);
    expect(split).toMatchObject({ kind: 'PodList', apiVersion: 'v1', meta: { resourceVersion: '42', continue: 'tok' } });
    expect(split.items.map((i) => i.equals(podProtobuf))).toEqual([true, true]);
    expect(protobufList(split.kind, split.apiVersion, split.meta, split.items).equals(page)).toBe(true);
    const decoded = decodePodList(page);
    expect(decoded.metadata).toEqual({ continue: 'tok' });
    expect(decoded.items[0]?.metadata).toMatchObject({ name: 'web-1', namespace: 'team-07', uid });
  });
});

describe('selectors', () => {
  it('reads field selectors with empty values and escapes', () => {
    const sel = parseFieldSelector('spec.nodeName!=,status.phase!=Succeeded,metadata.name=a\\,b');
    expect(sel).toEqual([
      { field: 'spec.nodeName', equal: false, value: '' },
      { field: 'status.phase', equal: false, value: 'Succeeded' },
      { field: 'metadata.name', equal: true, value: 'a,b' },
    ]);
    expect(matchesFields(sel, { 'spec.nodeName': 'n1', 'status.phase': 'Running', 'metadata.name': 'a,b' })).toBe(true);
    expect(matchesFields(parseFieldSelector('spec.nodeName='), { 'spec.nodeName': 'n1' })).toBe(false);
  });

  it('reads label selectors, set-based too', () => {
    const selected = labelFilter('app in (web,api),tier!=db,!legacy,team');
    expect(selected({ app: 'web', team: 'x' })).toBe(true);
    expect(selected({ app: 'web', team: 'x', legacy: '' })).toBe(false);
    expect(selected({ app: 'db', team: 'x' })).toBe(false);
    expect(labelFilter('')({})).toBe(true);
  });
});

describe('scaling by renaming', () => {
  it('names a copy one letter apart, of the same length, not one already taken', () => {
    expect(renamedNamespace('team-07', 1, new Set())).toBe('tean-07');
    expect(renamedNamespace('team-07', 1, new Set(['tean-07']))).toBe('teao-07');
    expect(renamedUid(uid, 1)).toBe(`6${uid.slice(1)}`);
    expect(renamedUid('f0', 1)).toBe('00');
  });

  it('renames in place in both encodings and zeroes the requests, nothing else', () => {
    const copy = copyPod(item(podJson, podProtobuf), 'tean-07', 1);
    const json = JSON.parse(copy.json.toString()) as { metadata: { namespace: string; uid: string; annotations: Record<string, string> }; spec: { containers: { resources: { requests: Record<string, string>; limits?: Record<string, string> } }[] } };
    expect(json.metadata.namespace).toBe('tean-07');
    expect(json.metadata.uid).toBe(renamedUid(uid, 1));
    expect(json.spec.containers.map((c) => c.resources.requests)).toEqual([{ cpu: '000m', memory: '000Mi' }, { cpu: '0', memory: '00Mi' }]);
    expect(json.spec.containers[0]?.resources.limits).toEqual({ memory: '1Gi' });
    expect(json.metadata.annotations['a']).toContain('"cpu":"450m"');
    expect(copy.json.length).toBe(podJson.length);
    const decoded = decodePodList(protobufList('PodList', 'v1', { resourceVersion: '1' }, [copy.protobuf ?? Buffer.alloc(0)])).items[0];
    expect(decoded?.metadata).toMatchObject({ name: 'web-1', namespace: 'tean-07', uid: renamedUid(uid, 1) });
    expect(decoded?.spec?.containers.map((c) => c.resources?.requests)).toEqual([{ cpu: '000m', memory: '000Mi' }, { cpu: '0', memory: '00Mi' }]);
    expect(copy.protobuf?.length).toBe(podProtobuf.length);
    expect(podJson.toString()).toContain('"namespace":"team-07"');
  });

  it('adds the fraction asked for, spread over the pods, with their namespaces', () => {
    const pods = Array.from({ length: 10 }, (_, i) => ({ ...item(podJson, podProtobuf), key: `team-07/web-${i}`, name: `web-${i}` }));
    const ns: LoadedItem = { key: 'team-07', name: 'team-07', uid, fields: {}, labels: { 'kubernetes.io/metadata.name': 'team-07' }, json: Buffer.from(`{"metadata":{"name":"team-07","uid":"${uid}","labels":{"kubernetes.io/metadata.name":"team-07"}}}`) };
    const scaled = scale(pods, [ns], 1.5, new Set(['bench']));
    expect(scaled.copies).toBe(5);
    expect(scaled.pods.filter((p) => p.namespace === 'tean-07').map((p) => p.name)).toEqual(['web-1', 'web-3', 'web-5', 'web-7', 'web-9']);
    expect(scaled.namespaces.map((n) => [n.name, n.labels])).toEqual([
      ['team-07', { 'kubernetes.io/metadata.name': 'team-07' }],
      ['tean-07', { 'kubernetes.io/metadata.name': 'tean-07' }],
    ]);
    expect(JSON.parse(scaled.namespaces[1]?.json.toString() ?? '')).toEqual({ metadata: { name: 'tean-07', uid: renamedUid(uid, 1), labels: { 'kubernetes.io/metadata.name': 'tean-07' } } });
  });
});
