// What the apiserver lets a field selector read, kind by kind (each kind's GetAttrs / field
// label conversion): metadata.name and metadata.namespace everywhere, and the few others each
// kind adds. The replay server answers a selector on any other field as the apiserver does:
// 400, "field label not supported".

type Obj = Record<string, unknown>;

function at(object: Obj, dotted: string): unknown {
  let value: unknown = object;
  for (const part of dotted.split('.')) value = value && typeof value === 'object' ? (value as Obj)[part] : undefined;
  return value;
}

const text = (value: unknown, fallback = ''): string => (value === undefined || value === null ? fallback : String(value));

const byKind: Record<string, (o: Obj) => Record<string, string>> = {
  Pod: (o) => ({
    'spec.nodeName': text(at(o, 'spec.nodeName')),
    'spec.restartPolicy': text(at(o, 'spec.restartPolicy')),
    'spec.schedulerName': text(at(o, 'spec.schedulerName')),
    'spec.serviceAccountName': text(at(o, 'spec.serviceAccountName')),
    'spec.hostNetwork': text(at(o, 'spec.hostNetwork'), 'false'),
    'status.phase': text(at(o, 'status.phase')),
    'status.podIP': text(at(o, 'status.podIP')),
    'status.nominatedNodeName': text(at(o, 'status.nominatedNodeName')),
  }),
  Event: (o) => ({
    'involvedObject.kind': text(at(o, 'involvedObject.kind')),
    'involvedObject.namespace': text(at(o, 'involvedObject.namespace')),
    'involvedObject.name': text(at(o, 'involvedObject.name')),
    'involvedObject.uid': text(at(o, 'involvedObject.uid')),
    'involvedObject.apiVersion': text(at(o, 'involvedObject.apiVersion')),
    'involvedObject.resourceVersion': text(at(o, 'involvedObject.resourceVersion')),
    'involvedObject.fieldPath': text(at(o, 'involvedObject.fieldPath')),
    reason: text(at(o, 'reason')),
    reportingComponent: text(at(o, 'reportingComponent')),
    source: text(at(o, 'source.component')),
    type: text(at(o, 'type')),
  }),
  Node: (o) => ({ 'spec.unschedulable': text(at(o, 'spec.unschedulable'), 'false') }),
  Namespace: (o) => ({ 'status.phase': text(at(o, 'status.phase')) }),
};

/** The field selector's fields of one object of `kind`. */
export function selectableFields(kind: string, object: Obj): Record<string, string> {
  const meta = (object['metadata'] ?? {}) as Obj;
  return { 'metadata.name': text(meta['name']), 'metadata.namespace': text(meta['namespace']), ...(byKind[kind]?.(object) ?? {}) };
}
