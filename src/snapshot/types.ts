// The snapshot is everything the engine may look at, filled by a source (a dump file or a
// live cluster). Kubernetes objects keep their API shape (client-node's types); timestamps may
// be strings (dumps) or Dates (live), so the engine reads them only through `toTime`.
import type {
  ResourceV1ResourceClaim,
  V1CSINode,
  V1ConfigMap,
  V1CronJob,
  V1DeviceClass,
  V1DaemonSet,
  V1Deployment,
  V1Job,
  V1LimitRange,
  V1NodeSpec,
  V1NodeStatus,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1PriorityClass,
  V1ReplicaSet,
  V1ResourceQuota,
  V1ResourceSlice,
  V1beta2DeviceTaintRule,
  V1ObjectMeta,
  V1StatefulSet,
  V1StorageClass,
  V1Taint,
} from '@kubernetes/client-node';

/**
 * A karpenter.sh/v1 status condition (operatorpkg status.Condition), as the API serves it.
 * client-node has no types for Karpenter's kinds: these are reduced to what is read
 * (sigs.k8s.io/karpenter v1.15.0 pkg/apis/v1/nodepool.go, nodeclaim.go).
 */
export interface KarpenterCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: Date | string;
}

/** A NodePool or NodeClaim requirement: a node selector requirement with Karpenter's minValues. */
export interface KarpenterRequirement {
  key: string;
  operator: string;
  values?: string[];
  minValues?: number;
}

/** karpenter.sh/v1 NodePool (cluster-scoped): what a node it launches would carry, and its limits. */
export interface KarpenterNodePool {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: {
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        requirements?: KarpenterRequirement[];
        taints?: V1Taint[];
        /** Expected to be removed after start-up: Karpenter does not require a toleration for them. */
        startupTaints?: V1Taint[];
        nodeClassRef?: { group?: string; kind?: string; name?: string };
      };
    };
    /** Resource limits across the NodePool's nodes (cpu, memory, nodes, ...). */
    limits?: Record<string, string | number>;
    weight?: number;
  };
  status?: { resources?: Record<string, string | number>; conditions?: KarpenterCondition[] };
}

/** karpenter.sh/v1 NodeClaim (cluster-scoped): one node Karpenter is launching or has launched. */
export interface KarpenterNodeClaim {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: {
    requirements?: KarpenterRequirement[];
    taints?: V1Taint[];
    startupTaints?: V1Taint[];
    resources?: { requests?: Record<string, string | number> };
    nodeClassRef?: { group?: string; kind?: string; name?: string };
  };
  status?: { nodeName?: string; providerID?: string; conditions?: KarpenterCondition[] };
}

/** An event in either API style (core/v1 or events.k8s.io/v1), reduced to what is read. */
export interface ClusterEvent {
  type: string;
  reason: string;
  message: string;
  involved: { kind: string; namespace: string; name: string; uid?: string };
  /** Milliseconds since the epoch of the most recent occurrence, when known. */
  time?: number;
  count: number;
  /** The component that wrote it: `default-scheduler`, `replicaset-controller`, a kubelet... */
  reporter: string;
}

/**
 * What the engine reads of a node, and all a live read keeps of one (compact.ts, and the
 * protobuf decoder protobuf/node.ts, which reads exactly these fields): its name and labels,
 * its cordon and taints, its capacity, allocatable and conditions, the features its kubelet
 * declares (NodeDeclaredFeatures); the uid tells one node object from another. A dump's nodes
 * are whole V1Nodes (a V1Node is a NodeRecord), whose managedFields may say who cordoned one;
 * a live list leaves managedFields out (they would double the bytes of 5,000 nodes). Typed
 * this way, a rule or story that starts reading another field of a node does not compile
 * until the field is added here, and so to the live read.
 */
export const nodeRecordFields = {
  metadata: ['name', 'uid', 'labels'],
  spec: ['unschedulable', 'taints'],
  status: ['capacity', 'allocatable', 'conditions', 'declaredFeatures'],
} as const satisfies { metadata: readonly (keyof V1ObjectMeta)[]; spec: readonly (keyof V1NodeSpec)[]; status: readonly (keyof V1NodeStatus)[] };

export interface NodeRecord {
  /** managedFields: a dump's only (dump/slim.ts keeps the entry that set spec.unschedulable). */
  metadata?: Pick<V1ObjectMeta, (typeof nodeRecordFields.metadata)[number] | 'managedFields'>;
  spec?: Pick<V1NodeSpec, (typeof nodeRecordFields.spec)[number]>;
  status?: Pick<V1NodeStatus, (typeof nodeRecordFields.status)[number]>;
}

