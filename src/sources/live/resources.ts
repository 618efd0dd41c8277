// The API resources why-pending reads: where each lives, how RBAC names it, and which snapshot
// collection it fills.
import type { CollectionName } from '../../snapshot/types.js';

export interface Resource {
  collection: CollectionName;
  kind: string;
  /** Plural, as in the URL and in RBAC rules. */
  plural: string;
  group: string;
  version: string;
  namespaced: boolean;
}

function resource(collection: CollectionName, kind: string, plural: string, group: string, version: string, namespaced: boolean): Resource {
  return { collection, kind, plural, group, version, namespaced };
}

export const resources = {
  pods: resource('pods', 'Pod', 'pods', '', 'v1', true),
  nodes: resource('nodes', 'Node', 'nodes', '', 'v1', false),
  events: resource('events', 'Event', 'events', '', 'v1', true),
  persistentVolumeClaims: resource('persistentVolumeClaims', 'PersistentVolumeClaim', 'persistentvolumeclaims', '', 'v1', true),
  persistentVolumes: resource('persistentVolumes', 'PersistentVolume', 'persistentvolumes', '', 'v1', false),
  storageClasses: resource('storageClasses', 'StorageClass', 'storageclasses', 'storage.k8s.io', 'v1', false),
  csiNodes: resource('csiNodes', 'CSINode', 'csinodes', 'storage.k8s.io', 'v1', false),
  replicaSets: resource('replicaSets', 'ReplicaSet', 'replicasets', 'apps', 'v1', true),
  deployments: resource('deployments', 'Deployment', 'deployments', 'apps', 'v1', true),
  statefulSets: resource('statefulSets', 'StatefulSet', 'statefulsets', 'apps', 'v1', true),
  daemonSets: resource('daemonSets', 'DaemonSet', 'daemonsets', 'apps', 'v1', true),
  jobs: resource('jobs', 'Job', 'jobs', 'batch', 'v1', true),
  cronJobs: resource('cronJobs', 'CronJob', 'cronjobs', 'batch', 'v1', true),
  limitRanges: resource('limitRanges', 'LimitRange', 'limitranges', '', 'v1', true),
  resourceQuotas: resource('resourceQuotas', 'ResourceQuota', 'resourcequotas', '', 'v1', true),
  priorityClasses: resource('priorityClasses', 'PriorityClass', 'priorityclasses', 'scheduling.k8s.io', 'v1', false),
} as const satisfies Record<CollectionName, Resource>;

const ownerKinds = ['ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'] as const;

export function ownerResource(kind: string): Resource | undefined {
  return Object.values(resources).find((r) => r.kind === kind && (ownerKinds as readonly string[]).includes(kind));
}

/** The URL path of a collection (no name) or of one object. `namespace` undefined: all namespaces. */
export function pathOf(r: Resource, namespace?: string, name?: string): string {
  const root = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${ns}/${r.plural}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}

/** As RBAC and `kubectl auth can-i` name it: `nodes`, `storageclasses.storage.k8s.io`. */
export function rbacName(r: Resource): string {
  return r.group ? `${r.plural}.${r.group}` : r.plural;
}

/** The permission's scope: `cluster`, or `namespace shop`. */
export function scopeOf(r: Resource, namespace: string | undefined): string {
  return r.namespaced && namespace !== undefined ? `namespace ${namespace}` : 'cluster';
}

/** A field selector value, escaped as fields.EscapeValue does. */
export function escapeField(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/=/g, '\\=');
}

/** kubectl's name for a kind in messages: `pod`, `deployment`. */
export function kindWord(kind: string): string {
  return kind.toLowerCase();
}
