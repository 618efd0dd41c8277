// A light shape check of a dump's objects: exactly the fields the engine reads, per kind, so that
// a hand-edited dump with a field of the wrong type (`spec.containers: "oops"`, a label value
// written as a number) is an input error naming the object and the field, not a crash deep in
// a rule. The API server guarantees these shapes for what it serves; a dump is only text.
// A field that is absent or null is fine unless marked required (the engine reads it without a
// default); inside lists and maps every item must have the shape. Unknown fields are ignored.
import { InputError } from '../../errors.js';
import { isObject } from '../object.js';

type Shape =
  | { type: 'string' | 'number' | 'boolean' | 'quantity' | 'map'; required?: boolean }
  | { type: 'mapOf'; of: Shape; required?: boolean }
  | { type: 'listOf'; of: Shape; required?: boolean }
  | { type: 'object'; fields: Record<string, Shape>; required?: boolean };

const string: Shape = { type: 'string' };
const number: Shape = { type: 'number' };
const boolean: Shape = { type: 'boolean' };
/** A resource quantity: "500m", "4Gi", or a bare number. */
const quantity: Shape = { type: 'quantity' };
/** Any map: read only for presence. */
const anyMap: Shape = { type: 'map' };
const mapOf = (of: Shape): Shape => ({ type: 'mapOf', of });
const listOf = (of: Shape): Shape => ({ type: 'listOf', of });
const object = (fields: Record<string, Shape>): Shape => ({ type: 'object', fields });
const required = (shape: Shape): Shape => ({ ...shape, required: true });

const strings = mapOf(string);
const stringList = listOf(string);
const quantities = mapOf(quantity);

const metadata = object({
  name: string,
  namespace: string,
  uid: string,
  labels: strings,
  annotations: strings,
  ownerReferences: listOf(object({ kind: string, name: string, uid: string, controller: boolean })),
  managedFields: listOf(anyMap),
  // A terminating pod in the preemption story: since when, its grace period, what holds it.
  creationTimestamp: string,
  deletionTimestamp: string,
  deletionGracePeriodSeconds: number,
  finalizers: stringList,
});

const labelSelector = object({
  matchLabels: strings,
  matchExpressions: listOf(object({ key: required(string), operator: required(string), values: stringList })),
});

// The API server requires key and operator; the matchers read them without a default.
const nodeSelectorRequirement = object({ key: required(string), operator: required(string), values: stringList });
const nodeSelector = object({
  nodeSelectorTerms: required(listOf(object({ matchExpressions: listOf(nodeSelectorRequirement), matchFields: listOf(nodeSelectorRequirement) }))),
});

const podAffinityTerm = object({
  labelSelector,
  namespaceSelector: labelSelector,
  namespaces: stringList,
  topologyKey: required(string),
  matchLabelKeys: stringList,
  mismatchLabelKeys: stringList,
});

const resources = object({ requests: quantities, limits: quantities });

const container = object({
  name: string,
  restartPolicy: string,
  resources,
  ports: listOf(object({ containerPort: number, hostPort: number, protocol: string, hostIP: string })),
});

const containerStatus = object({
  name: string,
  state: object({ waiting: object({ reason: string, message: string }) }),
  allocatedResources: quantities,
  resources: object({ requests: quantities }),
});

// In-tree volume sources the volume rules compare, in pods and in PersistentVolumes.
const inTreeSources = {
  gcePersistentDisk: object({ pdName: required(string), readOnly: boolean }),
  awsElasticBlockStore: object({ volumeID: required(string), readOnly: boolean }),
  azureDisk: object({ diskURI: required(string) }),
  cinder: object({ volumeID: required(string) }),
  portworxVolume: object({ volumeID: required(string) }),
};

const podVolume = object({
  name: string,
  persistentVolumeClaim: object({ claimName: required(string) }),
  ephemeral: anyMap,
  rbd: object({ monitors: required(stringList), pool: string, image: required(string), readOnly: boolean }),
  iscsi: object({ iqn: required(string), readOnly: boolean }),
  ...inTreeSources,
});

