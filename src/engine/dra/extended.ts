// Extended resources backed by DRA (DRAExtendedResource: beta and on by default in v1.36, GA in
// v1.37). A DeviceClass serves the extended resource named in its spec.extendedResourceName,
// and always `deviceclass.resource.kubernetes.io/<class>`. On a node that lists none of that
// resource in allocatable (no device plugin), NodeResourcesFit leaves the name to
// DynamicResources (fit.go shouldDelegateResourceToDRA), which allocates devices of the class
// for it through one claim the scheduler makes for the pod, exactly as it allocates a claim
// (extendeddynamicresources.go filterExtendedResources, createRequestsAndMappings).
import type { ResourceV1ResourceClaim, V1Container, V1DeviceClass, V1DeviceRequest, V1Pod } from '@kubernetes/client-node';
import { parseQuantity, value } from '../quantity/index.js';
import { byText } from '../order.js';
import { readAnnotations } from '../annotations.js';

/** The name of the claim the scheduler keeps in memory until PreBind writes it (specialClaimInMemName). */
export const extendedClaimName = '<extended-resources>';
const implicitPrefix = 'deviceclass.resource.kubernetes.io/';

/**
 * schedutil.IsDRAExtendedResourceName: an extended resource (a domain-prefixed name outside
 * kubernetes.io, v1helper.IsExtendedResourceName) or a class's implicit name.
 */
export function isDraExtendedName(name: string): boolean {
  if (name.startsWith(implicitPrefix)) return true;
  return name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.');
}

/** Whether the pod asks an extended resource a DeviceClass could serve: then the classes, slices and claims may decide. */
export function asksDraExtendedResource(pod: V1Pod): boolean {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].some((c) => Object.entries(c.resources?.requests ?? {}).some(([name, amount]) => isDraExtendedName(name) && count(amount) > 0));
}

const resolvers = new WeakMap<readonly V1DeviceClass[], ReadonlyMap<string, V1DeviceClass>>();

/**
 * The DeviceClass serving each extended resource name (extendedresourcecache): the implicit
 * name of every class, and each explicit name; when classes share an explicit name the newest
 * wins, the lower name on a tie (a migration from one class to another).
 */
export function classesByResource(classes: readonly V1DeviceClass[]): ReadonlyMap<string, V1DeviceClass> {
  const known = resolvers.get(classes);
  if (known) return known;
  const out = new Map<string, V1DeviceClass>();
  const created = (c: V1DeviceClass) => Date.parse(String(c.metadata?.creationTimestamp ?? '')) || 0;
  for (const c of classes) {
    const name = c.metadata?.name ?? '';
    out.set(`${implicitPrefix}${name}`, c);
    const explicit = c.spec?.extendedResourceName;
    if (!explicit) continue;
    const other = out.get(explicit);
    if (other && (created(other) > created(c) || (created(other) === created(c) && byText(other.metadata?.name ?? '', name) <= 0))) continue;
    out.set(explicit, c);
  }
  resolvers.set(classes, out);
  return out;
}

/** The pod's extended resources that some DeviceClass serves, with the class: the same on every node. */
export function servedExtendedResources(pod: V1Pod, classes: readonly V1DeviceClass[]): Map<string, V1DeviceClass> {
  const byResource = classesByResource(classes);
  const out = new Map<string, V1DeviceClass>();
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const [name, amount] of Object.entries(c.resources?.requests ?? {})) {
      const cls = isDraExtendedName(name) ? byResource.get(name) : undefined;
      if (cls && count(amount) > 0) out.set(name, cls);
    }
  }
  return out;
}

/** A container's request as an integer (Quantity.AsInt64); 0 when it is not one. */
function count(amount: unknown): number {
  try {
    const n = value(parseQuantity(String(amount)));
    return n > 0n && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : 0;
  } catch {
    return 0;
  }
}

interface Made {
  request: V1DeviceRequest & { exactly: NonNullable<V1DeviceRequest['exactly']> & { count: number } };
}

/**
 * One container's request for `resource`: what it asks beyond the devices of `reusable`
 * (requests of containers running after it), or none.
 */
function containerRequest(container: V1Container, resource: string, cls: string, reusable: readonly (Made | undefined)[]): Made | undefined {
  const wanted = count(container.resources?.requests?.[resource]);
  if (wanted === 0) return undefined;
  let sum = 0;
  for (const r of reusable) {
    if (!r) continue;
    sum += r.request.exactly.count;
    if (sum >= wanted) return undefined;
  }
  // Named for the reader (upstream names it container-<index>-request-<index>; only its count matters here).
  const name = `${resource} of container ${container.name}`;
  return { request: { name, exactly: { deviceClassName: cls, allocationMode: 'ExactCount', count: wanted - sum } } };
}

/**
 * The claim the scheduler makes on a node for the resources it must allocate through DRA there:
 * per resource, one request per long-lived container (regular containers and sidecars) and the
 * largest of what the plain init containers ask beyond the devices of containers after them.
 */
export function extendedResourceClaim(pod: V1Pod, resources: ReadonlyMap<string, V1DeviceClass>): ResourceV1ResourceClaim {
  const init = pod.spec?.initContainers ?? [];
  const containers = [...init, ...(pod.spec?.containers ?? [])];
  const shortLived = (i: number) => i < init.length && containers[i]?.restartPolicy !== 'Always';
  const requests: Made['request'][] = [];
  for (const resource of [...resources.keys()].sort(byText)) {
    const cls = resources.get(resource)?.metadata?.name ?? '';
    const longLived = containers.map((c, i) => (shortLived(i) ? undefined : containerRequest(c, resource, cls, [])));
    let largest: Made | undefined;
    containers.forEach((c, i) => {
      if (!shortLived(i)) return;
      const made = containerRequest(c, resource, cls, longLived.slice(i));
      if (made && (!largest || largest.request.exactly.count < made.request.exactly.count)) largest = made;
    });
    for (const made of [largest, ...longLived]) if (made) requests.push(made.request);
  }
  return {
    metadata: { name: extendedClaimName, namespace: pod.metadata?.namespace ?? 'default' },
    spec: { devices: { requests } },
  };
}

/**
 * The claim the scheduler wrote for the pod's extended resources in an earlier cycle, when it
 * still has its requests: the cycle failed after it was made, and the scheduler refuses every
 * node until PostFilter has deleted it ("cannot schedule extended resource claim").
 */
export function staleExtendedClaim(pod: V1Pod, claims: readonly ResourceV1ResourceClaim[]): ResourceV1ResourceClaim | undefined {
  const uid = pod.metadata?.uid;
  return claims.find(
    (c) =>
      c.metadata?.annotations?.[readAnnotations.extendedResourceClaim] === 'true' &&
      (c.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === uid && o.name === pod.metadata?.name) &&
      (c.spec?.devices?.requests?.length ?? 0) > 0,
  );
}
