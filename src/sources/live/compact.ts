// The records a live read keeps of the objects it lists by the thousand: the pods on candidate
// nodes (and every pod, above the per-node limit), and the nodes. Each is cut, page by page as
// it arrives, to what the engine reads of it; the rest of a page is garbage once parsed.
// - Nodes: a new record of the fields the engine reads (NodeRecord, snapshot/types.ts): name,
//   uid, labels, cordon, taints, capacity, allocatable, conditions, declared features.
//   status.images (every image on the node, often the largest part of a Node) and managedFields
//   are cut from the page's bytes before it is parsed (Transport.list); annotations, addresses
//   and nodeInfo go here.
//   A node list read in protobuf (protobuf/node.ts) is decoded straight into this record.
// - Neighbour pods (pods bound to a node; never the pod being diagnosed, which is read apart,
//   whole): a new record holding only the fields named below, so that what is kept of 50,000
//   pods is small and in V8's compact object layout (deleting fields from the parsed object
//   would keep every other field and turn the objects into slower, larger dictionaries).
//   What the filters and stories read of a pod on a node: its identity and labels (affinity,
//   spread, budgets), termination (a victim's deletion, grace period, finalizers), what the
//   filters count (requests, limits, overhead, pod-level resources, sidecars, resize in
//   progress, host ports, the volumes a volume filter reads), its own affinity
//   (InterPodAffinity checks existing pods' anti-affinity), priority and phase. Of volumes,
//   only the sources in `readVolumeSources` are kept, cut to the fields named there.
//   A pod list read in protobuf (protobuf/pod.ts) is decoded straight into this record.
//   test/unit/live/compact-scenarios.test.ts diagnoses every scenario folder with its
//   neighbour pods cut so and whole: a field the engine starts reading must be added here.
// - cluster-autoscaler's status ConfigMap (one GET, reads/autoscalers.ts): its name, namespace and `status` key.
import type { V1ConfigMap, V1Container, V1ContainerStatus, V1Node, V1NodeCondition, V1Pod, V1PodResourceClaim, V1PodStatus, V1Taint, V1Volume } from '@kubernetes/client-node';
import { cordonEntries } from '../cordon.js';
import { nodeRecordFields, type NamespaceRecord, type NodeRecord } from '../../snapshot/types.js';

type Fields<T> = readonly (keyof T & string)[];

/**
 * A new object with those of `fields` that `from` holds, in that order. JSON's null (a zero
 * time: metav1.Time writes null) is left out as absent, as the protobuf read has it.
 */
function pick<T extends object>(from: T | undefined, fields: readonly (keyof T & string)[] | readonly string[]): T {
  const out: Partial<T> = {};
  if (!from) return out as T;
  for (const field of fields) {
    const value = (from as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) (out as Record<string, unknown>)[field] = value;
  }
  return out as T;
}

const metadataFields: Fields<NonNullable<V1Pod['metadata']>> = ['name', 'namespace', 'uid', 'labels', 'ownerReferences', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'finalizers'];
const specFields: Fields<NonNullable<V1Pod['spec']>> = [
  'nodeName', 'priority', 'priorityClassName', 'preemptionPolicy', 'terminationGracePeriodSeconds', 'restartPolicy', 'hostNetwork',
  'overhead', 'resources', 'affinity',
  // The gang a member belongs to (engine/story/gang.ts): a triage counts its scheduled members.
  'schedulingGroup',
];
const containerFields: Fields<V1Container> = ['name', 'resources', 'ports', 'restartPolicy', 'resizePolicy'];
const containerStatusFields: Fields<V1ContainerStatus> = ['name', 'allocatedResources', 'resources'];
const statusFields: Fields<V1PodStatus> = ['phase', 'startTime', 'nominatedNodeName', 'resize', 'resourceClaimStatuses'];
const taintFields: ReadonlySet<keyof V1Taint> = new Set(['key', 'value', 'effect', 'timeAdded']);
const conditionFields: ReadonlySet<keyof V1NodeCondition> = new Set(['type', 'status', 'lastHeartbeatTime', 'lastTransitionTime', 'reason', 'message']);
const claimFields: Fields<V1PodResourceClaim> = ['name', 'resourceClaimName', 'resourceClaimTemplateName'];

/** How the apiserver's JSON writes a kept field: a string always (`s`) or omitted when empty (`S`), a bool omitted when false (`b`), a list of strings (`l`). */
export type JsonField = 's' | 'S' | 'b' | 'l';

/**
 * The volume sources a filter reads of a pod on a node, and what it reads of each: disks that
 * conflict (VolumeRestrictions), claims and in-tree disks counted against a node's limit
 * (NodeVolumeLimits), claims of ReadWriteOncePod (volumes.ts). Of an ephemeral volume, only
 * that it is one: its claim is named after the pod and the volume. With each source its field
 * number in VolumeSource and each field's number and JSON form (generated.proto, types.go),
 * which the protobuf decoder (protobuf/pod.ts) reads the same fields by.
 */
