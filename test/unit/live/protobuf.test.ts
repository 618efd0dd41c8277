// The protobuf readers of pod and node pages: the wire format, the apiserver's envelope, and JSON's rules
// for empty fields. (test/e2e/protobuf.test.ts compares whole pods with the JSON read on a real
// apiserver; these cases are the edges it cannot be made to show on demand.)
import { describe, expect, it } from 'vitest';
import { continueInProtobufHead, decodeNodeList, decodePodList, decodeStatus } from '../../../src/sources/live/protobuf/envelope.js';
import { Interner, ProtobufError, Reader } from '../../../src/sources/live/protobuf/wire.js';
import { envelope, message, type Field } from '../../support/protobuf.js';

const podList = (continueToken: string, pods: Field[][]) => envelope('PodList', message([[1, [[2, '42'], [3, continueToken]]], ...pods.map((p): Field => [2, p])]));

describe('wire', () => {
  it('reads varints of every length, and negative int32/int64 written as ten bytes', () => {
    const bytes = message([[1, 300], [2, -5], [3, -2147483648], [4, 2 ** 40], [5, true]]);
    const r = new Reader(bytes);
    const values: (number | boolean)[] = [];
    while (r.more()) {
      const { field } = r.key();
      values.push(field === 5 ? r.bool() : r.signed());
    }
    expect(values).toEqual([300, -5, -2147483648, 2 ** 40, true]);
  });

  it('skips fixed-width and unknown length-delimited fields, and refuses what runs past the end', () => {
    const fixed = Buffer.from([(9 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8, (10 << 3) | 5, 1, 2, 3, 4]);
    const r = new Reader(Buffer.concat([fixed, message([[11, 'x'], [12, 7]])]));
    for (let i = 0; i < 3; i++) r.skip(r.key().wire);
    expect(r.key().field).toBe(12);
    expect(() => new Reader(Buffer.from([0x0a, 0x05, 0x61])).string()).toThrow(ProtobufError);
    expect(() => new Reader(Buffer.from([0x80, 0x80])).varint()).toThrow(ProtobufError);
  });

  it('reads each string as UTF-8 whatever was kept before it, through growth and unicode', () => {
    const intern = new Interner();
    // 3,000 distinct strings (the table grows from 1,024 slots), each read three times from
    // different offsets, with non-ASCII ones, the empty string and strings that differ in one byte.
    const words = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? `zone-é${i}` : i % 89 === 0 ? '' : `node-${String(i).padStart(5, '0')}`));
    words.push('app', 'apq', 'ap', 'apps', 'ñ', 'n');
    const bytes = Buffer.from(words.join('|'));
    const spans: [number, number][] = [];
    for (let start = 0; start <= bytes.length; ) {
      const bar = bytes.indexOf(0x7c, start);
      const end = bar < 0 ? bytes.length : bar;
      spans.push([start, end]);
      start = end + 1;
    }
    for (let round = 0; round < 3; round++) {
      const read = spans.map(([start, end]) => intern.slice(Buffer.concat([Buffer.alloc(round), bytes]), start + round, end + round));
      expect(read).toEqual(words);
    }
  });

  it('reads a length-delimited string and moves past it', () => {
    const r = new Reader(message([[1, 'app'], [2, 'web']]));
    const intern = new Interner();
    r.key();
    expect(intern.read(r)).toBe('app');
    expect(r.key().field).toBe(2);
    expect(intern.read(r)).toBe('web');
    expect(r.more()).toBe(false);
  });
});

