// Applies changes to a copy of the rule context: the pod's spec for what the pod (or its
// template) would say, node objects for labels and cordons, the bound pods for preemption.
// The copy is built the way buildContext builds the original, so the replay reads it exactly
// as the diagnosis read the cluster.
import type { ResourceV1ResourceClaim, V1Container, V1Pod } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';
import { nodeFacts, podFacts, podKey } from '../facts.js';
import { cordonTaint } from '../match/tolerations.js';
import { positionsIn, samePositions } from '../judge.js';
import type { NodeFacts, RuleContext } from '../model.js';
import { formatMilli, formatResource } from '../quantity/index.js';
import { requestRulesFor } from '../release.js';
import type { RequestRules } from '../resources/requests.js';
import type { Change } from './types.js';
import { sameLowestPriority } from './lowestPriority.js';


function containerOf(pod: V1Pod, list: 'containers' | 'initContainers', name: string): V1Container | undefined {
  return (pod.spec?.[list] ?? []).find((c) => c.name === name);
}

function patchPod(pod: V1Pod, change: Change): void {
  const spec = (pod.spec ??= { containers: [] });
  switch (change.kind) {
    case 'tolerateTaint': {
      const tolerations = (spec.tolerations ??= []);
      if (change.replaces) tolerations[change.replaces.index] = change.toleration;
      else tolerations.push(change.toleration);
      return;
    }
    case 'setRequest': {
      const quantity = formatResource(change.resource, change.to);
      if (change.place.in === 'pod') {
        const resources = (spec.resources ??= {});
        resources.requests = { ...resources.requests, [change.resource]: quantity };
        return;
      }
      const container = containerOf(pod, change.place.in, change.place.container);
      if (!container) return;
      const resources = (container.resources ??= {});
      resources.requests = { ...resources.requests, [change.resource]: quantity };
      return;
    }
    case 'setNodeSelector': {
      const selector = { ...spec.nodeSelector };
      delete selector[change.from.key];
      selector[change.to.key] = change.to.value;
      spec.nodeSelector = selector;
      return;
    }
    case 'setAffinityExpression': {
      const expressions = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[change.term]?.matchExpressions;
      if (expressions && expressions[change.expression]) expressions[change.expression] = change.to;
      return;
    }
    case 'honorTaintsInSpread':
      spec.topologySpreadConstraints = change.after.map((c) => ({ ...c }));
      return;
    case 'removeAffinityExpressions': {
      const term = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[change.term];
      if (!term) return;
      const drop = new Set(change.expressions.map((e) => e.index));
      term.matchExpressions = (term.matchExpressions ?? []).filter((_, index) => !drop.has(index));
      return;
    }
    default:
      return;
  }
}

/**
 * Patches a copy of the node (see nodeCopy) when `change` touches it (`touches`: the nodes it
 * names, as a set: a labelling may name 4,000). It replaces, never changes, what it edits.
 */
function patchNode(node: NodeRecord, change: Change, touches: ReadonlySet<string>): void {
  if (!touches.has(node.metadata?.name ?? '')) return;
  switch (change.kind) {
    case 'labelNodes': {
      const metadata = (node.metadata ??= {});
      // One spread then assign, indexed: this runs for each of 4,000 labelled nodes, mostly in
      // code V8 has not compiled yet (a second spread in one literal is a generic copy there).
      const labels = Object.assign({ ...metadata.labels }, change.set);
      for (let i = 0; i < change.remove.length; i++) delete labels[change.remove[i] as string];
      metadata.labels = labels;
      return;
    }
    case 'uncordon': {
      // `kubectl uncordon` clears spec.unschedulable; the node lifecycle controller then removes
      // the taint it keeps in step with it (TaintNodesByCondition).
      const spec = (node.spec ??= {});
      spec.unschedulable = false;
      spec.taints = (spec.taints ?? []).filter((t) => !(t.key === cordonTaint.key && t.effect === cordonTaint.effect));
      return;
    }
    default:
      return;
  }
}

const podChanges = new Set<Change['kind']>(['tolerateTaint', 'setRequest', 'setNodeSelector', 'setAffinityExpression', 'removeAffinityExpressions', 'honorTaintsInSpread']);

export function editsPodSpec(change: Change): boolean {
  return podChanges.has(change.kind);
}

/**
 * A copy of the node that patchNode may edit: the node and its metadata copied, its spec too
 * when a change edits it (an uncordon), the rest shared (patchNode puts new labels and taints
 * in place; it never edits the old ones). A deep copy of 4,000 labelled nodes, status and all,
 * was most of a replay's cost.
 */