const podSpec = object({
  nodeName: string,
  schedulerName: string,
  priority: number,
  priorityClassName: string,
  preemptionPolicy: string,
  terminationGracePeriodSeconds: number,
  schedulingGates: listOf(object({ name: string })),
  tolerations: listOf(object({ key: string, operator: string, value: string, effect: string })),
  nodeSelector: strings,
  affinity: object({
    nodeAffinity: object({ requiredDuringSchedulingIgnoredDuringExecution: nodeSelector }),
    podAffinity: object({ requiredDuringSchedulingIgnoredDuringExecution: listOf(podAffinityTerm) }),
    podAntiAffinity: object({ requiredDuringSchedulingIgnoredDuringExecution: listOf(podAffinityTerm) }),
  }),
  containers: listOf(container),
  initContainers: listOf(container),
  overhead: quantities,
  resources,
  volumes: listOf(podVolume),
  topologySpreadConstraints: listOf(
    object({
      topologyKey: required(string),
      maxSkew: required(number),
      minDomains: number,
      whenUnsatisfiable: string,
      labelSelector,
      matchLabelKeys: stringList,
      nodeAffinityPolicy: string,
      nodeTaintsPolicy: string,
    }),
  ),
  resourceClaims: listOf(object({ name: string, resourceClaimName: string, resourceClaimTemplateName: string })),
});

const pod = object({
  metadata,
  spec: podSpec,
  status: object({
    phase: string,
    reason: string,
    message: string,
    nominatedNodeName: string,
    startTime: string,
    conditions: listOf(object({ type: string, status: string, reason: string, message: string, lastTransitionTime: string, lastProbeTime: string })),
    containerStatuses: listOf(containerStatus),
    initContainerStatuses: listOf(containerStatus),
    resourceClaimStatuses: listOf(object({ name: string, resourceClaimName: string })),
  }),
});

const node = object({
  metadata,
  spec: object({
    unschedulable: boolean,
    taints: listOf(object({ key: required(string), value: string, effect: required(string) })),
  }),
  status: object({
    allocatable: quantities,
    capacity: quantities,
    conditions: listOf(object({ type: string, status: string, lastTransitionTime: string })),
    declaredFeatures: stringList,
  }),
});

// What a pod affinity term's namespaceSelector reads of a namespace: its name and labels.
const namespace = object({ metadata });

const persistentVolumeClaim = object({
  metadata,
  spec: object({
    accessModes: stringList,
    volumeName: string,
    storageClassName: string,
    volumeMode: string,
    volumeAttributesClassName: string,
    selector: labelSelector,
    resources: object({ requests: quantities }),
  }),
  status: object({ phase: string }),
});

const persistentVolume = object({
  metadata,
  spec: object({
    storageClassName: string,
    claimRef: object({ name: string, namespace: string, uid: string }),
    capacity: quantities,
    volumeMode: string,
    accessModes: stringList,
    volumeAttributesClassName: string,
    nodeAffinity: object({ required: nodeSelector }),
    csi: object({ driver: required(string), volumeHandle: required(string) }),
    ...inTreeSources,
  }),
  status: object({ phase: string }),
});

const storageClass = object({
  metadata,
  provisioner: string,
  volumeBindingMode: string,
  allowedTopologies: listOf(object({ matchLabelExpressions: listOf(object({ key: required(string), values: required(stringList) })) })),
});

const csiNode = object({
  metadata,
  spec: object({ drivers: listOf(object({ name: string, allocatable: object({ count: number }) })) }),
});

const objectReference = object({ kind: string, namespace: string, name: string, uid: string });

// Both event APIs: core/v1 (involvedObject, message, count, source) and events.k8s.io/v1
// (regarding, note, series, deprecated*).
const event = object({
  metadata: object({ name: string, namespace: string }),
  type: string,
  reason: string,
  message: string,
  note: string,
  involvedObject: objectReference,
  regarding: objectReference,
  count: number,
  deprecatedCount: number,
  series: object({ count: number }),
  reportingComponent: string,
  reportingController: string,
  source: object({ component: string }),
  deprecatedSource: object({ component: string }),
});

