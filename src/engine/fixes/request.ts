// Lower a request to the largest free slot among nodes that fail on resources alone. The
// scheduler compares the pod's effective request (containers plus sidecars, or the largest
// init container with the sidecars before it, pod-level requests, plus overhead:
// resources/requests.ts), so the change goes to the part that dominates that sum, and the sum
// is computed again after each change until it fits the slot (or nothing can be lowered).
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { Reason } from '../reasons.js';
import type { InsufficientResourceDetail } from '../rules/NodeResourcesFit.js';
import { toResourceList } from '../resources/amounts.js';
import { requestRulesFor } from '../release.js';
import { newestRequestRules, podRequests, type RequestRules } from '../resources/requests.js';
import { failingOnlyOn, failures } from './nodes.js';
import { podWith } from './patch.js';
import type { Candidate, Change, FixInput, RequestPlace } from './types.js';
import { byText } from '../order.js';

/** Requests a person can lower in the pod spec; pods, storage and extended resources are not proposed. */
const adjustable = new Set(['cpu', 'memory']);

type SetRequest = Extract<Change, { kind: 'setRequest' }>;

function ownRequest(container: V1Container, resource: string): bigint {
  const requests = toResourceList(container.resources?.requests);
  return requests[resource] ?? toResourceList(container.resources?.limits)[resource] ?? 0n;
}

function largest(containers: readonly V1Container[], resource: string): { container: V1Container; amount: bigint } | undefined {
  let best: { container: V1Container; amount: bigint } | undefined;
  for (const container of containers) {
    const amount = ownRequest(container, resource);
    if (amount > 0n && (!best || amount > best.amount)) best = { container, amount };
  }
  return best;
}

// The one request whose lowering lowers the effective request: pod-level when set; else the
// regular containers and sidecars, or the ordinary init containers when their peak is larger.
function dominantChange(pod: V1Pod, resource: string, cut: bigint, rules: RequestRules): SetRequest | undefined {
  const parts = podRequests(pod, rules).parts;
  const make = (place: RequestPlace, from: bigint): SetRequest | undefined =>
    from - cut > 0n ? { kind: 'setRequest', cause: 'NodeResourcesFit', place, resource, from, to: from - cut } : undefined;
  const podLevel = parts.podLevel[resource];
  if (podLevel !== undefined) return make({ in: 'pod' }, podLevel);
  const running = (parts.containers[resource] ?? 0n) + (parts.sidecars[resource] ?? 0n);
  const spec = pod.spec;
  if (running >= (parts.initPeak[resource] ?? 0n)) {
    const regular = largest(spec?.containers ?? [], resource);
    const sidecar = largest((spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), resource);
    if (sidecar && (!regular || sidecar.amount > regular.amount)) return make({ in: 'initContainers', container: sidecar.container.name }, sidecar.amount);
    return regular ? make({ in: 'containers', container: regular.container.name }, regular.amount) : undefined;
  }
  const init = largest((spec?.initContainers ?? []).filter((c) => c.restartPolicy !== 'Always'), resource);
  return init ? make({ in: 'initContainers', container: init.container.name }, init.amount) : undefined;
}

/**
 * The share of the request that must go, in millionths, floored. In floating point while the
 * request is at most 1e9 (millicores always are): the short amount is below it, so the quotient
 * is below 1e6 and at least 1/request from the next integer, far above its rounding error.
 * Bigint beyond (memory in bytes), where a double would round.
 */
export function cutOf(short: bigint, requested: bigint): number {
  if (requested <= 1_000_000_000n) return Math.floor((Number(short) * 1e6) / Number(requested));
  return Number((short * 1_000_000n) / requested);
}

function samePlace(a: RequestPlace, b: RequestPlace): boolean {
  return a.in === b.in && (a.in === 'pod' || (b.in !== 'pod' && a.container === b.container));
}

