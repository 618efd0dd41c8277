// Pods the filters cannot tell apart: a Deployment's 300 pending replicas share a template, so
// the node-by-node replay (and the fixes replayed on it) of one holds for all. The scheduler
// once cached per "equivalence class" for the same reason. What makes two pods the same here:
// namespace, labels (selectors of spread and affinity count them), spec, and the controller
// (a fix names it). A pod whose filters read its own identity is never shared: its
// ResourceClaims (DynamicResources reads the claims made for it, by name), generic ephemeral
// volumes (VolumeBinding checks the claim is controlled by this pod), or a nomination of its
// own (the room nominated pods hold counts against every pod but the one nominated).
// Admission makes every pod's spec its own: the ServiceAccount admission plugin adds a projected
// volume named kube-api-access-<5 random characters>, and a mount of it to every container. No
// filter reads a projected, configMap, secret, downwardAPI or emptyDir volume's name, nor any
// mount: the key leaves them out, or no two real pods would ever share a class.
import type { V1Container, V1Pod, V1PodSpec, V1Volume } from '@kubernetes/client-node';

/** The class of `pod`, or undefined when its verdicts depend on which pod it is. */
export function equivalenceKey(pod: V1Pod): string | undefined {
  const spec = pod.spec;
  if (!spec) return undefined;
  if ((spec.resourceClaims ?? []).length > 0) return undefined;
  if ((spec.volumes ?? []).some((v) => v.ephemeral)) return undefined;
  if (pod.status?.nominatedNodeName) return undefined;
  const controller = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
  return JSON.stringify([pod.metadata?.namespace ?? 'default', pod.metadata?.labels ?? {}, controller?.uid ?? controller?.name ?? '', keyedSpec(spec)]);
}

/** Volumes whose name no filter reads (the claims, disks and CSI volumes they count keep theirs). */
const unnamed: readonly (keyof V1Volume)[] = ['projected', 'configMap', 'secret', 'downwardAPI', 'emptyDir'];

function keyedSpec(spec: V1PodSpec): V1PodSpec {
  const unmounted = (list: V1Container[] | undefined) => list?.map(({ volumeMounts: _mounts, ...c }) => c);
  return {
    ...spec,
    containers: unmounted(spec.containers) ?? [],
    ...(spec.initContainers ? { initContainers: unmounted(spec.initContainers) } : {}),
    ...(spec.volumes ? { volumes: spec.volumes.map((v) => (unnamed.some((k) => v[k] !== undefined) ? { ...v, name: '' } : v)) } : {}),
  };
}

/** What a triage shares among the pods of one class, filled as the first of them is diagnosed. */
export type EquivalenceCache = Map<string, unknown>;
