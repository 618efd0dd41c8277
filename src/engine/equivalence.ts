// Pods the filters cannot tell apart: a Deployment's 300 pending replicas share a template, so
// the node-by-node replay (and the fixes replayed on it) of one holds for all. The scheduler
// once cached per "equivalence class" for the same reason. What makes two pods the same here:
// namespace, labels (selectors of spread and affinity count them), spec, and the controller
// (a fix names it). A pod whose filters read its own identity is never shared: its
// ResourceClaims (DynamicResources reads the claims made for it, by name), generic ephemeral
// volumes (VolumeBinding checks the claim is controlled by this pod), or a nomination of its
// own (the room nominated pods hold counts against every pod but the one nominated).
import type { V1Pod } from '@kubernetes/client-node';

/** The class of `pod`, or undefined when its verdicts depend on which pod it is. */
export function equivalenceKey(pod: V1Pod): string | undefined {
  const spec = pod.spec;
  if (!spec) return undefined;
  if ((spec.resourceClaims ?? []).length > 0) return undefined;
  if ((spec.volumes ?? []).some((v) => v.ephemeral)) return undefined;
  if (pod.status?.nominatedNodeName) return undefined;
  const controller = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
  return JSON.stringify([pod.metadata?.namespace ?? 'default', pod.metadata?.labels ?? {}, controller?.uid ?? controller?.name ?? '', spec]);
}

/** What a triage shares among the pods of one class, filled as the first of them is diagnosed. */
export type EquivalenceCache = Map<string, unknown>;