describe('pod pages', () => {
  const pod: Field[] = [
    [1, [[1, 'web-1'], [3, 'shop'], [8, [[1, 1764586567]]], [11, [[1, 'app'], [2, 'web']]], [2, 'ignored-generate-name'], [17, [[1, 'kubectl']]]]],
    [
      2,
      [
        [10, 'n1'],
        [25, 0],
        [11, false],
        [2, [[1, 'main'], [6, [[2, 0], [3, 80], [4, 'TCP'], [1, '']]], [7, [[1, 'SECRET'], [2, 'x']]]]],
        [1, [[1, 'cfg'], [2, [[19, [[1, 'cfg']]]]]]],
        [1, [[1, 'disk'], [2, [[3, [[1, 'pd-1'], [2, 'ext4'], [4, false]]]]]]],
        [43, [[1, 'train-7']]],
      ],
    ],
    [3, [[1, 'Running'], [2, [[1, 'Ready']]], [11, '']]],
  ];

  it('decodes what the record keeps, drops JSON-omitted empties, and skips the rest unread', () => {
    const page = decodePodList(podList('next-token', [pod]));
    expect(page.metadata).toEqual({ continue: 'next-token' });
    expect(page.items).toEqual([
      {
        metadata: { name: 'web-1', namespace: 'shop', creationTimestamp: '2025-12-01T10:56:07Z', labels: { app: 'web' } },
        // priority is a pointer: 0 is kept, as JSON writes it; hostNetwork false and hostPort 0 are omitempty.
        spec: { containers: [{ name: 'main', resources: {}, ports: [{ containerPort: 80, protocol: 'TCP' }] }], nodeName: 'n1', priority: 0, volumes: [{ name: 'disk', gcePersistentDisk: { pdName: 'pd-1' } }], schedulingGroup: { podGroupName: 'train-7' } },
        status: { phase: 'Running' },
      },
    ]);
  });

  it('the last page has no continue token', () => {
    expect(decodePodList(podList('', [pod])).metadata).toEqual({});
  });

  it('refuses an answer without the magic bytes', () => {
    expect(() => decodePodList(Buffer.from('{"items":[]}'))).toThrow(ProtobufError);
  });

  it('reads a page in the pieces it came in as it reads the page whole, wherever they are cut', () => {
    const other: Field[] = [[1, [[1, 'web-2'], [3, 'shop'], [11, [[1, 'app'], [2, 'web']]]]], [2, [[10, 'n2']]], [3, [[1, 'Pending']]]];
    const whole = podList('next-token', [pod, other, pod]);
    const expected = decodePodList(whole);
    expect(expected.items.map((p) => p.metadata?.name)).toEqual(['web-1', 'web-2', 'web-1']);
    // Every cut into two pieces, then three pieces at cuts spread over the page (the header, an
    // item's key or length varint, mid-string), and a piece of one byte, and an empty one.
    for (let cut = 0; cut <= whole.length; cut++) {
      expect(decodePodList([whole.subarray(0, cut), whole.subarray(cut)])).toEqual(expected);
    }
    for (let a = 1; a < whole.length; a += 7) {
      for (let b = a; b < whole.length; b += 11) {
        expect(decodePodList([whole.subarray(0, a), Buffer.alloc(0), whole.subarray(a, b), whole.subarray(b, b + 1), whole.subarray(b + 1)])).toEqual(expected);
      }
    }
    // Cut short before the list's end (the envelope's contentType follows it): refused, whole or in pieces.
    const listEnd = whole.indexOf('application/') - 2;
    for (const cut of [3, 10, listEnd - 1]) {
      expect(() => decodePodList(whole.subarray(0, cut))).toThrow(ProtobufError);
      expect(() => decodePodList([whole.subarray(0, 2), whole.subarray(2, cut)])).toThrow(ProtobufError);
    }
  });

  it('finds the continue token in the first bytes of a page, or says it cannot yet', () => {
    const whole = podList('tok', [pod, pod]);
    expect(continueInProtobufHead(whole.subarray(0, 60))).toBe('tok');
    expect(continueInProtobufHead(whole.subarray(0, 20))).toBeNull();
    expect(continueInProtobufHead(podList('', [pod]))).toBeUndefined();
  });

  it('reads an error Status', () => {
    const bytes = envelope('Status', message([[2, 'Failure'], [3, 'pods is forbidden: User "u" cannot list resource "pods"'], [4, 'Forbidden'], [6, 403]]));
    expect(decodeStatus(bytes)).toEqual({ kind: 'Status', status: 'Failure', message: 'pods is forbidden: User "u" cannot list resource "pods"', reason: 'Forbidden', code: 403 });
  });
});

