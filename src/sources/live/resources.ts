// The API resources why-pending reads: where each lives, how RBAC names it, and which snapshot
// collection it fills.
import { apiResources, isOwnerKind, type ApiResource, type CollectionName } from '../../snapshot/types.js';

export interface Resource extends ApiResource {
  collection: CollectionName;
}

/** Each collection's resource (snapshot/types.ts apiResources), with the collection it fills. */
export const resources = Object.fromEntries(
  (Object.entries(apiResources) as [CollectionName, ApiResource][]).map(([collection, r]) => [collection, { ...r, collection }]),
) as Record<CollectionName, Resource>;

export function ownerResource(kind: string): Resource | undefined {
  return isOwnerKind(kind) ? Object.values(resources).find((r) => r.kind === kind) : undefined;
}

/** Pods that still count: the filters skip Succeeded and Failed pods. */
export const nonTerminal = 'status.phase!=Succeeded,status.phase!=Failed';

/**
 * Pending pods nominated to a node (engine/nominated.ts): the apiserver filters every pod and
 * sends only these, few, so a read of them costs one small page.
 */
/** A LIST's Accept for names only (metadata of each item), JSON as the fallback. */
export const namesOnly = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json;q=0.9';

export const nominatedPodsSelector = `spec.nodeName=,status.nominatedNodeName!=,${nonTerminal}`;

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