function nodeCopy(node: NodeRecord, withSpec: boolean): NodeRecord {
  // One spread per object: what V8 copies fastest before it has compiled this.
  const copy = { ...node };
  if (node.metadata) copy.metadata = { ...node.metadata };
  if (withSpec && node.spec) copy.spec = { ...node.spec };
  return copy;
}

function nodesTouched(change: Change): string[] {
  if (change.kind === 'labelNodes') return change.nodes;
  if (change.kind === 'uncordon') return [change.node];
  return [];
}

/**
 * A copy of `pod` with the changes to its spec made (the same object when there are none). Only
 * the spec is copied deep, the only part a change edits: a pod as served carries kilobytes of
 * managedFields, and a request cut copies the pod once per step.
 */
export function podWith(pod: V1Pod, changes: readonly Change[]): V1Pod {
  if (!changes.some(editsPodSpec)) return pod;
  const copy: V1Pod = pod.spec ? { ...pod, spec: structuredClone(pod.spec) } : { ...pod };
  for (const change of changes) patchPod(copy, change);
  return copy;
}

/**
 * `pods` with the target replaced by its patched self (the same list when it is unchanged: lists
 * are never edited). The target is found by identity first (the context's pod is the snapshot's
 * object), by key only when that fails: comparing keys of 50,000 pods in every replay is most of
 * a replay's cost.
 */
function withTarget(pods: V1Pod[], target: V1Pod, targetKey: string, patched: V1Pod): V1Pod[] {
  if (patched === target) return pods;
  const at = pods.indexOf(target);
  if (at >= 0) {
    const out = [...pods];
    out[at] = patched;
    return out;
  }
  return pods.map((p) => (podKey(p) === targetKey ? patched : p));
}

interface NodeChanges {
  /** Each change that edits nodes, with the names of the nodes it edits. */
  touchedBy: { change: Change; touches: ReadonlySet<string> }[];
  /** Every node some change edits. */
  touched: ReadonlySet<string>;
  /** Whether a change edits node specs (an uncordon) rather than only labels. */
  specs: boolean;
  /** The pods preemption would remove, by key. */
  removed: ReadonlySet<string>;
  /** The nodes whose facts change: those edited, and those preemption removes pods from. */
  affected: ReadonlySet<string>;
}

function nodeChangesOf(changes: readonly Change[]): NodeChanges {
  const touchedBy = changes.map((change) => ({ change, touches: new Set(nodesTouched(change)) })).filter(({ touches }) => touches.size > 0);
  // One change (the common case: a labelling of 4,000 nodes) is its own set of names.
  const touched = touchedBy.length === 1 && touchedBy[0] ? touchedBy[0].touches : new Set(touchedBy.flatMap(({ touches }) => [...touches]));
  const preempted = changes.flatMap((c) => (c.kind === 'preempt' ? [c.node] : []));
  return {
    touchedBy,
    touched,
    specs: changes.some((c) => c.kind === 'uncordon'),
    // Preemption's victims are pods of the node it names (preemption.ts).
    removed: new Set(changes.flatMap((c) => (c.kind === 'preempt' ? c.victims.map((v) => `${v.namespace}/${v.name}`) : []))),
    affected: preempted.length === 0 ? touched : new Set([...touched, ...preempted]),
  };
}

/** A node's facts, and its object, as the changes leave them (the same objects when they leave it alone). */
function patchedNode(facts: NodeFacts, edits: NodeChanges, rules: RequestRules): NodeFacts {
  const touched = edits.touched.has(facts.name);
  const loses = edits.removed.size > 0 && facts.pods.some((p) => edits.removed.has(podKey(p)));
  if (!touched && !loses) return facts;
  let node = facts.node;
  if (touched) {
    node = nodeCopy(facts.node, edits.specs);
    for (let i = 0; i < edits.touchedBy.length; i++) {
      const { change, touches } = edits.touchedBy[i] as NodeChanges['touchedBy'][number];
      patchNode(node, change, touches);
    }
  }
  // Labels and cordons change neither the node's pods nor its allocatable: the facts summed
  // from them stay.
  if (!loses) return { ...facts, node, labels: node.metadata?.labels ?? {} };
  return nodeFacts(node, facts.pods.filter((p) => !edits.removed.has(podKey(p))), undefined, rules);
}

/**
 * The node objects and their facts with the changes made, in one pass: the facts are built from
 * the objects one for one, in order (buildContext, and this function for a patched context),
 * so the two lists are walked together. The patched facts keep the names in their places, so
 * they share the original's index of names.
 */