/**
 * A PodGroup as the engine reads it (scheduling.k8s.io/v1beta1, v1.37): its gang policy's
 * minCount and the scheduler's condition on it (PodGroupInitiallyScheduled; PodGroupScheduled
 * in v1.36). client-node has no type for it yet.
 */
export interface PodGroupRecord {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
  spec?: { schedulingPolicy?: { gang?: { minCount?: number }; basic?: Record<string, never> }; workloadRef?: { workloadName?: string; templateName?: string } };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] };
}

/** The kinds a snapshot holds, by their collection name. */
export interface Collections {
  pods: V1Pod[];
  nodes: NodeRecord[];
  events: ClusterEvent[];
  persistentVolumeClaims: V1PersistentVolumeClaim[];
  persistentVolumes: V1PersistentVolume[];
  storageClasses: V1StorageClass[];
  csiNodes: V1CSINode[];
  replicaSets: V1ReplicaSet[];
  deployments: V1Deployment[];
  statefulSets: V1StatefulSet[];
  daemonSets: V1DaemonSet[];
  jobs: V1Job[];
  cronJobs: V1CronJob[];
  limitRanges: V1LimitRange[];
  resourceQuotas: V1ResourceQuota[];
  priorityClasses: V1PriorityClass[];
  /** Read only when a preemption is told (which pods on the nominated node a budget protects). */
  podDisruptionBudgets: V1PodDisruptionBudget[];
  /** resource.k8s.io/v1, read when the pod uses ResourceClaims (DynamicResources). */
  resourceClaims: ResourceV1ResourceClaim[];
  deviceClasses: V1DeviceClass[];
  resourceSlices: V1ResourceSlice[];
  /**
   * DeviceTaintRules (resource.k8s.io/v1 from 1.37; client-node types them as v1beta2, the same
   * shape): taints the scheduler adds to the devices they select. Read where the input has them;
   * without them no device is known to carry a rule's taint (engine/dra/pools.ts).
   */
  deviceTaintRules: V1beta2DeviceTaintRule[];
  /** PodGroups (scheduling.k8s.io/v1beta1, served with GenericWorkload in v1.37): the gangs pods wait for. */
  podGroups: PodGroupRecord[];
  /**
   * cluster-autoscaler's status ConfigMap, and nothing else of ConfigMaps: the one object
   * `apiResources.clusterAutoscalerStatus.only` names, cut to its `status` key (sources drop
   * every other ConfigMap and key unread). Read when the pod has cluster-autoscaler events.
   */
  clusterAutoscalerStatus: V1ConfigMap[];
  /** karpenter.sh/v1, read when Karpenter wrote about the pod; none where Karpenter is not installed. */
  nodePools: KarpenterNodePool[];
  nodeClaims: KarpenterNodeClaim[];
  /**
   * Namespaces, reduced to their names and labels: what a pod affinity term's namespaceSelector
   * reads. Read live only where a selector needs labels other than kubernetes.io/metadata.name
   * (one GET of the pending pod's own namespace for existing pods' terms, one LIST for its own).
   */
  namespaces: NamespaceRecord[];
}

/** What is read of a Namespace: its name and labels (a V1Namespace is one). */
export interface NamespaceRecord {
  apiVersion?: string;
  kind?: string;
  metadata?: Pick<V1ObjectMeta, 'name' | 'uid' | 'labels' | 'resourceVersion'>;
}

export type CollectionName = keyof Collections;

/** Why a collection is not (fully) known. */
export type Gap =
  | { collection: CollectionName; cause: 'absentFromDump' }
  /** A dump whose only pod is the target: what runs on the nodes was not captured. */
  | { collection: 'pods'; cause: 'onlyTarget' }
  | {
      collection: CollectionName;
      cause: 'forbidden';
      permission: { verb: string; resource: string; scope: string };
    }
  | { collection: CollectionName; cause: 'error'; detail: string };

/** Something the source noticed about its input that the reader should know. */
export type SourceNote =
  /** The same object (kind, namespace, name, and uid where present) was read more than once. */
  | { kind: 'repeatedObjects'; count: number }
  /** Two or more different versions of one object: the newest resourceVersion was kept. */
  | {
      kind: 'conflictingVersions';
      object: { kind: string; namespace?: string; name: string };
      kept: { resourceVersion?: string; where: string };
      dropped: { resourceVersion?: string; where: string }[];
    };

