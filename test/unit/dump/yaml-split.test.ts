// The YAML splitter: a List written as one document is read entry by entry, and gives exactly
// the objects the whole document gives, whatever the layout and however the bytes arrive.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { streamYaml, wholeYaml } from './read-text.js';

const kubectlList = `apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    labels:
      kubernetes.io/hostname: n1
    name: n1
  status:
    allocatable:
      cpu: "4"
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-0
    namespace: shop
  spec:
    containers:
    - name: web
      resources:
        requests:
          cpu: "2"
kind: List
metadata:
  resourceVersion: ""
`;

const indentedList = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Node
    metadata:
      name: n1
  - apiVersion: v1
    kind: Node
    metadata:
      name: n2
metadata: {}
`;

const blockScalars = `apiVersion: v1
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: scripts
  data:
    literal: |
      - not an entry
      items:
      kind: List

      ---not a marker either
    folded: >
      - folded
      text

    kept: |+
      trailing blank lines stay


- apiVersion: v1
  kind: Pod
  metadata:
    name: args
    namespace: shop
  spec:
    containers:
    - args:
      - |
       - a string whose lines look like entries
      - |-
        - of its own
      name: c
- apiVersion: v1
  kind: Node
  metadata:
    name: after-the-scalars
kind: List
`;

const quotedAndFolded = `apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    annotations:
      kubernetes.io/limit-ranger: "LimitRanger plugin set: cpu, memory request for container log-shipper;
        cpu, memory limit for container log-shipper"
      single: 'it''s
        folded'
      plain: a long plain value
        that goes on

        with a blank line
    name: p1
    namespace: shop
kind: List
`;

const comments = `# a dump
apiVersion: v1
items:
# before the first entry

- apiVersion: v1
  kind: Node
# at column 0, inside the first entry
  metadata:
    name: n1   # trailing
  # indented comment

#   between entries
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
kind: List # the end
`;

const multiDocument = `---
apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
kind: List
---
apiVersion: v1
kind: Pod
metadata:
  name: lone
  namespace: shop
...
---
# only a comment
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
`;

const flowItems = `apiVersion: v1
kind: List
items: [{apiVersion: v1, kind: Node, metadata: {name: n1}},
  {apiVersion: v1, kind: Node, metadata: {name: n2}}]
`;

const itemsMapping = `apiVersion: v1
kind: Pod
items:
  not: a sequence
metadata:
  name: odd
  namespace: shop
`;

const typedListKindFirst = `apiVersion: v1
kind: PodList
metadata: {}
items:
- metadata:
    name: a
    namespace: shop
- metadata:
    name: b
    namespace: shop
`;

const typedListKindLast = `apiVersion: v1
items:
- metadata:
    name: n1
- kind: Pod
  metadata:
    name: has-its-own-kind
    namespace: shop
kind: NodeList
metadata: {}
`;

const anchorsAcrossEntries = `apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
  spec:
    taints:
    - &gpu
      effect: NoSchedule
      key: dedicated
      value: gpu
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
  spec:
    taints:
    - *gpu
kind: List
`;

const loneDash = `items:
-
  apiVersion: v1
  kind: Node
  metadata:
    name: n1
- apiVersion: v1
  kind: Node
  metadata: {name: n2}
kind: List
`;

const unicode = `items:
- apiVersion: v1
  kind: Node
  metadata:
    labels:
      team: "équipe-😀"
    name: nœud-1