export const readVolumeSources = {
  persistentVolumeClaim: { number: 10, fields: { claimName: [1, 's'], readOnly: [2, 'b'] } },
  ephemeral: { number: 29, fields: {} },
  gcePersistentDisk: { number: 3, fields: { pdName: [1, 's'], readOnly: [4, 'b'] } },
  awsElasticBlockStore: { number: 4, fields: { volumeID: [1, 's'], readOnly: [4, 'b'] } },
  iscsi: { number: 8, fields: { iqn: [2, 's'], readOnly: [6, 'b'] } },
  rbd: { number: 11, fields: { monitors: [1, 'l'], image: [2, 's'], pool: [4, 'S'], readOnly: [8, 'b'] } },
  azureDisk: { number: 22, fields: { diskName: [1, 's'], diskURI: [2, 's'] } },
  cinder: { number: 13, fields: { volumeID: [1, 's'] } },
  portworxVolume: { number: 24, fields: { volumeID: [1, 's'] } },
} as const satisfies { [K in keyof V1Volume]?: { number: number; fields: { [F in keyof NonNullable<V1Volume[K]>]?: readonly [number, JsonField] } } };

const volumeSources = Object.entries(readVolumeSources).map(([source, { fields }]) => [source, Object.keys(fields)] as [keyof typeof readVolumeSources, string[]]);

/** The volume as the filters read it, or undefined when no filter reads its source. */
function readVolume(volume: V1Volume): V1Volume | undefined {
  for (const [source, fields] of volumeSources) {
    const value = volume[source];
    if (value) return { name: volume.name, [source]: pick(value as Record<string, unknown>, fields) };
  }
  return undefined;
}

const containers = (list: V1Container[] | undefined) => list?.map((c) => pick(c, containerFields));
const statuses = (list: V1ContainerStatus[] | undefined) => list?.map((s) => pick(s, containerStatusFields));

/** A pod on a node, as the filters and stories read it: a new, smaller record. */
export function compactNeighbour(pod: V1Pod): V1Pod {
  const spec = pod.spec;
  const out: V1Pod = { metadata: pick(pod.metadata, metadataFields) };
  if (spec) {
    const kept = pick(spec, specFields);
    if (spec.resourceClaims) kept.resourceClaims = spec.resourceClaims.map((c) => pick(c, claimFields));
    kept.containers = containers(spec.containers) ?? [];
    const init = containers(spec.initContainers);
    if (init) kept.initContainers = init;
    const volumes = spec.volumes?.map(readVolume).filter((v) => v !== undefined);
    if (volumes && volumes.length > 0) kept.volumes = volumes;
    out.spec = kept;
  }
  const status = pod.status;
  if (status) {
    const kept = pick(status, statusFields);
    const main = statuses(status.containerStatuses);
    if (main) kept.containerStatuses = main;
    const init = statuses(status.initContainerStatuses);
    if (init) kept.initContainerStatuses = init;
    out.status = kept;
  }
  return out;
}

/**
 * Those of `fields` that `from` holds, in `from`'s own order: a report quotes a node's taint as
 * the source wrote it (the apiserver in its Go struct's order, `kubectl get -o json` sorted), so
 * the cut taint keeps that order. JSON's null is left out, as in `pick`.
 */
function pickInOwnOrder<T extends object>(from: T, fields: ReadonlySet<keyof T>): T {
  const out: Partial<T> = {};
  for (const [field, value] of Object.entries(from)) {
    if (fields.has(field as keyof T) && value !== undefined && value !== null) (out as Record<string, unknown>)[field] = value;
  }
  return out as T;
}

/** A node as the engine reads it (NodeRecord): a new, smaller record of the fields named there. */
export function compactNode(node: V1Node): NodeRecord {
  const out: NodeRecord = {};
  if (node.metadata) {
    out.metadata = pick(node.metadata, nodeRecordFields.metadata);
    const cordon = cordonEntries(node.metadata.managedFields);
    if (cordon) out.metadata.managedFields = cordon;
  }
  if (node.spec) {
    const spec = pick(node.spec, nodeRecordFields.spec);
    if (spec.taints) spec.taints = spec.taints.map((t) => pickInOwnOrder(t, taintFields));
    out.spec = spec;
  }
  if (node.status) {
    const status = pick(node.status, nodeRecordFields.status);
    if (status.conditions) status.conditions = status.conditions.map((c) => pickInOwnOrder(c, conditionFields));
    out.status = status;
  }
  return out;
}

/** cluster-autoscaler's status ConfigMap as the engine reads it: its identity and the `status` key, nothing else. */
export function statusOnly(c: V1ConfigMap): V1ConfigMap {
  const status = c.data?.['status'];
  return {
    metadata: { name: c.metadata?.name ?? '', namespace: c.metadata?.namespace ?? '', ...(c.metadata?.resourceVersion ? { resourceVersion: c.metadata.resourceVersion } : {}) },
    data: status !== undefined ? { status } : {},
  };
}

/** A Namespace as the engine reads it (engine/namespaces.ts): its identity and labels. */
export function namespaceRecord(ns: NamespaceRecord): NamespaceRecord {
  const m = ns.metadata;
  return { metadata: { ...(m?.name !== undefined ? { name: m.name } : {}), ...(m?.uid !== undefined ? { uid: m.uid } : {}), ...(m?.labels ? { labels: m.labels } : {}) } };
}