describe('node pages', () => {
  const nodeList = (nodes: Field[][]) => envelope('NodeList', message([[1, [[2, '42']]], ...nodes.map((n): Field => [2, n])]));
  // Not a valid message: decoding it would throw, so the test fails if the reader looks inside.
  const garbage = Buffer.from([0xff, 0xff, 0xff]);
  const node: Field[] = [
    [1, [[1, 'n1'], [5, 'u-1'], [6, '99'], [11, [[1, 'zone'], [2, 'a']]], [11, [[1, 'empty'], [2, '']]], [12, [[1, 'note'], [2, 'x']]], [13, garbage],
      // managedFields: the kubelet's entry is skipped, the one that set spec.unschedulable kept.
      [17, [[1, 'kubelet'], [2, 'Update'], [7, [[1, '{"f:status":{"f:conditions":{}}}']]]]],
      [17, [[1, 'kubectl'], [2, 'Update'], [3, 'v1'], [4, [[1, 1764586567]]], [6, 'FieldsV1'], [7, [[1, '{"f:spec":{"f:unschedulable":{}}}']]]]]]],
    [
      2,
      [
        [1, '10.0.0.0/24'],
        [3, 'aws:///i-1'],
        [4, true],
        // Fields in the wire order; JSON's order (key, value, effect, timeAdded) in the record.
        [5, [[1, 'dedicated'], [2, 'gpu'], [3, 'NoSchedule'], [4, [[1, 1764586567]]]]],
        [5, [[3, 'NoExecute'], [1, 'node.kubernetes.io/not-ready'], [2, ''], [4, []]]],
      ],
    ],
    [
      3,
      [
        [1, [[1, 'cpu'], [2, [[1, '4']]]]],
        [2, [[1, 'cpu'], [2, [[1, '3900m']]]]],
        [2, [[1, 'example.com/dongle'], [2, [[1, '2']]]]],
        [3, 'Running'],
        [4, [[1, 'Ready'], [2, 'False'], [3, []], [4, [[1, 1764586567], [2, 5]]], [5, 'KubeletNotReady'], [6, '']]],
        [5, [[1, 'InternalIP'], [2, '10.0.0.1']]],
        [7, [[7, 'v1.37.2']]],
        [8, garbage],
      ],
    ],
  ];

  it('decodes the fields of NodeRecord in JSON order, drops JSON-omitted empties and zero times, and skips the rest unread', () => {
    const page = decodeNodeList(nodeList([node]));
    expect(page.metadata).toEqual({});
    expect(JSON.stringify(page.items)).toBe(
      JSON.stringify([
        {
          metadata: {
            name: 'n1',
            uid: 'u-1',
            labels: { zone: 'a', empty: '' },
            managedFields: [{ manager: 'kubectl', operation: 'Update', time: '2025-12-01T10:56:07Z', fieldsV1: { 'f:spec': { 'f:unschedulable': {} } } }],
          },
          spec: {
            unschedulable: true,
            taints: [
              { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: '2025-12-01T10:56:07Z' },
              { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
            ],
          },
          status: {
            capacity: { cpu: '4' },
            allocatable: { cpu: '3900m', 'example.com/dongle': '2' },
            conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2025-12-01T10:56:07Z', reason: 'KubeletNotReady' }],
          },
        },
      ]),
    );
  });

  it('unschedulable false is omitted, as JSON omits it; empty spec and status stay', () => {
    const page = decodeNodeList(nodeList([[[1, [[1, 'n2']]], [2, [[4, false]]], [3, []]]]));
    expect(page.items).toEqual([{ metadata: { name: 'n2' }, spec: {}, status: {} }]);
  });

  it('refuses a node that runs past the end of its page', () => {
    const raw = message([[1, [[2, '42']]], [2, node]]);
    const cut = message([[1, [[2, '42']]], [2, message(node).subarray(0, 30)]]);
    expect(decodeNodeList(envelope('NodeList', raw)).items).toHaveLength(1);
    // The item's length says 30 bytes, in which its metadata says it runs longer.
    expect(() => decodeNodeList(envelope('NodeList', cut))).toThrow(ProtobufError);
  });
});
