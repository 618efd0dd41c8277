// What a capture writes of each object: the fields the engine and its stories read, and nothing
// else that could carry a secret into a ticket. Pods (and the pod templates of their owners)
// keep their scheduling fields, their containers' names, resources, ports and restart policies,
// and the statuses the stories read; environment values, command lines, probes, lifecycle hooks,
// images and volume contents never reach the file. Annotations are cut to those the engine
// reads (engine/annotations.ts); kubectl's last-applied-configuration to the containers' names
// and resources in it. Nodes and namespaces are cut as a live read keeps them (live/compact.ts),
// cluster-autoscaler's status ConfigMap to its `status` key; a StorageClass loses its
// parameters, a PersistentVolume its CSI attributes and secret references.
//
// test/unit/capture/round-trip.test.ts diagnoses every scenario folder from its objects and from
// their capture: a field the engine starts reading and this file drops fails it there.
import type { V1Container, V1ContainerStatus, V1ObjectMeta, V1PodSpec, V1PodStatus, V1Volume } from '@kubernetes/client-node';
import { readAnnotations } from '../../engine/annotations.js';
import { podSpecOf } from '../../engine/resources/originSources.js';
import type { CollectionName } from '../../snapshot/types.js';
import { requestsWritten } from '../dump/slim.js';
import { compactNode, namespaceRecord, readVolumeSources, statusOnly } from '../live/compact.js';
import { isObject } from '../object.js';

type Json = Record<string, unknown>;

const keptAnnotations: ReadonlySet<string> = new Set(Object.values(readAnnotations));

const metadataFields: readonly (keyof V1ObjectMeta)[] = [
  'name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds',
  'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
];
// schedulingGroup (a gang's PodGroup, v1.36+) is newer than client-node's types.
const podSpecFields: readonly (keyof V1PodSpec | 'schedulingGroup')[] = [
  'schedulingGroup', 'nodeName', 'schedulerName', 'nodeSelector', 'affinity', 'tolerations', 'topologySpreadConstraints', 'schedulingGates',
  'priority', 'priorityClassName', 'preemptionPolicy', 'runtimeClassName', 'overhead', 'resources', 'resourceClaims',
  'containers', 'initContainers', 'ephemeralContainers', 'volumes', 'hostNetwork', 'hostUsers', 'restartPolicy', 'terminationGracePeriodSeconds',
];
// restartPolicyRules and volumeMounts' bindMountOptions: features a node must declare
// (NodeDeclaredFeatures), whose field paths count mounts by their index.
const containerFields: readonly (keyof V1Container | 'restartPolicyRules')[] = ['name', 'resources', 'ports', 'restartPolicy', 'restartPolicyRules', 'resizePolicy', 'volumeMounts'];
const podStatusFields: readonly (keyof V1PodStatus)[] = [
  'phase', 'conditions', 'reason', 'message', 'startTime', 'nominatedNodeName', 'qosClass', 'resize', 'resourceClaimStatuses',
  'containerStatuses', 'initContainerStatuses',
];
const containerStatusFields: readonly (keyof V1ContainerStatus)[] = ['name', 'state', 'lastState', 'ready', 'started', 'restartCount', 'allocatedResources', 'resources'];
/** Kinds whose `spec.template` (a CronJob: `spec.jobTemplate.spec.template`) is a pod template. */
const templated: ReadonlySet<CollectionName> = new Set(['replicaSets', 'deployments', 'statefulSets', 'daemonSets', 'jobs', 'cronJobs']);
const secretRefs = ['nodePublishSecretRef', 'controllerPublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef', 'controllerExpandSecretRef', 'volumeAttributes'];

function pick(from: unknown, fields: readonly string[]): Json {
  const out: Json = {};
  if (!isObject(from)) return out;
  for (const field of fields) if (from[field] !== undefined && from[field] !== null) out[field] = from[field];
  return out;
}

