// The JSON scanner: a List is cut into its items, each parsed alone, and what comes out is what
// JSON.parse of the whole text gives, wherever the chunks end (inside a string, an escape, a
// multi-byte character). Faults name the file's line and column.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { JsonSplitter, type JsonPiece } from '../../../src/sources/dump/json-stream.js';
import { chunks, streamJson, wholeJson } from './read-text.js';

const node = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...extra } });

const tricky = {
  brackets: 'a ] b } c [ d { e',
  quotes: 'say "hi" \\ and \\" too',
  escapes: '\u00e9\u005d\u007d\u0022\n\t\u2028',
  emoji: 'équipe-😀',
  items: '"items": [1, 2]',
};

const cases: { name: string; text: string; items: number; expected?: Record<string, unknown>[] }[] = [
  {
    name: 'a List as kubectl writes it: kind after the items',
    text: JSON.stringify({ apiVersion: 'v1', items: [node('n1'), node('n2')], kind: 'List', metadata: { resourceVersion: '' } }, null, 4),
    items: 2,
  },
  {
    name: 'strings holding brackets, braces, quotes, escapes and unicode escapes',
    text: JSON.stringify({ kind: 'List', items: [node('n1', { annotations: tricky }), node('n]2')] }, null, 2),
    items: 2,
  },
  {
    name: 'the same, minified on one line',
    text: JSON.stringify({ kind: 'List', items: [node('n1', { annotations: tricky }), node('n}2')] }),
    items: 2,
  },
  {
    name: 'a typed list with its kind first gives kindless items their kind',
    text: JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'a', namespace: 'shop' } }] }),
    items: 1,
  },
  {
    name: 'a typed list with its kind last gives kindless items their kind, in order',
    text: JSON.stringify({ apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }, { kind: 'Pod', metadata: { name: 'p', namespace: 's' } }, { metadata: { name: 'n2' } }], kind: 'NodeList' }),
    items: 3,
  },
  {
    name: 'an items key deeper down is not a list',
    text: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', items: [1] }, data: { items: '[]' } }),
    items: 0,
  },
  {
    name: 'items that is not an array is read whole',
    text: JSON.stringify({ apiVersion: 'v1', kind: 'Thing', items: { a: [1] }, metadata: { name: 't' } }),
    items: 0,
  },
  { name: 'an empty list', text: '{"apiVersion": "v1", "items": [], "kind": "List"}', items: 0 },
  { name: 'a single object', text: JSON.stringify(node('n1'), null, 2), items: 0 },
  {
    name: 'a top-level array of objects',
    text: JSON.stringify([node('n1'), { kind: 'List', items: [node('n2')] }]),
    items: 2,
  },
  {
    name: 'several top-level values one after the other',
    text: `${JSON.stringify(node('n1'))}\n${JSON.stringify({ kind: 'List', items: [node('n2'), node('n3')] }, null, 2)}\n${JSON.stringify(node('n4'))}`,
    items: 2,
    expected: [node('n1'), node('n2'), node('n3'), node('n4')],
  },
  { name: 'a byte order mark', text: `\uFEFF${JSON.stringify({ kind: 'List', items: [node('n1')] })}`, items: 1, expected: [node('n1')] },
];

describe('the JSON scanner reads what JSON.parse of the whole text gives', () => {
  describe.each(cases)('$name', ({ text, items, expected }) => {
    it.each([[[1]], [[2]], [[7, 1, 3]], [[64]], [[1 << 20]]])('in chunks of %j bytes', (sizes) => {
      const streamed = streamJson(text, sizes);
      expect(streamed.objects.map((o) => o.object)).toEqual(expected ?? wholeJson(text));
      expect(streamed.items).toBe(items);
    });
  });

  it('names where each object was found', () => {
    const text = `${JSON.stringify(node('n1'))}${JSON.stringify({ kind: 'List', items: [node('n2')] })}[${JSON.stringify(node('n3'))}]`;
    expect(streamJson(text).objects.map((o) => o.where)).toEqual(['dump.json', 'dump.json, document 2, item 1', 'dump.json, document 3, item 1']);
  });
});

