// The specs a pod was made from, for telling a copied request from a written one: the pod
// templates of its owners in the snapshot (ReplicaSet, Deployment, StatefulSet, DaemonSet,
// Job, CronJob), and the kubectl.kubernetes.io/last-applied-configuration of the pod and of
// each owner (what `kubectl apply` was given, before any defaulting).
import type { V1Container, V1LimitRange, V1ObjectMeta, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { isOwnerKind, type Snapshot } from '../../snapshot/types.js';
import { findOwner, ownerChain } from '../owners.js';
import { readAnnotations } from '../annotations.js';

/** A pod spec as someone wrote it, and the object that holds it. */
export interface WrittenSpec {
  object: { kind: string; name: string };
  spec: V1PodSpec | undefined;
}

export interface OriginSources {
  /** Owners' pod templates, nearest owner first. */
  templates: WrittenSpec[];
  /** Last-applied configurations: the pod's own first, then its owners', nearest first. */
  lastApplied: WrittenSpec[];
  /** The LimitRanges of the pod's namespace. */
  limitRanges: V1LimitRange[];
}

interface Templated {
  metadata?: V1ObjectMeta;
  spec?: { template?: { spec?: V1PodSpec }; jobTemplate?: { spec?: { template?: { spec?: V1PodSpec } } } };
}

/** Where each kind keeps the pod spec it stamps out (a CronJob one level further down). */
export function podSpecOf(kind: string, object: Templated | undefined): V1PodSpec | undefined {
  if (kind === 'Pod') return (object as { spec?: V1PodSpec } | undefined)?.spec;
  if (kind === 'CronJob') return object?.spec?.jobTemplate?.spec?.template?.spec;
  return object?.spec?.template?.spec;
}

export function containerIn(written: WrittenSpec, name: string): V1Container | undefined {
  const spec = written.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].find((c) => c.name === name);
}

/** The object as `kubectl apply` last wrote it, when it carries the annotation and it parses. */
function lastAppliedSpec(kind: string, metadata: V1ObjectMeta | undefined): V1PodSpec | undefined {
  const text = metadata?.annotations?.[readAnnotations.lastApplied];
  if (!text) return undefined;
  try {
    return podSpecOf(kind, JSON.parse(text) as Templated);
  } catch {
    return undefined;
  }
}

export function originSources(snapshot: Snapshot, pod: V1Pod): OriginSources {
  const namespace = pod.metadata?.namespace ?? 'default';
  const templates: WrittenSpec[] = [];
  const lastApplied: WrittenSpec[] = [];
  const own = lastAppliedSpec('Pod', pod.metadata);
  if (own) lastApplied.push({ object: { kind: 'Pod', name: pod.metadata?.name ?? '' }, spec: own });
  for (const ref of ownerChain(snapshot, pod)) {
    if (!isOwnerKind(ref.kind)) break;
    const owner = findOwner(snapshot, ref.kind, namespace, ref.name) as Templated | undefined;
    if (!owner) break;
    const object = { kind: ref.kind, name: ref.name };
    templates.push({ object, spec: podSpecOf(ref.kind, owner) });
    const applied = lastAppliedSpec(ref.kind, owner.metadata);
    if (applied) lastApplied.push({ object, spec: applied });
  }
  const limitRanges = snapshot.objects.limitRanges.filter((lr) => (lr.metadata?.namespace ?? 'default') === namespace);
  return { templates, lastApplied, limitRanges };
}