export interface Snapshot {
  source: { kind: 'dump' | 'live' | 'capture'; description: string };
  /** Known objects. A collection named in `gaps` may be empty or partial. */
  objects: Collections;
  gaps: Gap[];
  /** What the source noticed about its input (repeats, conflicting versions). */
  notes?: SourceNote[];
  /**
   * Set when the pods bound to nodes were read for these nodes only (a live read in stages reads
   * the pods of candidate nodes): what runs on any other node is unknown. The verdicts do not
   * depend on it (those nodes fail on node objects alone), but a replay of a fix there would.
   */
  podsReadOn?: string[];
  /**
   * The cluster itself: its version, the apiserver's `gitVersion` as served (`v1.34.4`, from
   * `/version` live, from `kubectl version -o json|yaml` in a dump). Absent, or without a
   * version: unknown, and the engine replays the newest release it models (engine/release.ts).
   */
  cluster?: { version?: string };
}

/**
 * Every collection, in the order snapshots list them, with the kind of object each keeps
 * (events have none: they are normalised apart, into ClusterEvent). `satisfies` every
 * collection: a new one does not compile until it is listed here, with its kind.
 */
const kindOfCollection = {
  pods: 'Pod',
  nodes: 'Node',
  events: undefined,
  persistentVolumeClaims: 'PersistentVolumeClaim',
  persistentVolumes: 'PersistentVolume',
  storageClasses: 'StorageClass',
  csiNodes: 'CSINode',
  replicaSets: 'ReplicaSet',
  deployments: 'Deployment',
  statefulSets: 'StatefulSet',
  daemonSets: 'DaemonSet',
  jobs: 'Job',
  cronJobs: 'CronJob',
  limitRanges: 'LimitRange',
  resourceQuotas: 'ResourceQuota',
  priorityClasses: 'PriorityClass',
  podDisruptionBudgets: 'PodDisruptionBudget',
  resourceClaims: 'ResourceClaim',
  deviceClasses: 'DeviceClass',
  resourceSlices: 'ResourceSlice',
  deviceTaintRules: 'DeviceTaintRule',
  podGroups: 'PodGroup',
  // Only kube-system/cluster-autoscaler-status is kept (see Collections.clusterAutoscalerStatus).
  clusterAutoscalerStatus: 'ConfigMap',
  nodePools: 'NodePool',
  nodeClaims: 'NodeClaim',
  namespaces: 'Namespace',
} as const satisfies Record<CollectionName, string | undefined>;

type KindOfCollection = typeof kindOfCollection;

export const collectionNames = Object.keys(kindOfCollection) as CollectionName[];

/** Where an object of each kind is kept: `kindOfCollection` turned around. */
export const collectionOfKind = Object.fromEntries(Object.entries(kindOfCollection).flatMap(([collection, kind]) => (kind ? [[kind, collection]] : []))) as {
  readonly [C in keyof KindOfCollection as KindOfCollection[C] extends string ? KindOfCollection[C] : never]: C;
};