function faultOf(text: string): string {
  try {
    streamJson(text, [5]);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('no fault reported');
}

const threeItems = (third: string) => `{\n  "kind": "List",\n  "items": [\n    {"kind": "Node", "metadata": {"name": "n1"}},\n    {"kind": "Node", "metadata": {"name": "n2"}},\n${third}\n  ]\n}\n`;

describe('a fault names the line and column in the file', () => {
  it.each([
    { name: 'a closing brace where the items close', text: '{"kind": "List",\n "items": [}\n', at: 'line 2, column 12' },
    { name: 'a missing value in the 3rd item', text: threeItems('    {"kind": "Node",\n     "metadata": {"name": }}'), at: 'line 7, column 27' },
    { name: 'a bad escape in the 3rd item', text: threeItems('    {"kind": "Node", "metadata": {"name": "a\\qb"}}'), at: 'line 6, column 45' },
    { name: 'an unquoted key in the 3rd item', text: threeItems('    {"kind": "Node", metadata: {}}'), at: 'line 6, column 22' },
    { name: 'a trailing comma after the 2nd item', text: '{"items": [{"kind": "Node"},\n  ]}', at: 'line 2, column 3' },
    { name: 'two commas between items', text: '{"items": [{"kind": "Node"},, {}]}', at: 'line 1, column 29' },
    { name: 'a fault after the items', text: '{"items": [],\n  "kind": List}', at: 'line 2, column 11' },
    { name: 'a text cut short inside a string', text: '{"items": [{"kind": "No', at: 'line 1, column 24' },
    { name: 'a text cut short inside the list', text: '{"items": [{"kind": "Node"}', at: 'line 1, column 28' },
    { name: 'something else than an object at the top', text: '{"kind": "Node"} x', at: 'line 1, column 18' },
  ])('$name', ({ text, at }) => {
    expect(faultOf(text)).toMatch(new RegExp(`^dump\\.json: ${at}: not valid JSON: `));
  });
});

/** Reassembles what the splitter hands out into the values JSON.parse would give. */
function reassemble(text: string, sizes: number[]): unknown[] {
  const values: unknown[] = [];
  let list: unknown[] | undefined;
  const splitter = new JsonSplitter(
    {
      value: (piece: JsonPiece) => values.push(JSON.parse(piece.text)),
      listStart: () => (list = []),
      item: (piece: JsonPiece) => list?.push(JSON.parse(piece.text)),
      listEnd: (head: JsonPiece | undefined) => {
        values.push(head ? { ...(JSON.parse(head.text) as Record<string, unknown>), items: list } : list);
        list = undefined;
      },
    },
    'dump.json',
  );
  for (const chunk of chunks(Buffer.from(text), sizes)) splitter.push(chunk);
  splitter.end();
  return values;
}

describe('property: any JSON value, cut in chunks of 1 to 7 bytes, reads as JSON.parse reads it', () => {
  const text = fc.string({ unit: 'binary', maxLength: 12 });
  const value = fc.jsonValue({ maxDepth: 3 });
  const object = fc.dictionary(text, value, { maxKeys: 4 });
  const list = fc.record({ kind: fc.constantFrom('List', 'PodList'), metadata: object, items: fc.array(fc.oneof(object, value), { maxLength: 5 }) }, { requiredKeys: ['items'] });
  const top = fc.oneof(list, object, fc.array(value, { maxLength: 4 }));
  const sizes = fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 8 });

  it('one top-level value, compact or indented', () => {
    fc.assert(
      fc.property(top, fc.constantFrom(undefined, 1, 4), sizes, (v, indent, cut) => {
        const json = JSON.stringify(v, null, indent);
        expect(reassemble(json, cut)).toEqual([JSON.parse(json)]);
      }),
      { numRuns: 500 },
    );
  });

  it('several top-level values one after the other', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(list, object), { minLength: 1, maxLength: 3 }), sizes, (vs, cut) => {
        const json = vs.map((v) => JSON.stringify(v)).join('\n');
        expect(reassemble(json, cut)).toEqual(vs.map((v) => JSON.parse(JSON.stringify(v))));
      }),
      { numRuns: 200 },
    );
  });
});