kind: List
`;

const cases: { name: string; text: string; items: number }[] = [
  { name: 'kubectl layout: entries at column 0, kind: List after them', text: kubectlList, items: 2 },
  { name: 'indented layout: entries at column 2', text: indentedList, items: 2 },
  { name: 'block scalars whose lines look like entries, keys or markers stay in their entry', text: blockScalars, items: 3 },
  { name: 'multi-line quoted and plain scalars stay in their entry', text: quotedAndFolded, items: 1 },
  { name: 'comments and blank lines at column 0 do not end an entry', text: comments, items: 2 },
  { name: '--- and ... separate documents; lists and single objects are both read', text: multiDocument, items: 2 },
  { name: 'flow-style items are parsed with their whole document', text: flowItems, items: 0 },
  { name: 'items holding a mapping is not a list: the document is parsed whole', text: itemsMapping, items: 0 },
  { name: 'a typed list with its kind first gives its items their kind', text: typedListKindFirst, items: 2 },
  { name: 'a typed list with its kind last still gives kindless items their kind', text: typedListKindLast, items: 2 },
  { name: 'an anchor set in one entry and used in a later one', text: anchorsAcrossEntries, items: 2 },
  { name: 'an entry may begin with a lone dash', text: loneDash, items: 2 },
  { name: 'CRLF line endings', text: kubectlList.replaceAll('\n', '\r\n'), items: 2 },
  { name: 'a byte order mark', text: `\uFEFF${kubectlList}`, items: 2 },
  { name: 'multi-byte characters cut between chunks', text: unicode, items: 1 },
  { name: 'no newline at the end of the file, after a kept block scalar', text: 'items:\n- kind: Node\n  metadata:\n    name: n\n  note: |+\n    x\n\n- kind: Node\n  metadata:\n    name: m\n  note: |+\n    y', items: 2 },
];

describe('the YAML splitter reads what the whole document holds', () => {
  describe.each(cases)('$name', ({ text, items }) => {
    it.each([[[1]], [[3]], [[7, 1, 5]], [[64]], [[1 << 20]]])('in chunks of %j bytes', (sizes) => {
      const streamed = streamYaml(text, sizes);
      expect(streamed.objects.map((o) => o.object)).toEqual(wholeYaml(text.replace(/^\uFEFF/, '')));
      expect(streamed.items).toBe(items);
    });
  });

  // Real dumps (kubectl's own, and some written by other tools, with anchors): the splitter and
  // the fast parser together give what the `yaml` package gives for the whole document.
  const root = path.resolve(import.meta.dirname, '..', '..');
  const dumps = [
    path.join(root, '..', 'examples', 'gpu-taint-typo.yaml'),
    ...readdirSync(path.join(root, 'scenarios')).map((dir) => path.join(root, 'scenarios', dir, 'cluster.yaml')),
  ].filter((file) => existsSync(file));
  it.each(dumps.map((file) => [path.relative(root, file), file]))('%s', (_, file) => {
    const text = readFileSync(file, 'utf8');
    expect(streamYaml(text, [4096]).objects.map((o) => o.object)).toEqual(wholeYaml(text));
  });

  it('names where each object was found', () => {
    expect(streamYaml(multiDocument).objects.map((o) => o.where)).toEqual(['dump.yaml, item 1', 'dump.yaml, document 2', 'dump.yaml, document 3, item 1']);
  });
});

function faultOf(text: string): string {
  try {
    streamYaml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('no fault reported');
}

const threeEntries = (third: string, indent: string) =>
  [
    'apiVersion: v1',
    'items:',
    ...[1, 2].flatMap((n) => [`${indent}- apiVersion: v1`, `${indent}  kind: Node`, `${indent}  metadata:`, `${indent}    name: n${n}`]),
    `${indent}- apiVersion: v1`,
    `${indent}  kind: Node`,
    `${indent}  metadata:`,
    third,
    'kind: List',
    '',
  ].join('\n');

describe('a fault names the line and column in the file', () => {
  it.each([
    { name: 'an unclosed flow mapping in the 3rd entry (kubectl layout)', text: threeEntries('    labels: {a: b', ''), at: 'line 15, column 1' },
    { name: 'an unclosed flow mapping in the 3rd entry (indented layout)', text: threeEntries('      labels: {a: b', '  '), at: 'line 15, column 1' },
    { name: 'a mapping in a plain value, mid-way through the 3rd entry', text: threeEntries('    name: a: b\n    uid: x', ''), at: 'line 14, column 11' },
    { name: 'the same, entries indented by two', text: threeEntries('      name: a: b\n      uid: x', '  '), at: 'line 14, column 13' },
    { name: 'a bad indentation in the 3rd entry', text: threeEntries('    name: n3\n   bad: indent', ''), at: 'line 15, column 1' },
    { name: 'an unterminated quoted string in the 3rd entry', text: threeEntries('    name: "n3', ''), at: 'line 15, column 1' },
    { name: 'a fault in the list after its entries', text: threeEntries('    name: n3', '').replace('kind: List', 'kind: [List'), at: 'line 16, column 1' },
    { name: 'a fault in a document read whole', text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "x\n', at: 'line 5, column 1' },
  ])('$name', ({ text, at }) => {
    expect(faultOf(text)).toMatch(new RegExp(`^dump\\.yaml: ${at}: not valid YAML: [^\\n]*[^:]$`));
  });
});
