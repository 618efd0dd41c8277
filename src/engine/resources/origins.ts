// Where a request came from, when the user did not write it. API defaulting copies a
// container's limits into missing requests (SetDefaults_Pod), and the LimitRanger admission
// plugin fills defaults and says so in the `kubernetes.io/limit-ranger` annotation:
//   "LimitRanger plugin set: cpu, memory request for container app; cpu limit for init container x"
// A copied request looks exactly like a written one (request == limit), so a copy is claimed
// only with evidence, each kind named: the pod's managedFields (no manager wrote the request;
// `kubectl get -o yaml` drops them), the owner's pod template or a last-applied-configuration
// that sets the limit and no request, or, for a pod read before admission, no request at all.
import type { V1Container, V1LimitRange, V1ManagedFieldsEntry, V1Pod } from '@kubernetes/client-node';
import { toResourceList } from './amounts.js';
import { containerIn, type OriginSources, type WrittenSpec } from './originSources.js';
import { readAnnotations } from '../annotations.js';

export type OriginEvidence = 'podSpec' | 'managedFields' | 'ownerTemplate' | 'lastApplied' | 'limitRangerAnnotation';

export interface RequestOrigin {
  container: string;
  resource: string;
  /** The request as the pod holds it (the limit, when a pod read before admission has none). */
  quantity: string;
  from: 'limits' | 'limitRange';
  /**
   * How we know: `podSpec` (the pod as read sets a limit and no request: admission will copy
   * it), `managedFields` (no field manager wrote the request), `ownerTemplate` (the owner's pod
   * template sets the limit and no request), `lastApplied` (the object's
   * kubectl.kubernetes.io/last-applied-configuration does), `limitRangerAnnotation`.
   */
  evidence: OriginEvidence;
  /** ownerTemplate and lastApplied: the object whose spec sets no request. */
  source?: { kind: string; name: string };
  /** limitRange: the LimitRange of the pod's namespace whose default request is this quantity. */
  limitRange?: { name: string; defaultRequest: string };
}

/** Without `sources`, only what the pod itself proves (the scheduler's view of other pods needs no more). */
export function requestOrigins(pod: V1Pod, sources?: OriginSources): RequestOrigin[] {
  const fromLimitRange = limitRangerDefaults(pod.metadata?.annotations?.[readAnnotations.limitRanger]);
  const origins: RequestOrigin[] = [];
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const container of all) {
    for (const resource of Object.keys({ ...container.resources?.requests, ...container.resources?.limits })) {
      const quantity = String(container.resources?.requests?.[resource] ?? container.resources?.limits?.[resource] ?? '');
      if (fromLimitRange.has(`${container.name}/${resource}`)) {
        const limitRange = sources ? namedDefault(sources.limitRanges, resource, quantity) : undefined;
        origins.push({ container: container.name, resource, quantity, from: 'limitRange', evidence: 'limitRangerAnnotation', ...(limitRange ? { limitRange } : {}) });
        continue;
      }
      const copied = copiedFromLimit(pod, container, resource, sources);
      if (copied) origins.push({ container: container.name, resource, quantity, from: 'limits', ...copied });
    }
  }
  return origins;
}

function limitRangerDefaults(annotation: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!annotation) return out;
  const body = annotation.replace(/^LimitRanger plugin set:\s*/, '');
  for (const clause of body.split(';')) {
    const match = /^\s*(.+?)\s+request for (?:init )?container\s+(\S+)\s*$/.exec(clause);
    if (!match?.[1] || !match[2]) continue;
    for (const resource of match[1].split(',')) out.add(`${match[2]}/${resource.trim()}`);
  }
  return out;
}

/**
 * The default request a Container item of a LimitRange gives `resource`, after the LimitRange's
 * own defaulting (SetDefaults_LimitRangeItem: defaultRequest, else default, else max, else min).
 */
export function defaultRequestOf(item: LimitRangeItem, resource: string): string | undefined {
  const value = item.defaultRequest?.[resource] ?? defaultLimitOf(item, resource) ?? item.min?.[resource];
  return value === undefined ? undefined : String(value);
}

