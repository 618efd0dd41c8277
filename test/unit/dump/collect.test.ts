// The same object twice is one object: copies are counted, versions compared, and the newest
// kept, with a note saying what was dropped.
import { describe, expect, it } from 'vitest';
import { Collector } from '../../../src/sources/dump/collect.js';
import type { SourceNote } from '../../../src/snapshot/types.js';

interface Meta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
}

const node = (meta: Meta) => ({ apiVersion: 'v1', kind: 'Node', metadata: { ...meta } });
const pod = (meta: Meta) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'shop', ...meta }, spec: { containers: [] } });
const event = (meta: Meta, message: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { namespace: 'shop', ...meta },
  involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-0' },
  reason: 'FailedScheduling',
  message,
  type: 'Warning',
});

function collect(objects: Record<string, unknown>[]) {
  const collector = new Collector();
  objects.forEach((object, i) => collector.add({ object: structuredClone(object), where: `copy ${i + 1}` }));
  return collector.finish();
}

const cases: {
  name: string;
  objects: Record<string, unknown>[];
  /** Kept, in order: name@resourceVersion, or an event's message. */
  kept: string[];
  notes: SourceNote[];
}[] = [
  {
    name: 'different objects are all kept, in the order read',
    objects: [node({ name: 'n1' }), node({ name: 'n2' }), pod({ name: 'n1' })],
    kept: ['n1', 'n2', 'n1'],
    notes: [],
  },
  {
    name: 'the same object twice is one object, counted as a repeat',
    objects: [node({ name: 'n1', uid: 'u1', resourceVersion: '5' }), node({ name: 'n1', uid: 'u1', resourceVersion: '5' })],
    kept: ['n1@5'],
    notes: [{ kind: 'repeatedObjects', count: 1 }],
  },
  {
    name: 'pods of one name in two namespaces are two pods',
    objects: [pod({ name: 'web', namespace: 'a' }), pod({ name: 'web', namespace: 'b' })],
    kept: ['web', 'web'],
    notes: [],
  },
  {
    name: 'a newer resourceVersion read last replaces the older, in its place',
    objects: [node({ name: 'n1', resourceVersion: '99' }), node({ name: 'n2' }), node({ name: 'n1', resourceVersion: '100' })],
    kept: ['n1@100', 'n2'],
    notes: [{ kind: 'conflictingVersions', object: { kind: 'Node', name: 'n1' }, kept: { resourceVersion: '100', where: 'copy 3' }, dropped: [{ resourceVersion: '99', where: 'copy 1' }] }],
  },
  {
    name: 'an older resourceVersion read last is dropped (compared as numbers, not as text)',
    objects: [node({ name: 'n1', resourceVersion: '100' }), node({ name: 'n1', resourceVersion: '99' })],
    kept: ['n1@100'],
    notes: [{ kind: 'conflictingVersions', object: { kind: 'Node', name: 'n1' }, kept: { resourceVersion: '100', where: 'copy 1' }, dropped: [{ resourceVersion: '99', where: 'copy 2' }] }],
  },
  {
    name: 'resourceVersions that are not decimal: the copy read last wins',
    objects: [node({ name: 'n1', resourceVersion: 'b' }), node({ name: 'n1', resourceVersion: 'a' })],
    kept: ['n1@a'],
    notes: [{ kind: 'conflictingVersions', object: { kind: 'Node', name: 'n1' }, kept: { resourceVersion: 'a', where: 'copy 2' }, dropped: [{ resourceVersion: 'b', where: 'copy 1' }] }],
  },
  {
    name: 'three versions: one note names the kept one and both dropped; a repeat of a dropped one is a repeat',
    objects: [pod({ name: 'p', resourceVersion: '2' }), pod({ name: 'p', resourceVersion: '3' }), pod({ name: 'p', resourceVersion: '1' }), pod({ name: 'p', resourceVersion: '2' })],
    kept: ['p@3'],
    notes: [
      { kind: 'repeatedObjects', count: 1 },
      {
        kind: 'conflictingVersions',
        object: { kind: 'Pod', namespace: 'shop', name: 'p' },
        kept: { resourceVersion: '3', where: 'copy 2' },
        dropped: [
          { resourceVersion: '2', where: 'copy 1' },
          { resourceVersion: '1', where: 'copy 3' },
        ],
      },
    ],
  },
  {
    name: 'one name, two uids: the one created last wins, whatever the resourceVersions say',
    objects: [
      pod({ name: 'db-0', uid: 'new', resourceVersion: '10', creationTimestamp: '2026-03-02T00:00:00Z' }),
      pod({ name: 'db-0', uid: 'old', resourceVersion: '20', creationTimestamp: '2026-03-01T00:00:00Z' }),
    ],
    kept: ['db-0@10'],
    notes: [{ kind: 'conflictingVersions', object: { kind: 'Pod', namespace: 'shop', name: 'db-0' }, kept: { resourceVersion: '10', where: 'copy 1' }, dropped: [{ resourceVersion: '20', where: 'copy 2' }] }],
  },
  {
    name: 'no resourceVersion: identical copies are a repeat',
    objects: [node({ name: 'n1', labels: { a: 'b' } }), node({ name: 'n1', labels: { a: 'b' } })],
    kept: ['n1'],
    notes: [{ kind: 'repeatedObjects', count: 1 }],
  },
  {
    name: 'no resourceVersion: different copies keep the one read last',
    objects: [node({ name: 'n1', labels: { a: 'b' } }), node({ name: 'n1', labels: { a: 'c' } })],
    kept: ['n1'],
    notes: [{ kind: 'conflictingVersions', object: { kind: 'Node', name: 'n1' }, kept: { where: 'copy 2' }, dropped: [{ where: 'copy 1' }] }],
  },
  {
    name: 'events are known by uid: two copies of one event are one event',
    objects: [event({ name: 'web-0.1', uid: 'e1', resourceVersion: '7' }, 'first'), event({ name: 'web-0.1', uid: 'e1', resourceVersion: '7' }, 'first')],
    kept: ['first'],
    notes: [{ kind: 'repeatedObjects', count: 1 }],
  },
  {
    name: 'events of two uids are two events, even with one name',
    objects: [event({ name: 'web-0.1', uid: 'e1' }, 'first'), event({ name: 'web-0.1', uid: 'e2' }, 'second')],
    kept: ['first', 'second'],
    notes: [],
  },
  {
    name: 'events without uid are known by namespace and name; the newer count wins',
    objects: [event({ name: 'web-0.1', resourceVersion: '8' }, 'seen 3 times'), event({ name: 'web-0.1', resourceVersion: '9' }, 'seen 4 times')],
    kept: ['seen 4 times'],
    notes: [{ kind: 'conflictingVersions', object: { kind: 'Event', namespace: 'shop', name: 'web-0.1' }, kept: { resourceVersion: '9', where: 'copy 2' }, dropped: [{ resourceVersion: '8', where: 'copy 1' }] }],
  },
  {
    name: 'kinds the engine does not read are not kept',
    objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' } }],
    kept: [],
    notes: [],
  },
];

function label(value: unknown): string {
  const v = value as { metadata?: { name?: string; resourceVersion?: string }; message?: string };
  if (v.message !== undefined) return v.message;
  return `${v.metadata?.name ?? '?'}${v.metadata?.resourceVersion ? `@${v.metadata.resourceVersion}` : ''}`;
}

describe('collecting objects, each once', () => {
  it.each(cases)('$name', ({ objects, kept, notes }) => {
    const { collections, notes: actual } = collect(objects);
    const all = [...collections.nodes, ...collections.pods, ...collections.events].map(label);
    expect(all).toEqual(kept);
    expect(actual).toEqual(notes);
  });
});
