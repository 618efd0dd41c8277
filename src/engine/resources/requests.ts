// The pod's effective request, as k8s.io/component-helpers/resource.PodRequests (v1.34) computes
// it for NodeResourcesFit:
//   containers + sidecars (restartable init containers), against the largest ordinary init
//   container plus the sidecars started before it; the larger wins, resource by resource;
//   pod-level requests (spec.resources) replace cpu and memory; spec.overhead is added.
// Two of these steps depend on the cluster's release (RequestRules): pod-level requests, and a
// bound pod's resized resources.
import type { V1Container, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { addInto, amountOf, maxOf, smallAmountOf, sum, toResourceList, type ResourceList } from './amounts.js';
import type { RequestOrigin } from './origins.js';

export type { ResourceList } from './amounts.js';

export interface PodRequests {
  /** What the scheduler compares with a node's free allocatable. */
  total: ResourceList;
  /** The pieces, for showing the arithmetic. */
  parts: {
    containers: ResourceList;
    sidecars: ResourceList;
    /** The largest ordinary init container, counted with the sidecars declared before it. */
    initPeak: ResourceList;
    podLevel: ResourceList;
    overhead: ResourceList;
  };
}

/** The request with where its parts came from, as a diagnosis reports it (diagnose.ts). */
export interface PodRequestsWithOrigins extends PodRequests {
  /** Requests that the user did not write: copied from limits or set by a LimitRange. */
  origins: RequestOrigin[];
}

/**
 * What a release's scheduler counts in a request, by its default feature gates (engine/release.ts
 * `requestRulesOf` says which release has which). The newest release's by default.
 */
export interface RequestRules {
  /** PodLevelResources: pod-level `spec.resources` replaces cpu and memory. */
  readonly podLevelResources: boolean;
  /** InPlacePodVerticalScaling: the larger of the spec and the status's allocated or actual resources. */
  readonly statusResources: boolean;
}

export const newestRequestRules: RequestRules = Object.freeze({ podLevelResources: true, statusResources: true });

/** Resources that pod-level `spec.resources` may set (PodLevelResources, v1.34). */
const podLevelResources = ['cpu', 'memory'];

function containerRequests(container: V1Container, status: V1ContainerStatus | undefined, rules: RequestRules): ResourceList {
  // Admission copies limits into missing requests; a manifest read before admission (a
  // hand-written dump) has not had that done yet, so do it here.
  let requests = toResourceList(container.resources?.requests);
  const limits = toResourceList(container.resources?.limits);
  for (const [resource, amount] of Object.entries(limits)) {
    if (requests[resource] === undefined) requests[resource] = amount;
  }
  // During an in-place resize the scheduler counts the larger of what the spec asks and
  // what the kubelet has allocated or applied (InPlacePodVerticalScaling, on by default from v1.33).
  if (!rules.statusResources) return requests;
  if (status?.allocatedResources) requests = maxOf(requests, toResourceList(status.allocatedResources));
  if (status?.resources?.requests) requests = maxOf(requests, toResourceList(status.resources.requests));
  return requests;
}

function statusOf(pod: V1Pod, name: string): V1ContainerStatus | undefined {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  return statuses.find((status) => status.name === name);
}

// Origins are not worked out here: only a diagnosis reports them, once, with the snapshot's
// evidence (owners' templates, LimitRanges); rules and fix replays need the numbers alone.
export function podRequests(pod: V1Pod, rules: RequestRules = newestRequestRules): PodRequests {
  return requestParts(pod, rules);
}

// A node's requested total sums every pod on it, and a diagnosis builds node facts again for
// each fix it replays: each pod's total is worked out once. Pods are never changed once read
// (a fix patches a copy), so the pod object is the key, one cache per release's rules. A pod
// that does not parse is not kept.
const totalsByRules = new WeakMap<RequestRules, WeakMap<V1Pod, ResourceList>>();

/** What the scheduler counts for a pod already on a node: its total, without where it comes from. Not to be changed. */
export function podRequestTotal(pod: V1Pod, rules: RequestRules = newestRequestRules): ResourceList {
  let totals = totalsByRules.get(rules);
  if (!totals) totalsByRules.set(rules, (totals = new WeakMap()));
  let total = totals.get(pod);
  if (!total) {
    total = plainTotal(pod) ?? requestParts(pod, rules).total;
    totals.set(pod, total);
  }
  return total;
}

/**
 * The common pod: containers only (no init containers, pod-level resources or overhead), no
 * resize in progress. Its total is the containers' requests, each missing request taken from
 * its limit, as requestParts works it out.
 */
function isPlain(pod: V1Pod): boolean {
  const spec = pod.spec;
  if (!spec || (spec.initContainers?.length ?? 0) > 0 || spec.resources || spec.overhead) return false;
  for (const statuses of [pod.status?.containerStatuses, pod.status?.initContainerStatuses]) {
    for (const s of statuses ?? []) if (s.allocatedResources || s.resources?.requests) return false;
  }
  return true;
}

/** Calls `add` with each quantity a plain pod's total sums, in requestParts' order. */
function eachPlainQuantity(pod: V1Pod, add: (resource: string, quantity: string | number) => void): void {
  for (const container of pod.spec?.containers ?? []) {
    const requests = container.resources?.requests;
    const limits = container.resources?.limits;
    for (const resource in requests) {
      const quantity = requests[resource];
      if (quantity !== undefined) add(resource, quantity);
    }
    for (const resource in limits) {
      const quantity = limits[resource];
      if (quantity !== undefined && !(requests && Object.hasOwn(requests, resource))) add(resource, quantity);
    }
  }
}

function plainTotal(pod: V1Pod): ResourceList | undefined {
  if (!isPlain(pod)) return undefined;
  const total: ResourceList = {};
  eachPlainQuantity(pod, (resource, quantity) => {
    total[resource] = (total[resource] ?? 0n) + amountOf(resource, quantity);
  });
  return total;
}

/**
 * A sum of podRequestTotal over pods: the scheduler's NodeInfo.Requested. Every node of a
 * snapshot (50,000 pods) is summed, so plain pods are added as exact small integers (every
 * amount and every partial sum a safe integer, else that part goes to bigint) and no pod's
 * total is kept. `add` throws the QuantityError of a pod that does not parse.
 */
export class RequestSum {
  private readonly small = new Map<string, number>();
  private readonly big: ResourceList = {};
  private readonly addQuantity = (resource: string, quantity: string | number): void => {
    const amount = smallAmountOf(resource, quantity);
    const before = this.small.get(resource) ?? 0;
    const after = before + amount;
    if (Number.isSafeInteger(after)) this.small.set(resource, after);
    else {
      this.small.set(resource, 0);
      this.big[resource] = (this.big[resource] ?? 0n) + BigInt(before) + (Number.isSafeInteger(amount) ? BigInt(amount) : amountOf(resource, quantity));
    }
  };

  /** `rules`: the release's arithmetic (a plain pod's total is the same in every release). */
  constructor(private readonly rules: RequestRules = newestRequestRules) {}

  add(pod: V1Pod): void {
    if (isPlain(pod)) eachPlainQuantity(pod, this.addQuantity);
    else for (const [resource, amount] of Object.entries(podRequestTotal(pod, this.rules))) this.big[resource] = (this.big[resource] ?? 0n) + amount;
  }

  total(): ResourceList {
    const total: ResourceList = {};
    for (const [resource, amount] of this.small) total[resource] = BigInt(amount);
    for (const [resource, amount] of Object.entries(this.big)) total[resource] = (total[resource] ?? 0n) + amount;
    return total;
  }
}

function requestParts(pod: V1Pod, rules: RequestRules): PodRequests {
  const spec = pod.spec;
  const requestsOf = (container: V1Container) => containerRequests(container, statusOf(pod, container.name), rules);
  const containers = sum(...(spec?.containers ?? []).map(requestsOf));
  const sidecars: ResourceList = {};
  let initPeak: ResourceList = {};
  for (const init of spec?.initContainers ?? []) {
    const own = requestsOf(init);
    if (init.restartPolicy === 'Always') {
      addInto(sidecars, own);
      // A sidecar keeps running, so it adds to every later init container.
      initPeak = maxOf(initPeak, { ...sidecars });
    } else {
      initPeak = maxOf(initPeak, sum(own, sidecars));
    }
  }
  let total = maxOf(sum(containers, sidecars), initPeak);
  // Before v1.34 (PodLevelResources off by default) the scheduler skips pod-level resources.
  const podLevel = rules.podLevelResources ? podLevelRequests(pod) : {};
  for (const [resource, amount] of Object.entries(podLevel)) total[resource] = amount;
  const overhead = toResourceList(spec?.overhead);
  total = sum(total, overhead);
  return { total, parts: { containers, sidecars, initPeak, podLevel, overhead } };
}

function podLevelRequests(pod: V1Pod): ResourceList {
  const resources = pod.spec?.resources;
  if (!resources) return {};
  // Defaulting copies pod-level limits into missing pod-level requests, as for containers.
  const requests = toResourceList(resources.requests);
  const limits = toResourceList(resources.limits);
  const out: ResourceList = {};
  for (const resource of podLevelResources) {
    const amount = requests[resource] ?? limits[resource];
    if (amount !== undefined) out[resource] = amount;
  }
  return out;
}