/** The default limit of a Container item (`default`, else `max`, as SetDefaults_LimitRangeItem fills it). */
export function defaultLimitOf(item: LimitRangeItem, resource: string): string | undefined {
  // Objects keep their API shape: the field is `default` (client-node's type calls it `_default`).
  const written = (item as { default?: Record<string, string> }).default ?? item._default;
  const value = written?.[resource] ?? item.max?.[resource];
  return value === undefined ? undefined : String(value);
}

type LimitRangeItem = NonNullable<V1LimitRange['spec']>['limits'][number];

// The LimitRange whose default equals the request (LimitRanger applies each in turn; the first
// to set a value wins, so a match by amount names the one that did).
function namedDefault(limitRanges: readonly V1LimitRange[], resource: string, quantity: string): RequestOrigin['limitRange'] {
  const wanted = amount(resource, quantity);
  for (const lr of limitRanges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item.type !== 'Container') continue;
      const value = defaultRequestOf(item, resource);
      if (value !== undefined && wanted !== undefined && amount(resource, value) === wanted) return { name: lr.metadata?.name ?? '', defaultRequest: value };
    }
  }
  return undefined;
}

function amount(resource: string, quantity: string): bigint | undefined {
  try {
    return toResourceList({ [resource]: quantity })[resource];
  } catch {
    return undefined;
  }
}

type Proof = Pick<RequestOrigin, 'evidence' | 'source'>;

function copiedFromLimit(pod: V1Pod, container: V1Container, resource: string, sources: OriginSources | undefined): Proof | undefined {
  const request = container.resources?.requests?.[resource];
  const limit = container.resources?.limits?.[resource];
  if (limit === undefined) return undefined;
  if (request === undefined) return { evidence: 'podSpec' };
  if (String(request) !== String(limit)) return undefined;
  const managed = pod.metadata?.managedFields;
  if (managed && managed.length > 0) return managed.some((entry) => writesRequest(entry, container.name, resource)) ? undefined : { evidence: 'managedFields' };
  if (!sources) return undefined;
  const fromTemplate = verdictOf(sources.templates, container.name, resource);
  if (fromTemplate !== undefined) return fromTemplate ? { evidence: 'ownerTemplate', source: fromTemplate } : undefined;
  const fromApplied = verdictOf(sources.lastApplied, container.name, resource);
  if (fromApplied) return { evidence: 'lastApplied', source: fromApplied };
  return undefined;
}

/**
 * The nearest spec that holds the container decides: a request written there means the user
 * wrote it (false); a limit without request means the API copied it, and the source named is
 * the farthest owner in an unbroken run that agrees (the Deployment rather than its
 * ReplicaSet: what the user edits). Undefined: no spec says either.
 */
function verdictOf(specs: readonly WrittenSpec[], containerName: string, resource: string): WrittenSpec['object'] | false | undefined {
  let named: WrittenSpec['object'] | undefined;
  for (const spec of specs) {
    const written = containerIn(spec, containerName);
    if (!written) {
      if (named) break;
      continue;
    }
    const resources = written.resources ?? {};
    const setsRequest = resources.requests?.[resource] !== undefined;
    const setsLimit = resources.limits?.[resource] !== undefined;
    if (setsRequest || !setsLimit) {
      if (named) break;
      return setsRequest ? false : undefined;
    }
    named = spec.object;
  }
  return named;
}

function writesRequest(entry: V1ManagedFieldsEntry, containerName: string, resource: string): boolean {
  const fields = entry.fieldsV1 as Record<string, unknown> | undefined;
  const spec = fields?.['f:spec'] as Record<string, unknown> | undefined;
  if (!spec) return false;
  for (const listKey of ['f:containers', 'f:initContainers']) {
    const list = spec[listKey] as Record<string, unknown> | undefined;
    const item = list?.[`k:{"name":"${containerName}"}`] as Record<string, unknown> | undefined;
    const resources = item?.['f:resources'] as Record<string, unknown> | undefined;
    const requests = resources?.['f:requests'] as Record<string, unknown> | undefined;
    if (requests && Object.hasOwn(requests, `f:${resource}`)) return true;
  }
  return false;
}
