// Decides, from what is already read, what else is worth reading. Pure: no I/O.
// - Candidate nodes: those that pass the checks node objects alone settle (the engine's own
//   rules: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity and its PreFilter, and,
//   when the pod asks for no host port, NodeResourcesFit on an empty node: a request larger
//   than the node's allocatable fails whatever runs there). These rules come first in the
//   scheduler's order, so a node that fails one has its first failing plugin known without its
//   pods; only candidates' pods are read.
// - Pod selections: the label selectors (and namespaces) of the pod's required pod affinity and
//   anti-affinity terms and of its DoNotSchedule spread constraints, whose matching pods count
//   wherever they run.
import type { V1LabelSelector, V1Node, V1Pod } from '@kubernetes/client-node';
import { nodeFacts, podFacts } from '../../engine/facts.js';
import { formatLabelSelector, matchesLabelSelector, mergeLabelKeys } from '../../engine/match/labelSelector.js';
import type { FilterRule, NodeFacts, PodFacts, RuleContext } from '../../engine/model.js';
import NodeAffinity from '../../engine/rules/NodeAffinity.js';
import NodeName from '../../engine/rules/NodeName.js';
import { hostPorts } from '../../engine/rules/NodePorts.js';
import NodeResourcesFit from '../../engine/rules/NodeResourcesFit.js';
import NodeUnschedulable from '../../engine/rules/NodeUnschedulable.js';
import TaintToleration from '../../engine/rules/TaintToleration.js';
import VolumeBinding from '../../engine/rules/VolumeBinding.js';
import { podClaimRefs } from '../../engine/volumes.js';
import type { Snapshot } from '../../snapshot/types.js';

export interface Candidates {
  /** Names of the nodes whose pods can change the verdict. */
  names: string[];
  /** The pod fails a PreFilter that node objects settle: no node's pods matter. */
  failsPreFilter: boolean;
}

function emptyNodeFacts(node: V1Node): NodeFacts | undefined {
  try {
    return nodeFacts(node, []);
  } catch {
    return undefined; // an unreadable allocatable: keep the node, the engine will say why
  }
}

/**
 * The nodes that pass every node-only check. `snapshot` supplies claims, volumes and classes
 * for VolumeBinding's PreFilter; pass `claimsKnown: false` when reading them hit a gap.
 */
export function candidateNodes(pod: V1Pod, nodes: readonly V1Node[], snapshot: Snapshot, claimsKnown: boolean): Candidates {
  let facts: PodFacts | undefined;
  try {
    facts = podFacts(pod);
  } catch {
    facts = undefined;
  }
  const all = nodes.map((node) => ({ node, facts: emptyNodeFacts(node) }));
  if (!facts) return { names: all.map((n) => n.node.metadata?.name ?? ''), failsPreFilter: false };
  const known = all.flatMap((n) => (n.facts ? [n.facts] : []));
  const ctx: RuleContext = { snapshot: { ...snapshot, objects: { ...snapshot.objects, pods: [] } }, pod: facts, nodes: known };
  const preFilters: FilterRule[] = claimsKnown ? [NodeAffinity, VolumeBinding] : [NodeAffinity];
  let allowed: Set<string> | undefined;
  for (const rule of preFilters) {
    const outcome = rule.preFilter?.(ctx);
    if ((outcome?.reasons ?? []).length > 0) return { names: [], failsPreFilter: true };
    const names = outcome?.nodeNames;
    if (names) allowed = allowed ? new Set([...allowed].filter((n) => names.has(n))) : new Set(names);
  }
  const rules: FilterRule[] = [NodeUnschedulable, NodeName, TaintToleration, NodeAffinity];
  if (hostPorts(pod).length === 0) rules.push(NodeResourcesFit);
  const names = all
    .filter(({ node, facts: nf }) => {
      const name = node.metadata?.name ?? '';
      if (allowed && !allowed.has(name)) return false;
      return !nf || rules.every((rule) => rule.filter(ctx, nf).length === 0);
    })
    .map(({ node }) => node.metadata?.name ?? '');
  return { names, failsPreFilter: false };
}

export interface PodSelection {
  /** undefined: every namespace. */
  namespace?: string;
  /** A server-side label selector ('' selects every pod). */
  labelSelector: string;
  selector: V1LabelSelector;
}

/** Where the pods that the pod's required (anti-)affinity terms and spread constraints count live. */
export function podSelections(pod: V1Pod): PodSelection[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const labels = pod.metadata?.labels ?? {};
  const out: PodSelection[] = [];
  const add = (selector: V1LabelSelector | undefined, namespaces: (string | undefined)[]) => {
    const text = formatLabelSelector(selector);
    if (text === null || !selector) return; // a nil selector matches nothing
    for (const ns of namespaces) out.push({ ...(ns !== undefined ? { namespace: ns } : {}), labelSelector: text, selector });
  };
  const affinity = pod.spec?.affinity;
  const terms = [...(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...(affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])];
  for (const term of terms) {
    const merged = mergeLabelKeys(mergeLabelKeys(term.labelSelector, term.matchLabelKeys, 'In', labels), term.mismatchLabelKeys, 'NotIn', labels);
    // A namespaceSelector may select any namespace: read them all and let the engine decide.
    const namespaces = term.namespaceSelector ? [undefined] : (term.namespaces ?? []).length > 0 ? [...new Set(term.namespaces)] : [namespace];
    add(merged, namespaces);
  }
  for (const constraint of pod.spec?.topologySpreadConstraints ?? []) {
    if (constraint.whenUnsatisfiable !== 'DoNotSchedule') continue;
    add(mergeLabelKeys(constraint.labelSelector, constraint.matchLabelKeys, 'In', labels), [namespace]);
  }
  // One read per (namespace, selector); a cluster-wide read covers the namespaced ones.
  const clusterWide = new Set(out.filter((s) => s.namespace === undefined).map((s) => s.labelSelector));
  const seen = new Set<string>();
  return out.filter((s) => {
    if (s.namespace !== undefined && clusterWide.has(s.labelSelector)) return false;
    const key = `${s.namespace ?? '*'}\u0000${s.labelSelector}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function inSelection(pod: V1Pod, selections: readonly PodSelection[]): boolean {
  const namespace = pod.metadata?.namespace ?? 'default';
  return selections.some((s) => (s.namespace === undefined || s.namespace === namespace) && matchesLabelSelector(s.selector, pod.metadata?.labels));
}

export function hasRequiredAntiAffinity(pod: V1Pod): boolean {
  return (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length > 0;
}

/** Claims a pod's volumes name (persistentVolumeClaim and generic ephemeral volumes). */
export function claimNamesOf(pod: V1Pod): string[] {
  return [...new Set(podClaimRefs(pod).map((r) => r.claim))];
}

/** Whether the pod has volumes NodeVolumeLimits counts (claims, or in-tree attachable disks). */
export function hasAttachableVolumes(pod: V1Pod): boolean {
  return (pod.spec?.volumes ?? []).some(
    (v) => v.persistentVolumeClaim || v.ephemeral || v.awsElasticBlockStore || v.gcePersistentDisk || v.azureDisk || v.cinder || v.portworxVolume,
  );
}