// Owners: their pod template (what the user wrote, before admission defaulted the pod).
const template = object({ metadata, spec: podSpec });
const owner = object({ metadata, spec: object({ template }) });
const cronJob = object({ metadata, spec: object({ jobTemplate: object({ spec: object({ template }) }) }) });

const limitItem = object({ type: string, max: quantities, min: quantities, default: quantities, defaultRequest: quantities, maxLimitRequestRatio: quantities });
const limitRange = object({ metadata, spec: object({ limits: listOf(limitItem) }) });
const resourceQuota = object({ metadata, spec: object({ hard: quantities, scopes: stringList }), status: object({ hard: quantities, used: quantities }) });
const priorityClass = object({ metadata, value: number, preemptionPolicy: string, globalDefault: boolean });
const podDisruptionBudget = object({ metadata, spec: object({ selector: labelSelector }), status: object({ disruptionsAllowed: number, disruptedPods: anyMap }) });

// resource.k8s.io/v1, as the DynamicResources replay reads it (src/engine/dra/).
const celSelectors = listOf(object({ cel: object({ expression: required(string) }) }));
const deviceRequestFields = { deviceClassName: string, selectors: celSelectors, allocationMode: string, count: number, adminAccess: boolean };
const resourceClaim = object({
  metadata,
  spec: object({
    devices: object({
      requests: listOf(object({ name: required(string), exactly: object(deviceRequestFields), firstAvailable: listOf(object({ name: required(string), ...deviceRequestFields })) })),
      constraints: listOf(object({ requests: stringList, matchAttribute: string })),
    }),
  }),
  status: object({
    allocation: object({ devices: object({ results: listOf(object({ request: string, driver: string, pool: string, device: string, adminAccess: boolean })) }), nodeSelector }),
    reservedFor: listOf(object({ resource: string, name: string, uid: string })),
  }),
});
const deviceClass = object({ metadata, spec: object({ selectors: celSelectors }) });
const resourceSlice = object({
  metadata,
  spec: object({
    driver: required(string),
    pool: required(object({ name: required(string), generation: required(number), resourceSliceCount: required(number) })),
    nodeName: string,
    nodeSelector,
    allNodes: boolean,
    devices: listOf(object({ name: required(string), attributes: mapOf(anyMap), capacity: mapOf(object({ value: required(quantity) })) })),
  }),
});

const deviceTaintRule = object({
  metadata,
  spec: object({
    deviceSelector: object({ driver: string, pool: string, device: string }),
    taint: required(object({ key: required(string), value: string, effect: required(string) })),
  }),
});

const podGroup = object({
  metadata,
  spec: object({ schedulingPolicy: object({ gang: object({ minCount: number }) }) }),
  status: object({ conditions: listOf(object({ type: required(string), status: required(string), reason: string, message: string, lastTransitionTime: string })) }),
});

// cluster-autoscaler's status ConfigMap (engine/story/autoscalerStatus.ts reads data.status).
const configMap = object({ metadata, data: object({ status: string }) });
// karpenter.sh/v1, as engine/karpenter/ reads them.
const karpenterCondition = object({ type: required(string), status: required(string), reason: string, message: string, lastTransitionTime: string });
const karpenterRequirement = object({ key: required(string), operator: required(string), values: stringList, minValues: number });
const taint = object({ key: required(string), value: string, effect: required(string) });
const nodeClassRef = object({ group: string, kind: string, name: string });
const nodePool = object({
  metadata,
  spec: object({
    template: object({
      metadata: object({ labels: strings }),
      spec: object({ requirements: listOf(karpenterRequirement), taints: listOf(taint), startupTaints: listOf(taint), nodeClassRef }),
    }),
    limits: quantities,
    weight: number,
  }),
  status: object({ resources: quantities, conditions: listOf(karpenterCondition) }),
});
const nodeClaim = object({
  metadata: object({ name: string, uid: string, labels: strings, annotations: strings, creationTimestamp: string, managedFields: listOf(anyMap) }),
  spec: object({ requirements: listOf(karpenterRequirement), taints: listOf(taint), startupTaints: listOf(taint), resources: object({ requests: quantities }), nodeClassRef }),
  status: object({ nodeName: string, providerID: string, conditions: listOf(karpenterCondition) }),
});