/** The request changes that bring the pod's effective request of each resource down to `slot`, counted by `rules` (the cluster's release). */
export function requestChanges(pod: V1Pod, slot: Record<string, bigint>, rules: RequestRules = newestRequestRules): SetRequest[] | undefined {
  const changes: SetRequest[] = [];
  let current = pod;
  for (const [resource, target] of Object.entries(slot)) {
    for (let step = 0; ; step++) {
      const total = podRequests(current, rules).total[resource] ?? 0n;
      if (total <= target) break;
      const change = step < 4 ? dominantChange(current, resource, total - target, rules) : undefined;
      if (!change) return undefined;
      current = podWith(current, [change]);
      const earlier = changes.findIndex((c) => c.resource === resource && samePlace(c.place, change.place));
      if (earlier === -1) changes.push(change);
      else changes[earlier] = { ...change, from: changes[earlier]?.from ?? change.from };
    }
  }
  return changes;
}

/** How much of the request would go on the node, relative to the request (NaN when it cannot fit by lowering cpu or memory). */
function cutOn(reasons: readonly Reason[]): number {
  let cut = 0;
  let short = 0;
  for (const { detail } of reasons) {
    if (detail.kind !== 'insufficientResource') continue;
    // A node with nothing else on it offers its whole allocatable, and a request above a node's
    // whole allocatable asks for another size of node: a cut to fit either is not advice (the
    // note that the request exceeds every node says what is).
    if (!adjustable.has(detail.resource) || detail.free <= 0n || detail.free >= detail.allocatable || detail.exceedsAllocatable) return Number.NaN;
    short++;
    cut += cutOf(detail.short, detail.requested);
  }
  return short === 0 ? Number.NaN : cut;
}

/**
 * Whether a request cut sized to this node would free it: every shortfall is of cpu or memory,
 * with room left on a node that could hold the pod. A node failing otherwise (a request above
 * its allocatable, no room at all, pods or an extended resource short) is freed by a cut only
 * when the cut is sized to another node of the same candidate, which is then cuttable itself.
 */
export function cuttable(reasons: readonly Reason[]): boolean {
  return !Number.isNaN(cutOn(reasons));
}

/** The free amounts a node offers (its slot), in its reasons' order. */
function slotOf(reasons: readonly Reason[]): InsufficientResourceDetail[] {
  return reasons.map((r) => r.detail).filter((d): d is InsufficientResourceDetail => d.kind === 'insufficientResource');
}

/** Whether two nodes offer the same slot: walked in step, nothing allocated (4,500 nodes). */
function sameSlot(a: readonly Reason[], b: readonly Reason[]): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && a[i]?.detail.kind !== 'insufficientResource') i++;
    while (j < b.length && b[j]?.detail.kind !== 'insufficientResource') j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    const x = a[i]?.detail as InsufficientResourceDetail;
    const y = b[j]?.detail as InsufficientResourceDetail;
    if (x.resource !== y.resource || x.free !== y.free) return false;
    i++;
    j++;
  }
}

export function proposeRequests({ ctx, judgement }: FixInput): Candidate[] {
  if (!failures(judgement).plugins.has('NodeResourcesFit')) return [];
  const nodes = failingOnlyOn(judgement, 'NodeResourcesFit');
  // The node with the smallest cut (the largest slot), the first by name on a tie: one pass for
  // the cut, not a sort of 4,500 nodes. Nodes of equal cut most often offer the same slot (the
  // same free amounts): then any of them gives the same change, and their names are not compared.
  const cuts = nodes.map((node) => cutOn(node.reasons));
  let least = Number.POSITIVE_INFINITY;
  for (const cut of cuts) if (cut < least) least = cut;
  const tied = nodes.filter((_, i) => cuts[i] === least);
  const first = tied[0];
  if (!first) return [];
  const best = tied.every((node) => sameSlot(node.reasons, first.reasons)) ? first : tied.reduce((a, b) => (byText(b.name, a.name) < 0 ? b : a));
  const slot = Object.fromEntries(slotOf(best.reasons).map((d) => [d.resource, d.free]));
  const changes = requestChanges(ctx.pod.pod, slot, requestRulesFor(ctx.snapshot));
  if (!changes || changes.length === 0) return [];
  return [{ changes, nodes: nodes.map((n) => n.name) }];
}
