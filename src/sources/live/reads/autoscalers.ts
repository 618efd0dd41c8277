// What a node autoscaler that spoke about a pending pod keeps, and the scheduler's own word
// elsewhere: read by a single pod's read when the plan names them, and by the triage read once
// for every pending pod.
import type { V1ConfigMap, V1Pod } from '@kubernetes/client-node';
import { statusOnly } from '../compact.js';
import { namespaceOf, type LiveReader, type Meta } from '../reader.js';
import { escapeField, rbacName, resources } from '../resources.js';

/**
 * cluster-autoscaler spoke about the pod: its status ConfigMap, with one GET of that object
 * (a 404 is no status, not a gap; a 403 is a gap). Only its `status` key is kept.
 */
export async function autoscalerStatus(reader: LiveReader): Promise<void> {
  const r = resources.clusterAutoscalerStatus;
  if (!r.only || reader.objects.clusterAutoscalerStatus.length > 0) return;
  const { namespace, name } = r.only;
  const what = `reading cluster-autoscaler's status ${namespace}/${name}`;
  reader.progress(what);
  await reader.get<V1ConfigMap>(r, namespace, name, what, statusOnly);
}

/**
 * Karpenter wrote about the pod: its NodePools (what a new node would carry, limits, readiness)
 * and NodeClaims (the one the pod waits for). Cluster-scoped, paged. A 404 means the group is
 * not served (Karpenter is not installed; its events outlived it): nothing to read, nothing to say.
 */
export async function karpenterObjects(reader: LiveReader): Promise<void> {
  reader.progress('reading Karpenter NodePools and NodeClaims');
  await Promise.all([resources.nodePools, resources.nodeClaims].map((r) => reader.list<Meta>(r, undefined, `listing ${rbacName(r)}`, { notServedIsAbsent: true })));
}

/** NoScheduler: has the pod's scheduler written anything anywhere? One event is enough. */
export async function schedulerActivity(reader: LiveReader, pod: V1Pod): Promise<void> {
  const scheduler = pod.spec?.schedulerName || 'default-scheduler';
  const fieldSelector = `reportingComponent=${escapeField(scheduler)},reason=Scheduled`;
  const what = `looking for events written by ${scheduler}`;
  if (!(await reader.events(undefined, fieldSelector, what, 1))) await reader.events(namespaceOf(pod), fieldSelector, what, 1);
}