const shapes: Record<string, Shape> = {
  Pod: pod,
  Node: node,
  PersistentVolumeClaim: persistentVolumeClaim,
  PersistentVolume: persistentVolume,
  StorageClass: storageClass,
  CSINode: csiNode,
  Event: event,
  ReplicaSet: owner,
  Deployment: owner,
  StatefulSet: owner,
  DaemonSet: owner,
  Job: owner,
  CronJob: cronJob,
  LimitRange: limitRange,
  ResourceQuota: resourceQuota,
  PriorityClass: priorityClass,
  PodDisruptionBudget: podDisruptionBudget,
  ResourceClaim: resourceClaim,
  DeviceClass: deviceClass,
  ResourceSlice: resourceSlice,
  DeviceTaintRule: deviceTaintRule,
  PodGroup: podGroup,
  ConfigMap: configMap,
  NodePool: nodePool,
  NodeClaim: nodeClaim,
  Namespace: namespace,
};

interface Problem {
  path: string;
  expected: string;
  found: unknown;
}

function expectedOf(shape: Shape): string {
  switch (shape.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'quantity':
      return 'a quantity (a string such as "500m" or "4Gi", or a number)';
    case 'listOf':
      return 'a list';
    default:
      return 'a map';
  }
}

function fits(value: unknown, shape: Shape): boolean {
  switch (shape.type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'quantity':
      return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    case 'listOf':
      return Array.isArray(value);
    default:
      return isObject(value);
  }
}

const plainKey = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const child = (path: string, key: string) => (plainKey.test(key) ? `${path}${path ? '.' : ''}${key}` : `${path}[${JSON.stringify(key)}]`);

/** The first value in `value` (at `path`) that does not have `shape`. Absent and null are the caller's to judge. */
function firstProblem(value: unknown, shape: Shape, path: string): Problem | undefined {
  if (!fits(value, shape)) return { path, expected: expectedOf(shape), found: value };
  if (shape.type === 'listOf') {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) {
      const problem = firstProblem(items[i], shape.of, `${path}[${i}]`);
      if (problem) return problem;
    }
  } else if (shape.type === 'mapOf') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const problem = firstProblem(item, shape.of, child(path, key));
      if (problem) return problem;
    }
  } else if (shape.type === 'object') {
    const map = value as Record<string, unknown>;
    for (const [key, field] of Object.entries(shape.fields)) {
      const item = Object.hasOwn(map, key) ? map[key] : undefined;
      if (item === undefined || item === null) {
        if (field.required) return { path: child(path, key), expected: expectedOf(field), found: item };
        continue;
      }
      const problem = firstProblem(item, field, child(path, key));
      if (problem) return problem;
    }
  }
  return undefined;
}

function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)})`;
    case 'number':
    case 'boolean':
      return `a ${typeof value} (${String(value)})`;
    case 'object':
      return 'a map';
    default:
      return typeof value;
  }
}

function objectLabel(kind: string, object: Record<string, unknown>): string {
  const meta = isObject(object['metadata']) ? object['metadata'] : {};
  const name = typeof meta['name'] === 'string' ? meta['name'] : undefined;
  const namespace = typeof meta['namespace'] === 'string' ? meta['namespace'] : undefined;
  if (name === undefined) return kind;
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

/** Throws an InputError naming the object and the first field the engine could not read. */
export function validateObject(object: Record<string, unknown>, where: string): void {
  const kind = object['kind'];
  if (typeof kind !== 'string' || !Object.hasOwn(shapes, kind)) return;
  const problem = firstProblem(object, shapes[kind] as Shape, '');
  if (!problem) return;
  const what = problem.found === undefined ? `is missing; it must be ${problem.expected}` : `must be ${problem.expected}, found ${describeFound(problem.found)}`;
  throw new InputError(`${where}: ${objectLabel(kind, object)}: ${problem.path} ${what}; fix the dump or capture it again with kubectl get -o yaml`);
}
