// The arithmetic of an admission refusal: what each pod asks (from the owner's pod template,
// computed as admission computes it), against a ResourceQuota's used and hard, or a
// LimitRange's min, max and ratio; the FailedCreate text says which plugin refused and which
// resources, the objects in the snapshot give the numbers as they are now.
import type { V1Container, V1LimitRange, V1Pod, V1PodSpec, V1ResourceQuota } from '@kubernetes/client-node';
import { isOwnerKind, type ClusterEvent, type Snapshot } from '../../snapshot/types.js';
import { withoutAggregation, type ObjectRef } from '../events.js';
import { findOwner } from '../owners.js';
import { QuantityError } from '../quantity/index.js';
import { toResourceList, type ResourceList } from '../resources/amounts.js';
import { defaultLimitOf, defaultRequestOf } from '../resources/origins.js';
import { podSpecOf } from '../resources/originSources.js';
import { podRequests } from '../resources/requests.js';
import { parseLimitRangeRefusals, parseQuotaRefusal, type LimitRangeRefusal } from './admissionMessages.js';

/**
 * One resource of a quota that refused the pod. Amounts are in the scheduler's units of the
 * resource the quota counts (`requests.cpu` in millicores, `pods` a count).
 * `neverAdmitted`: one pod asks more than hard, so no replica can ever be admitted;
 * `fullNow`: used + asks > hard, a pod fits once usage drops; `roomNow`: the quota as read
 * has room (the refusal is older than the current usage).
 */
export interface QuotaArithmetic {
  quota: string;
  resource: string;
  asks: bigint;
  used: bigint;
  hard: bigint;
  /** `template`: computed from the owner's pod template; `event`: as the refusal printed it. */
  asksFrom: 'template' | 'event';
  /** `quota`: the ResourceQuota's status as read; `event`: as the refusal printed it. */
  usedFrom: 'quota' | 'event';
  verdict: 'neverAdmitted' | 'fullNow' | 'roomNow';
}

/** A LimitRange bound the pod breaks, with the LimitRange and the container when found. */
export interface LimitRangeBreach extends LimitRangeRefusal {
  limitRange?: string;
  container?: string;
}

export interface AdmissionStory {
  /** The owner whose pod template says what each pod asks; absent when it was not read. */
  template?: { kind: string; name: string };
  quota: QuotaArithmetic[];
  limitRange: LimitRangeBreach[];
}

/** Amount of `quantity` in the scheduler's units of the resource a quota or LimitRange names. */
function amountOf(resource: string, quantity: string | undefined): bigint | undefined {
  if (quantity === undefined) return undefined;
  const base = resource.replace(/^(requests|limits)\./, '');
  try {
    return toResourceList({ [base]: quantity })[base];
  } catch {
    return undefined;
  }
}

export function admissionStory(snapshot: Snapshot, owner: ObjectRef, failures: readonly ClusterEvent[]): AdmissionStory {
  const ownerObject = isOwnerKind(owner.kind) ? findOwner(snapshot, owner.kind, owner.namespace, owner.name) : undefined;
  const spec = ownerObject ? podSpecOf(owner.kind, ownerObject) : undefined;
  const limitRanges = snapshot.objects.limitRanges.filter((lr) => (lr.metadata?.namespace ?? 'default') === owner.namespace);
  const admitted = spec ? asAdmitted(spec, limitRanges) : undefined;
  const messages = failures.map((f) => withoutAggregation(f.message)).reverse();
  const story: AdmissionStory = { ...(admitted ? { template: { kind: owner.kind, name: owner.name } } : {}), quota: [], limitRange: [] };
  const quotaMessage = messages.map(parseQuotaRefusal).find((q) => q !== undefined);
  if (quotaMessage) {
    const object = snapshot.objects.resourceQuotas.find((q) => q.metadata?.name === quotaMessage.quota && (q.metadata?.namespace ?? 'default') === owner.namespace);
    story.quota = quotaArithmetic(quotaMessage, object, admitted ? quotaUsage(admitted) : undefined);
  }
  const limitMessage = messages.map(parseLimitRangeRefusals).find((l) => l.length > 0) ?? [];
  story.limitRange = limitMessage.map((refusal) => locate(refusal, limitRanges, admitted));
  return story;
}

function quotaArithmetic(refusal: NonNullable<ReturnType<typeof parseQuotaRefusal>>, object: V1ResourceQuota | undefined, usage: ((resource: string) => bigint | undefined) | undefined): QuotaArithmetic[] {
  const out: QuotaArithmetic[] = [];
  for (const [resource, limited] of Object.entries(refusal.limited)) {
    const fromTemplate = usage?.(resource);
    const asks = fromTemplate ?? amountOf(resource, refusal.requested[resource]);
    const hardText = object?.status?.hard?.[resource] ?? object?.spec?.hard?.[resource];
    const hard = amountOf(resource, hardText !== undefined ? String(hardText) : limited);
    const usedText = object?.status?.used?.[resource];
    const used = usedText !== undefined ? amountOf(resource, String(usedText)) : amountOf(resource, refusal.used[resource] ?? '0');
    if (asks === undefined || hard === undefined || used === undefined) continue;
    const verdict = asks > hard ? 'neverAdmitted' : used + asks > hard ? 'fullNow' : 'roomNow';
    out.push({ quota: refusal.quota, resource, asks, used, hard, asksFrom: fromTemplate !== undefined ? 'template' : 'event', usedFrom: usedText !== undefined ? 'quota' : 'event', verdict });
  }
  return out;
}