function annotationsKept(annotations: unknown, kind: string): Json | undefined {
  if (!isObject(annotations)) return undefined;
  const out: Json = {};
  for (const [key, value] of Object.entries(annotations)) {
    if (!keptAnnotations.has(key)) continue;
    out[key] = key === readAnnotations.lastApplied && typeof value === 'string' ? lastAppliedResources(value, kind) : value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Of what `kubectl apply` last wrote (the whole object, environment and all), the containers'
 * names and resources: all resources/originSources.ts asks of it (did the user set a request?).
 */
function lastAppliedResources(text: string, kind: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return '{}';
  }
  const spec = podSpecOf(kind, parsed as Parameters<typeof podSpecOf>[1]) as Json | undefined;
  const cut: Json = {};
  for (const list of ['containers', 'initContainers']) {
    if (Array.isArray(spec?.[list])) cut[list] = (spec[list] as unknown[]).map((c) => pick(c, ['name', 'resources']));
  }
  const wrapped = kind === 'Pod' ? { spec: cut } : kind === 'CronJob' ? { spec: { jobTemplate: { spec: { template: { spec: cut } } } } } : { spec: { template: { spec: cut } } };
  return JSON.stringify(wrapped);
}

function redactMetadata(metadata: unknown, kind: string): Json {
  const out = pick(metadata, metadataFields as string[]);
  const annotations = annotationsKept(out['annotations'], kind);
  if (annotations) out['annotations'] = annotations;
  else delete out['annotations'];
  // Of managedFields, a pod's record of who wrote its containers' requests (resources/origins.ts).
  const managed = out['managedFields'];
  if (kind === 'Pod' && Array.isArray(managed)) out['managedFields'] = managed.map(requestsWritten);
  else delete out['managedFields'];
  return out;
}

/** A volume as the filters read it: its source's kind always, its fields only where a filter reads them. */
function redactVolume(volume: V1Volume): Json {
  const out: Json = { name: volume.name };
  for (const [source, value] of Object.entries(volume)) {
    if (source === 'name' || !isObject(value)) continue;
    const read = (readVolumeSources as Record<string, { fields: Record<string, unknown> }>)[source];
    if (source === 'ephemeral') out[source] = { volumeClaimTemplate: { spec: (value['volumeClaimTemplate'] as Json | undefined)?.['spec'] ?? {} } };
    else if (source === 'csi') out[source] = pick(value, ['driver', 'readOnly', 'fsType']);
    else out[source] = read ? pick(value, Object.keys(read.fields)) : {};
  }
  return out;
}

function redactContainer(container: unknown): Json {
  const out = pick(container, containerFields as string[]);
  if (Array.isArray(out['volumeMounts'])) out['volumeMounts'] = (out['volumeMounts'] as unknown[]).map((m) => pick(m, ['name', 'bindMountOptions']));
  return out;
}

function redactPodSpec(spec: unknown): Json {
  const out = pick(spec, podSpecFields as string[]);
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    if (Array.isArray(out[list])) out[list] = (out[list] as unknown[]).map(redactContainer);
  }
  if (Array.isArray(out['volumes'])) out['volumes'] = (out['volumes'] as V1Volume[]).map(redactVolume);
  return out;
}

function redactPodStatus(status: unknown): Json {
  const out = pick(status, podStatusFields as string[]);
  for (const list of ['containerStatuses', 'initContainerStatuses']) {
    if (Array.isArray(out[list])) out[list] = (out[list] as unknown[]).map((s) => pick(s, containerStatusFields as string[]));
  }
  return out;
}

function redactPod(pod: Json, kind: string): Json {
  const out: Json = { metadata: redactMetadata(pod['metadata'], kind) };
  if (pod['spec'] !== undefined) out['spec'] = redactPodSpec(pod['spec']);
  if (pod['status'] !== undefined) out['status'] = redactPodStatus(pod['status']);
  return out;
}

/** A pod template (an owner's): its labels and read annotations, and the pod spec as above. */
function redactTemplate(template: unknown): Json | undefined {
  if (!isObject(template)) return undefined;
  const metadata = pick(template['metadata'], ['labels']);
  return { ...(Object.keys(metadata).length > 0 ? { metadata } : {}), spec: redactPodSpec(template['spec']) };
}

function redactWorkload(object: Json, kind: string): Json {
  const spec = isObject(object['spec']) ? { ...object['spec'] } : undefined;
  if (spec && kind === 'CronJob') {
    const job = isObject(spec['jobTemplate']) ? spec['jobTemplate'] : undefined;
    const jobSpec = isObject(job?.['spec']) ? job['spec'] : undefined;
    if (jobSpec) spec['jobTemplate'] = { spec: { ...jobSpec, template: redactTemplate(jobSpec['template']) } };
  } else if (spec && spec['template'] !== undefined) {
    spec['template'] = redactTemplate(spec['template']);
  }
  return { ...object, metadata: redactMetadata(object['metadata'], kind), ...(spec ? { spec } : {}) };
}

/**
 * The object of `collection` as a capture writes it, cut as the header says. `kind` is the
 * object's kind (Pod, Deployment...). The input is not changed; the result is new down to the
 * fields it picks, whose values it shares with the input (a caller that changes it copies it).
 */
export function redactObject(collection: Exclude<CollectionName, 'events'>, kind: string, object: Json): Json {
  switch (collection) {
    case 'pods':
      return redactPod(object, kind);
    case 'nodes':
      return compactNode(object) as Json;
    case 'namespaces':
      return namespaceRecord(object) as Json;
    case 'clusterAutoscalerStatus':
      return statusOnly(object) as Json;
    case 'storageClasses': {
      const { parameters: _parameters, ...rest } = object;
      return { ...rest, metadata: redactMetadata(object['metadata'], kind) };
    }
    case 'persistentVolumes': {
      const spec = isObject(object['spec']) ? object['spec'] : undefined;
      const csi = isObject(spec?.['csi']) ? { ...spec['csi'] } : undefined;
      if (csi) for (const field of secretRefs) delete csi[field];
      return { ...object, metadata: redactMetadata(object['metadata'], kind), ...(spec ? { spec: { ...spec, ...(csi ? { csi } : {}) } } : {}) };
    }
    default:
      if (templated.has(collection)) return redactWorkload(object, kind);
      return { ...object, metadata: redactMetadata(object['metadata'], kind) };
  }
}
