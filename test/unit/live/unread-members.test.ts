// managedFields cut out of a list page's bytes before parsing: the page parses to the same
// objects as parsing it whole and deleting them.
import { describe, expect, it } from 'vitest';
import { withoutArrayMembers } from '../../../src/sources/live/unread-members.js';

const withoutManagedFields = (bytes: Buffer) => withoutArrayMembers(bytes, ['managedFields']);

const managed = [
  { manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"main"}': { '.': {}, 'f:image': {} } } } } },
  { manager: 'odd ] } [ { \\" "', operation: 'Update', fieldsV1: {} },
];

function page(items: object[]): object {
  return { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9', continue: 'x' }, items };
}

function parsedWithout(value: object): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === 'managedFields' ? undefined : v));
}

describe('withoutArrayMembers', () => {
  it('parses to the page without managedFields, wherever the member is in metadata', () => {
    const list = page([
      { metadata: { name: 'last', uid: '1', managedFields: managed }, spec: { nodeName: 'n1' } },
      { metadata: { managedFields: managed, name: 'first' } },
      { metadata: { managedFields: [] } },
      { metadata: { name: 'none', annotations: { note: '"managedFields":[ in a value' } } },
    ]);
    const cut = withoutManagedFields(Buffer.from(JSON.stringify(list)));
    expect(JSON.parse(cut.toString('utf8'))).toEqual(parsedWithout(list));
    expect(cut.toString('utf8')).not.toMatch(/"manager"/);
  });

  it("keeps a node's managedFields that say who cordoned it, and cuts the others around it", () => {
    const cordoned = [{ manager: 'kubelet', fieldsV1: { 'f:status': {} } }, { manager: 'kubectl', operation: 'Update', fieldsV1: { 'f:spec': { 'f:unschedulable': {} } } }];
    const list = page([
      { metadata: { name: 'a', managedFields: managed } },
      { metadata: { name: 'cordoned', managedFields: cordoned }, spec: { unschedulable: true } },
      { metadata: { managedFields: managed, name: 'c' } },
    ]);
    const parsed = JSON.parse(withoutManagedFields(Buffer.from(JSON.stringify(list))).toString('utf8')) as { items: { metadata: object }[] };
    expect(parsed.items.map((i) => i.metadata)).toEqual([{ name: 'a' }, { name: 'cordoned', managedFields: cordoned }, { name: 'c' }]);
  });

  it('leaves a page it cannot read as it was', () => {
    const cutShort = Buffer.from('{"items":[{"metadata":{"name":"a","managedFields":[{"manager":"x"');
    expect(withoutManagedFields(cutShort)).toBe(cutShort);
    const pretty = Buffer.from(JSON.stringify(page([{ metadata: { managedFields: managed } }]), null, 2));
    expect(withoutManagedFields(pretty)).toBe(pretty);
  });

  it('keeps multi-byte text intact', () => {
    const list = page([{ metadata: { name: 'é', labels: { zone: '東京' }, managedFields: managed } }]);
    expect(JSON.parse(withoutManagedFields(Buffer.from(JSON.stringify(list))).toString('utf8'))).toEqual(parsedWithout(list));
  });

  it("cuts a node's image list, and nothing else of it", () => {
    const node = { metadata: { name: 'n1' }, status: { allocatable: { cpu: '4' }, images: [{ names: ['a:1', 'b@sha256:0'], sizeBytes: 1 }], nodeInfo: { osImage: 'x' } } };
    const cut = withoutArrayMembers(Buffer.from(JSON.stringify(node)), ['managedFields', 'images']);
    expect(JSON.parse(cut.toString('utf8'))).toEqual({ metadata: { name: 'n1' }, status: { allocatable: { cpu: '4' }, nodeInfo: { osImage: 'x' } } });
  });
});