/**
 * The template as admission sees it: API defaulting first copies each container's limits into
 * missing requests (SetDefaults_Pod), then LimitRanger fills what is still missing from the
 * namespace's Container defaults (default for limits, defaultRequest for requests).
 */
export function asAdmitted(spec: V1PodSpec, limitRanges: readonly V1LimitRange[]): V1Pod {
  const items = limitRanges.flatMap((lr) => (lr.spec?.limits ?? []).filter((item) => item.type === 'Container'));
  const admit = (container: V1Container): V1Container => {
    const limits: Record<string, string> = Object.fromEntries(Object.entries(container.resources?.limits ?? {}).map(([k, v]) => [k, String(v)]));
    const requests: Record<string, string> = { ...limits, ...Object.fromEntries(Object.entries(container.resources?.requests ?? {}).map(([k, v]) => [k, String(v)])) };
    for (const item of items) {
      for (const resource of Object.keys({ ...item.defaultRequest, ...(item as { default?: object }).default, ...item.max, ...item.min })) {
        const limit = defaultLimitOf(item, resource);
        if (limit !== undefined) limits[resource] ??= limit;
        const request = defaultRequestOf(item, resource);
        if (request !== undefined) requests[resource] ??= request;
      }
    }
    return { ...container, resources: { requests, limits } };
  };
  return { spec: { ...spec, containers: (spec.containers ?? []).map(admit), ...(spec.initContainers ? { initContainers: spec.initContainers.map(admit) } : {}) } };
}

/** What one pod counts toward each quota resource (pkg/quota/v1/evaluator/core/pods.go PodUsageFunc). */
function quotaUsage(pod: V1Pod): ((resource: string) => bigint | undefined) | undefined {
  let requests: ResourceList;
  let limits: ResourceList;
  try {
    requests = podRequests(pod).total;
    limits = podLimits(pod);
  } catch (error) {
    // A template quantity that does not parse (the API would refuse it too): the refusal's own
    // numbers still tell the story.
    if (error instanceof QuantityError) return undefined;
    throw error;
  }
  return (resource) => {
    if (resource === 'pods' || resource === 'count/pods') return 1n;
    if (resource.startsWith('limits.')) return limits[resource.slice('limits.'.length)] ?? 0n;
    if (resource.startsWith('requests.')) return requests[resource.slice('requests.'.length)] ?? 0n;
    if (['cpu', 'memory', 'ephemeral-storage'].includes(resource)) return requests[resource] ?? 0n;
    return undefined;
  };
}

// PodLimits has the shape of PodRequests over limits: the same sums and init-container peak.
function podLimits(pod: V1Pod): ResourceList {
  const asRequests = (c: V1Container): V1Container => ({ ...c, resources: { requests: c.resources?.limits ?? {} } });
  const spec = pod.spec;
  if (!spec) return {};
  return podRequests({ spec: { ...spec, containers: spec.containers.map(asRequests), ...(spec.initContainers ? { initContainers: spec.initContainers.map(asRequests) } : {}) } }).total;
}

// The LimitRange item whose bound has the printed value, and the container whose value broke it.
function locate(refusal: LimitRangeRefusal, limitRanges: readonly V1LimitRange[], admitted: V1Pod | undefined): LimitRangeBreach {
  const allowed = amountOf(refusal.resource, refusal.allowed);
  const limitRange = limitRanges.find((lr) =>
    (lr.spec?.limits ?? []).some((item) => {
      if (item.type !== refusal.scope) return false;
      const bound = refusal.bound === 'max' ? item.max : refusal.bound === 'min' ? item.min : item.maxLimitRequestRatio;
      const value = bound?.[refusal.resource];
      return value !== undefined && (refusal.bound === 'maxLimitRequestRatio' ? String(value) === refusal.allowed : amountOf(refusal.resource, String(value)) === allowed);
    }),
  );
  const container = refusal.scope === 'Container' && admitted ? breakingContainer(refusal, admitted) : undefined;
  return { ...refusal, ...(limitRange?.metadata?.name ? { limitRange: limitRange.metadata.name } : {}), ...(container ? { container } : {}) };
}

function breakingContainer(refusal: LimitRangeRefusal, pod: V1Pod): string | undefined {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const value = (c: V1Container, field: 'limits' | 'requests') => amountOf(refusal.resource, c.resources?.[field]?.[refusal.resource] as string | undefined);
  const found = containers.find((c) => {
    if (refusal.field === 'ratio') {
      const limit = value(c, 'limits');
      const request = value(c, 'requests');
      return limit !== undefined && request !== undefined && request > 0n && Math.abs(Number(limit) / Number(request) - Number(refusal.actual)) < 1e-6;
    }
    return value(c, refusal.field === 'limit' ? 'limits' : 'requests') === amountOf(refusal.resource, refusal.actual);
  });
  return found?.name;
}