/** The controllers a pod's owner chain is followed through: their collections hold pod templates. */
export const ownerKinds = ['ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const;

export type OwnerKind = (typeof ownerKinds)[number];

export function isOwnerKind(kind: string): kind is OwnerKind {
  return (ownerKinds as readonly string[]).includes(kind);
}

/** How the API and kubectl name each collection's resource. */
export interface ApiResource {
  kind: string;
  /** Plural, as in the URL, RBAC rules and `kubectl get`. */
  plural: string;
  /** kubectl's short names (`pvc`, `deploy`). */
  shortNames: readonly string[];
  group: string;
  version: string;
  namespaced: boolean;
  /** The collection is this one object, never a list: read with one GET, captured by name. */
  only?: { namespace: string; name: string };
}

function api(kind: string, plural: string, shortNames: readonly string[], group: string, namespaced: boolean): ApiResource {
  return { kind, plural, shortNames, group, version: 'v1', namespaced };
}

/** One table for the live reader's URLs and RBAC names, the dump reader's file names and the capture commands in messages. */
export const apiResources: Record<CollectionName, ApiResource> = {
  pods: api('Pod', 'pods', ['po'], '', true),
  nodes: api('Node', 'nodes', ['no'], '', false),
  events: api('Event', 'events', ['ev'], '', true),
  persistentVolumeClaims: api('PersistentVolumeClaim', 'persistentvolumeclaims', ['pvc'], '', true),
  persistentVolumes: api('PersistentVolume', 'persistentvolumes', ['pv'], '', false),
  storageClasses: api('StorageClass', 'storageclasses', ['sc'], 'storage.k8s.io', false),
  csiNodes: api('CSINode', 'csinodes', [], 'storage.k8s.io', false),
  replicaSets: api('ReplicaSet', 'replicasets', ['rs'], 'apps', true),
  deployments: api('Deployment', 'deployments', ['deploy'], 'apps', true),
  statefulSets: api('StatefulSet', 'statefulsets', ['sts'], 'apps', true),
  daemonSets: api('DaemonSet', 'daemonsets', ['ds'], 'apps', true),
  jobs: api('Job', 'jobs', [], 'batch', true),
  cronJobs: api('CronJob', 'cronjobs', ['cj'], 'batch', true),
  limitRanges: api('LimitRange', 'limitranges', ['limits'], '', true),
  resourceQuotas: api('ResourceQuota', 'resourcequotas', ['quota'], '', true),
  priorityClasses: api('PriorityClass', 'priorityclasses', ['pc'], 'scheduling.k8s.io', false),
  podDisruptionBudgets: api('PodDisruptionBudget', 'poddisruptionbudgets', ['pdb'], 'policy', true),
  resourceClaims: api('ResourceClaim', 'resourceclaims', [], 'resource.k8s.io', true),
  deviceClasses: api('DeviceClass', 'deviceclasses', [], 'resource.k8s.io', false),
  resourceSlices: api('ResourceSlice', 'resourceslices', [], 'resource.k8s.io', false),
  deviceTaintRules: api('DeviceTaintRule', 'devicetaintrules', [], 'resource.k8s.io', false),
  podGroups: { ...api('PodGroup', 'podgroups', [], 'scheduling.k8s.io', true), version: 'v1beta1' },
  // cluster-autoscaler's defaults (its --namespace and --status-config-map-name flags); see
  // engine/story/autoscalerStatus.ts.
  clusterAutoscalerStatus: { ...api('ConfigMap', 'configmaps', ['cm'], '', true), only: { namespace: 'kube-system', name: 'cluster-autoscaler-status' } },
  nodePools: api('NodePool', 'nodepools', [], 'karpenter.sh', false),
  nodeClaims: api('NodeClaim', 'nodeclaims', [], 'karpenter.sh', false),
  namespaces: api('Namespace', 'namespaces', ['ns'], '', false),
};

export function emptyCollections(): Collections {
  return {
    pods: [],
    nodes: [],
    events: [],
    persistentVolumeClaims: [],
    persistentVolumes: [],
    storageClasses: [],
    csiNodes: [],
    replicaSets: [],
    deployments: [],
    statefulSets: [],
    daemonSets: [],
    jobs: [],
    cronJobs: [],
    limitRanges: [],
    resourceQuotas: [],
    priorityClasses: [],
    podDisruptionBudgets: [],
    resourceClaims: [],
    deviceClasses: [],
    resourceSlices: [],
    deviceTaintRules: [],
    podGroups: [],
    clusterAutoscalerStatus: [],
    nodePools: [],
    nodeClaims: [],
    namespaces: [],
  };
}

/** Reads a timestamp that may be an ISO string (dumps) or a Date (client-node). */
export function toTime(value: Date | string | undefined | null): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * When a pod's deletion was asked for: its deletionTimestamp is when the grace period ends, so
 * that much earlier. Undefined when the pod is not being deleted (or the arithmetic is no time).
 */
export function deletionAskedAt(deletionTimestamp: Date | string | undefined | null, graceSeconds: number | undefined | null): number | undefined {
  const ends = toTime(deletionTimestamp);
  return ends === undefined ? undefined : instantOrNone(ends - (graceSeconds ?? 0) * 1000);
}

/** `ms` when it is an instant a Date can hold (±8.64e15 ms), else undefined: arithmetic on odd input (a huge grace period) is no time. */
function instantOrNone(ms: number | undefined): number | undefined {
  return ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}

/**
 * The newest of `times` (ms since the epoch), unknown ones skipped; undefined when none is known.
 * A loop, not Math.max(...times): the events of a large cluster outnumber the arguments a call takes.
 */
export function newestOf(times: Iterable<number | undefined>): number | undefined {
  let newest: number | undefined;
  for (const t of times) if (t !== undefined && (newest === undefined || t > newest)) newest = t;
  return newest;
}

export function isGap(snapshot: Snapshot, collection: CollectionName): Gap | undefined {
  return snapshot.gaps.find((gap) => gap.collection === collection);
}
