// DynamicResources (dynamicresources/dynamicresources.go, v1.34; DRA is GA and on by default).
// What can be decided from the Pod alone is decided as upstream: each `spec.resourceClaims` entry
// must name its ResourceClaim (resourceclaim.Name): directly, or, for a template, through the
// pod's `status.resourceClaimStatuses`, which the resourceclaim controller fills once it has
// created the claim. Until then the scheduler rejects the pod in PreEnqueue and PreFilter
// (UnschedulableAndUnresolvable): "pod "ns/name": ResourceClaim not created yet". A status entry
// without a claim name means no claim is needed; a pod whose entries all say so is not checked.
//
// Not modelled: everything that needs the ResourceClaim, DeviceClass and ResourceSlice objects,
// which the snapshot does not hold yet: a named claim that does not exist or is being deleted, a
// claim reserved by other pods ("resourceclaim in use"), an allocated claim's node selector, and
// whether this node's devices can satisfy the requests. For a pod that uses claims the rule says
// it does not evaluate the pod (notEvaluated): every node is "not checked" for DynamicResources,
// so a node that passes the rest is `unproven`, never a fit, and never a failure we cannot prove.
import type { V1Pod } from '@kubernetes/client-node';
import type { FilterRule } from '../model.js';

export interface ResolvedResourceClaim {
  /** The `spec.resourceClaims[].name` entry. */
  podClaim: string;
  /** The ResourceClaim object's name. */
  claim: string;
  /** From `resourceClaimTemplateName` (generated for this pod) rather than `resourceClaimName`. */
  template?: string;
}

export type DynamicResourcesDetail =
  | { kind: 'resourceClaimNotCreated'; pod: string; podClaim: string; template: string }
  | { kind: 'resourceClaimSourceMissing'; pod: string; podClaim: string };

type Resolution = { state: 'failed'; detail: DynamicResourcesDetail } | { state: 'resolved'; claims: ResolvedResourceClaim[] };

// foreachPodResourceClaim up to the claim lookup: the first entry that cannot be named fails.
function resolveResourceClaims(pod: V1Pod): Resolution {
  const podName = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
  const statuses = pod.status?.resourceClaimStatuses ?? [];
  const claims: ResolvedResourceClaim[] = [];
  for (const entry of pod.spec?.resourceClaims ?? []) {
    if (entry.resourceClaimName) {
      claims.push({ podClaim: entry.name, claim: entry.resourceClaimName });
      continue;
    }
    const template = entry.resourceClaimTemplateName;
    if (!template) return { state: 'failed', detail: { kind: 'resourceClaimSourceMissing', pod: podName, podClaim: entry.name } };
    const status = statuses.find((s) => s.name === entry.name);
    if (!status) return { state: 'failed', detail: { kind: 'resourceClaimNotCreated', pod: podName, podClaim: entry.name, template } };
    if (status.resourceClaimName) claims.push({ podClaim: entry.name, claim: status.resourceClaimName, template });
  }
  return { state: 'resolved', claims };
}

const rule: FilterRule<'DynamicResources', DynamicResourcesDetail> = {
  meta: { name: 'DynamicResources', kinds: ['resourceClaimNotCreated', 'resourceClaimSourceMissing'] },
  // No snapshot collection holds ResourceClaims or ResourceSlices yet; see the header.
  needs: () => [],
  preFilter({ pod }) {
    const resolution = resolveResourceClaims(pod.pod);
    if (resolution.state === 'resolved') return {};
    return { reasons: [{ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail: resolution.detail }] };
  },
  notEvaluated(pod) {
    const resolution = resolveResourceClaims(pod.pod);
    if (resolution.state !== 'resolved' || resolution.claims.length === 0) return undefined;
    return { kind: 'resourceClaims', claims: resolution.claims };
  },
  filter: () => [],
};

export default rule;
