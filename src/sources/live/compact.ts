// The records a live read keeps of the objects it lists by the thousand: the pods on candidate
// nodes (and every pod, above the per-node limit), and the nodes. Each is cut, page by page as
// it arrives, to what the engine reads of it (grep src/engine before the engine starts reading
// a field dropped here); the rest of a page is garbage once parsed.
// - Nodes: status.images (every image on the node, often the largest part of a Node) goes, as
//   in a dump (sources/dump/slim.ts). managedFields are gone already (Transport.list).
// - Neighbour pods (never the pod being diagnosed, which is read apart, whole): containers keep
//   what the filters count (name, resources, ports, restartPolicy, resizePolicy); container
//   statuses keep what a resize in progress counts (name, allocatedResources, resources).
//   env, commands, probes, images, mounts and the like go; so do volumes that no volume filter
//   counts (configMap, secret, projected, emptyDir, downwardAPI: never a disk, a claim or an
//   attachable volume), the pod's DNS, service account and security settings, and its
//   annotations.
// - cluster-autoscaler's status ConfigMap (one GET, fetch.ts): its name, namespace and `status` key.
import type { V1ConfigMap, V1Container, V1ContainerStatus, V1Node, V1Pod, V1Volume } from '@kubernetes/client-node';

function compactContainer(container: V1Container): V1Container {
  const { name, resources, ports, restartPolicy, resizePolicy } = container;
  return {
    name,
    ...(resources ? { resources } : {}),
    ...(ports ? { ports } : {}),
    ...(restartPolicy ? { restartPolicy } : {}),
    ...(resizePolicy ? { resizePolicy } : {}),
  } as V1Container;
}

function compactStatus(status: V1ContainerStatus): V1ContainerStatus {
  const { name, allocatedResources, resources } = status;
  return { name, ...(allocatedResources ? { allocatedResources } : {}), ...(resources ? { resources } : {}) } as V1ContainerStatus;
}

const unreadSpecFields = ['securityContext', 'dnsPolicy', 'dnsConfig', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken', 'enableServiceLinks', 'imagePullSecrets', 'hostname', 'subdomain'] as const;
const uncountedVolumeSources = new Set(['name', 'configMap', 'secret', 'projected', 'emptyDir', 'downwardAPI']);

function counted(volume: V1Volume): boolean {
  return Object.keys(volume).some((key) => !uncountedVolumeSources.has(key));
}

/** A pod on another node, as the filters read it. Changes `pod` in place and returns it. */
export function compactNeighbour(pod: V1Pod): V1Pod {
  // No filter or story reads another pod's annotations (the pod's own, kubernetes.io/limit-ranger
  // and last-applied-configuration, come from its own whole read); they can be kilobytes.
  if (pod.metadata) delete pod.metadata.annotations;
  const spec = pod.spec;
  if (spec) {
    for (const field of unreadSpecFields) delete spec[field];
    if (spec.volumes) spec.volumes = spec.volumes.filter(counted);
    spec.containers = (spec.containers ?? []).map(compactContainer);
    if (spec.initContainers) spec.initContainers = spec.initContainers.map(compactContainer);
    delete spec.ephemeralContainers; // never counted by the scheduler
  }
  const status = pod.status;
  if (status) {
    if (status.containerStatuses) status.containerStatuses = status.containerStatuses.map(compactStatus);
    if (status.initContainerStatuses) status.initContainerStatuses = status.initContainerStatuses.map(compactStatus);
    delete status.ephemeralContainerStatuses;
    delete status.podIPs;
    delete status.hostIPs;
  }
  return pod;
}

/** A node without its image list. Changes `node` in place and returns it. */
export function compactNode(node: V1Node): V1Node {
  if (node.status) delete node.status.images;
  return node;
}

/** cluster-autoscaler's status ConfigMap as the engine reads it: its identity and the `status` key, nothing else. */
export function statusOnly(c: V1ConfigMap): V1ConfigMap {
  const status = c.data?.['status'];
  return {
    metadata: { name: c.metadata?.name ?? '', namespace: c.metadata?.namespace ?? '', ...(c.metadata?.resourceVersion ? { resourceVersion: c.metadata.resourceVersion } : {}) },
    data: status !== undefined ? { status } : {},
  };
}