function patchedNodes(ctx: RuleContext, edits: NodeChanges): { objects: NodeRecord[]; facts: NodeFacts[] } {
  const objects = ctx.snapshot.objects.nodes;
  if (objects.length !== ctx.nodes.length) throw new Error('node facts out of step with the node objects');
  // The lists copied as they are, then the affected nodes put in place by the index of names:
  // a toleration-and-label fix for 500 tainted nodes does not walk the other 4,500.
  const at = positionsIn(ctx.nodes);
  const rules = requestRulesFor(ctx.snapshot);
  const outObjects: NodeRecord[] = objects.slice();
  const outFacts: NodeFacts[] = ctx.nodes.slice();
  const patch = (i: number) => {
    const facts = ctx.nodes[i] as NodeFacts;
    if (facts.node !== objects[i]) throw new Error('node facts out of step with the node objects');
    const patched = patchedNode(facts, edits, rules);
    outFacts[i] = patched;
    outObjects[i] = patched.node;
  };
  if (at) {
    edits.affected.forEach((name) => {
      const i = at.get(name);
      if (i !== undefined) patch(i);
    });
  } else for (let i = 0; i < objects.length; i++) patch(i); // a name repeated: every node, as each may be it
  samePositions(ctx.nodes, outFacts);
  if (edits.removed.size === 0) sameLowestPriority(ctx.nodes, outFacts);
  return { objects: outObjects, facts: outFacts };
}

/** `claims` with the device tolerations of the changes made (the same list when there are none). */
function claimsWith(claims: readonly ResourceV1ResourceClaim[], changes: readonly Change[]): ResourceV1ResourceClaim[] {
  const edits = changes.filter((c) => c.kind === 'tolerateDeviceTaint' || c.kind === 'setDeviceCapacity');
  if (edits.length === 0) return claims as ResourceV1ResourceClaim[];
  return claims.map((claim) => {
    const key = `${claim.metadata?.namespace ?? 'default'}/${claim.metadata?.name ?? ''}`;
    const mine = edits.filter((e) => e.claim === key);
    if (mine.length === 0) return claim;
    const copy = structuredClone(claim);
    for (const edit of mine) {
      const [name, sub] = edit.request.split('/');
      const request = copy.spec?.devices?.requests?.find((r) => r.name === name);
      const exact = sub === undefined ? request?.exactly : request?.firstAvailable?.find((s) => s.name === sub);
      if (!exact) continue;
      if (edit.kind === 'setDeviceCapacity') {
        const capacity = (exact.capacity ??= {});
        capacity.requests = { ...capacity.requests, [edit.capacity]: formatMilli(edit.to) };
        continue;
      }
      const tolerations = (exact.tolerations ??= []);
      if (edit.replaces) tolerations[edit.replaces.index] = edit.toleration;
      else tolerations.push(edit.toleration);
    }
    return copy;
  });
}

/** The rule context as it would be with `changes` made; the original is left untouched. */
export function patchedContext(ctx: RuleContext, changes: readonly Change[]): RuleContext {
  const pod = podWith(ctx.pod.pod, changes);
  const edits = nodeChangesOf(changes);
  const targetKey = podKey(ctx.pod.pod);
  const objects = ctx.snapshot.objects;
  // Untouched, the lists are the same objects: 5,000 nodes are not copied for a pod-side change.
  const nodes = edits.touched.size > 0 || edits.removed.size > 0 ? patchedNodes(ctx, edits) : { objects: objects.nodes, facts: ctx.nodes };
  const patchedObjects = { ...objects, resourceClaims: claimsWith(objects.resourceClaims, changes), nodes: nodes.objects };
  // The cluster's pods with the changes made, listed when first read: no filter reads that list in
  // a replay (each node's pods are in its facts), and a copy of 100,000 in each of a dozen
  // replays was 5 ms of a first diagnosis. Made once, then kept.
  let pods: V1Pod[] | undefined;
  Object.defineProperty(patchedObjects, 'pods', {
    enumerable: true,
    get: () => (pods ??= withTarget(edits.removed.size > 0 ? objects.pods.filter((p) => !edits.removed.has(podKey(p))) : objects.pods, ctx.pod.pod, targetKey, pod)),
  });
  const snapshot = { ...ctx.snapshot, objects: patchedObjects };
  // A fix changes neither the pod's priority nor the pending pods: the same nominated pods hold their room.
  return { snapshot, pod: pod === ctx.pod.pod ? ctx.pod : podFacts(pod, requestRulesFor(ctx.snapshot)), nodes: nodes.facts, ...(ctx.nominated ? { nominated: ctx.nominated } : {}) };
}
