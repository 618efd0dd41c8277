// Applies changes to a copy of the rule context: the pod's spec for what the pod (or its
// template) would say, node objects for labels and cordons, the bound pods for preemption.
// The copy is built the way buildContext builds the original, so the replay reads it exactly
// as the diagnosis read the cluster.
import type { V1Container, V1Node, V1Pod } from '@kubernetes/client-node';
import { nodeFacts, podFacts, podKey } from '../facts.js';
import { samePositions } from '../judge.js';
import type { NodeFacts, RuleContext } from '../model.js';
import { formatResource } from '../quantity/index.js';
import type { Change } from './types.js';

const unschedulableTaintKey = 'node.kubernetes.io/unschedulable';

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
function patchNode(node: V1Node, change: Change, touches: ReadonlySet<string>): void {
  if (!touches.has(node.metadata?.name ?? '')) return;
  switch (change.kind) {
    case 'labelNodes': {
      const metadata = (node.metadata ??= {});
      const labels = { ...metadata.labels, ...change.set };
      for (const key of change.remove) delete labels[key];
      metadata.labels = labels;
      return;
    }
    case 'uncordon': {
      // `kubectl uncordon` clears spec.unschedulable; the node lifecycle controller then removes
      // the taint it keeps in step with it (TaintNodesByCondition).
      const spec = (node.spec ??= {});
      spec.unschedulable = false;
      spec.taints = (spec.taints ?? []).filter((t) => !(t.key === unschedulableTaintKey && t.effect === 'NoSchedule'));
      return;
    }
    default:
      return;
  }
}

const podChanges = new Set<Change['kind']>(['tolerateTaint', 'setRequest', 'setNodeSelector', 'setAffinityExpression', 'removeAffinityExpressions']);

export function editsPodSpec(change: Change): boolean {
  return podChanges.has(change.kind);
}

/**
 * A copy of the node that patchNode may edit: the node, its metadata and its spec copied, the
 * rest shared (patchNode puts new labels and taints in place; it never edits the old ones). A
 * deep copy of 4,000 labelled nodes, status and all, was most of a replay's cost.
 */
function nodeCopy(node: V1Node): V1Node {
  return { ...node, ...(node.metadata ? { metadata: { ...node.metadata } } : {}), ...(node.spec ? { spec: { ...node.spec } } : {}) };
}

function nodesTouched(change: Change): string[] {
  if (change.kind === 'labelNodes') return change.nodes;
  if (change.kind === 'uncordon') return [change.node];
  return [];
}

/** A copy of `pod` with the changes to its spec made (the same object when there are none). */
export function podWith(pod: V1Pod, changes: readonly Change[]): V1Pod {
  if (!changes.some(editsPodSpec)) return pod;
  const copy = structuredClone(pod);
  for (const change of changes) patchPod(copy, change);
  return copy;
}

/**
 * `pods` with the target replaced by its patched self. The target is found by identity first
 * (the context's pod is the snapshot's object), by key only when that fails: comparing keys of
 * 50,000 pods in every replay is most of a replay's cost.
 */
function withTarget(pods: readonly V1Pod[], target: V1Pod, targetKey: string, patched: V1Pod): V1Pod[] {
  if (patched === target) return [...pods];
  const at = pods.indexOf(target);
  if (at >= 0) {
    const out = [...pods];
    out[at] = patched;
    return out;
  }
  return pods.map((p) => (podKey(p) === targetKey ? patched : p));
}

/** Each node's facts through `patch`, which keeps its name: the list keeps its order, so it shares the original's index of names. */
function patchedFacts(nodes: readonly NodeFacts[], patch: (facts: NodeFacts) => NodeFacts): NodeFacts[] {
  const out = nodes.map(patch);
  samePositions(nodes, out);
  return out;
}

/** The rule context as it would be with `changes` made; the original is left untouched. */
export function patchedContext(ctx: RuleContext, changes: readonly Change[]): RuleContext {
  const pod = podWith(ctx.pod.pod, changes);
  const touchedBy = changes.map((change) => ({ change, touches: new Set(nodesTouched(change)) }));
  const touched = new Set(touchedBy.flatMap(({ touches }) => [...touches]));
  const patchedNodes = new Map<string, V1Node>();
  for (const node of touched.size > 0 ? ctx.snapshot.objects.nodes : []) {
    const name = node.metadata?.name ?? '';
    if (!touched.has(name)) continue;
    const copy = nodeCopy(node);
    for (const { change, touches } of touchedBy) patchNode(copy, change, touches);
    patchedNodes.set(name, copy);
  }
  const removed = new Set(changes.flatMap((c) => (c.kind === 'preempt' ? c.victims.map((v) => `${v.namespace}/${v.name}`) : [])));
  const targetKey = podKey(ctx.pod.pod);
  const objects = ctx.snapshot.objects;
  const snapshot = {
    ...ctx.snapshot,
    objects: {
      ...objects,
      // Untouched, the lists are the same objects: 5,000 nodes are not copied for a pod-side change.
      nodes: patchedNodes.size > 0 ? objects.nodes.map((n) => patchedNodes.get(n.metadata?.name ?? '') ?? n) : objects.nodes,
      pods: withTarget(removed.size > 0 ? objects.pods.filter((p) => !removed.has(podKey(p))) : objects.pods, ctx.pod.pod, targetKey, pod),
    },
  };
  const nodes = patchedNodes.size === 0 && removed.size === 0 ? ctx.nodes : patchedFacts(ctx.nodes, (facts) => {
    const patched = patchedNodes.get(facts.name);
    const loses = removed.size > 0 && facts.pods.some((p) => removed.has(podKey(p)));
    if (!patched && !loses) return facts;
    // Labels and cordons change neither the node's pods nor its allocatable: the facts summed
    // from them stay.
    if (!loses && patched) return { ...facts, node: patched, labels: patched.metadata?.labels ?? {} };
    return nodeFacts(patched ?? facts.node, facts.pods.filter((p) => !removed.has(podKey(p))));
  });
  return { snapshot, pod: pod === ctx.pod.pod ? ctx.pod : podFacts(pod), nodes };
}
