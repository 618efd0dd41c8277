// InterPodAffinity, as kube-scheduler v1.34 filters (interpodaffinity/filtering.go, plugin.go;
// framework/types.go for how a term is read). PreFilter counts, per topology pair (key, value):
//   1. existing pods whose required anti-affinity terms match the incoming pod,
//   2. existing pods matching ALL of the incoming pod's required affinity terms,
//   3. existing pods matching each of the incoming pod's required anti-affinity terms,
// each on the node the existing pod runs on, when that node has the term's topologyKey.
// Filter checks, in this order: affinity (a node missing a term's topologyKey fails outright; the
// first pod of a group passes when no pod matches anywhere and it matches its own terms),
// anti-affinity, then existing pods' anti-affinity. The scheduler stops at the first; we report
// each that fails, in that order.
//
// Namespaces: a term covers the namespaces it lists, plus those its namespaceSelector selects; with
// neither, its owner's namespace; an empty namespaceSelector selects all. Namespace objects are not
// in the snapshot, so only `kubernetes.io/metadata.name` (which the apiserver sets on every
// namespace) can be evaluated; a selector on other labels selects nothing here and the detail says so.
// matchLabelKeys/mismatchLabelKeys are merged into the selector as the apiserver does at admission
// (the scheduler itself reads only the merged labelSelector); merging again is harmless.
import type { V1LabelSelector, V1Pod, V1PodAffinityTerm } from '@kubernetes/client-node';
import type { FilterRule, NodeFacts, RuleReason, RuleContext } from '../model.js';
import { oncePerCycle } from '../cycleState.js';
import { formatLabelSelector, isEmptySelector, labelMatcher, matchesLabelSelector, mergeLabelKeys } from '../match/labelSelector.js';
import type { DomainCount } from './PodTopologySpread.js';

export interface AffinityTermRef {
  /** Position in its owner's requiredDuringSchedulingIgnoredDuringExecution list. */
  index: number;
  topologyKey: string;
  /** labelSelector with matchLabelKeys/mismatchLabelKeys merged, as apimachinery prints it; null when unset (matches no pod). */
  selector: string | null;
  /** Namespaces the term lists, or its owner's namespace when it lists none and has no namespaceSelector. */
  namespaces: string[];
  /** The namespaceSelector as text ('' selects every namespace); absent when unset. */
  namespaceSelector?: string;
  /** The namespaceSelector reads namespace labels the snapshot does not hold, so it was taken to select no namespace. */
  namespaceSelectorUnknown?: boolean;
}

export interface PodRef {
  namespace: string;
  name: string;
  node: string;
}

export interface UnmatchedAffinityTerm {
  term: AffinityTermRef;
  /** The node's value of the term's topologyKey, where no matching pod runs. */
  domain: string;
  /** Values of the topologyKey where matching pods do run, with how many (the first few by name). */
  elsewhere: DomainCount[];
  /** How many such values there are in all. */
  elsewhereDomains: number;
}

export interface AntiAffinityConflict {
  term: AffinityTermRef;
  /** The node's value of the term's topologyKey, shared with the pods below. */
  domain: string;
  /** The first few matching pods in that domain, by namespace/name. */
  pods: PodRef[];
  podCount: number;
}

export interface ExistingAntiAffinityConflict {
  /** The existing pod whose anti-affinity term matches the incoming pod. */
  pod: PodRef;
  term: AffinityTermRef;
  /** The value of term.topologyKey that this node shares with the existing pod's node. */
  domain: string;
}

export type InterPodAffinityDetail =
  | { kind: 'podAffinityLabelMissing'; terms: AffinityTermRef[] }
  | {
      kind: 'podAffinityUnmatched';
      terms: UnmatchedAffinityTerm[];
      /** Pods matching all affinity terms, on nodes with at least one term's topologyKey: the first few, and how many. */
      matchingPods: PodRef[];
      matchingPodCount: number;
      /** The pod matches all its own affinity terms (what lets the first pod of a group schedule when no other matches). */
      selfMatch: boolean;
    }
  | { kind: 'podAntiAffinityConflict'; terms: AntiAffinityConflict[] }
  | { kind: 'existingPodAntiAffinityConflict'; conflicts: ExistingAntiAffinityConflict[]; conflictCount: number };

type InterPodAffinityReason = RuleReason<'InterPodAffinity', InterPodAffinityDetail>;

const metadataNameLabel = 'kubernetes.io/metadata.name';
const shownPods = 5;
const shownDomains = 10;

interface Term {
  ref: AffinityTermRef;
  /** AffinityTerm.Matches, read once: a term is matched against every pod of the cluster. */
  matches: (pod: V1Pod) => boolean;
}

function namespaceOf(pod: V1Pod): string {
  return pod.metadata?.namespace ?? 'default';
}

/** Whether a namespaceSelector can be evaluated from the one namespace label we know. */
function namespaceSelectorKnown(selector: V1LabelSelector): boolean {
  return (
    Object.keys(selector.matchLabels ?? {}).every((key) => key === metadataNameLabel) &&
    (selector.matchExpressions ?? []).every((r) => r.key === metadataNameLabel)
  );
}

function namespaceSelected(selector: V1LabelSelector | undefined, namespace: string): boolean {
  if (!selector) return false;
  if (isEmptySelector(selector)) return true;
  if (!namespaceSelectorKnown(selector)) return false;
  return matchesLabelSelector(selector, { [metadataNameLabel]: namespace });
}

// framework.newAffinityTerm, plus the admission-time merge of the label keys.
function readTerm(owner: V1Pod, term: V1PodAffinityTerm, index: number): Term {
  const labels = owner.metadata?.labels ?? {};
  const merged = mergeLabelKeys(mergeLabelKeys(term.labelSelector, term.matchLabelKeys, 'In', labels), term.mismatchLabelKeys, 'NotIn', labels);
  const namespaceSelector = term.namespaceSelector ?? undefined;
  const listed = term.namespaces ?? [];
  const namespaces = listed.length === 0 && !namespaceSelector ? [namespaceOf(owner)] : [...listed];
  const ref: AffinityTermRef = { index, topologyKey: term.topologyKey, selector: formatLabelSelector(merged), namespaces: [...new Set(namespaces)].sort() };
  if (namespaceSelector) {
    ref.namespaceSelector = formatLabelSelector(namespaceSelector) ?? '';
    if (!isEmptySelector(namespaceSelector) && !namespaceSelectorKnown(namespaceSelector)) ref.namespaceSelectorUnknown = true;
  }
  return { ref, matches: termMatcher(new Set(namespaces), namespaceSelector, merged) };
}

/** AffinityTerm.Matches: the pod's namespace is covered and its labels match the selector. */
function termMatcher(namespaces: ReadonlySet<string>, namespaceSelector: V1LabelSelector | undefined, selector: V1LabelSelector | undefined): (pod: V1Pod) => boolean {
  // A cluster has few namespaces: each is decided once.
  const coverage = new Map<string, boolean>();
  const labelsMatch = labelMatcher(selector);
  // An empty namespaceSelector covers every namespace: the pod's is not even read.
  if (namespaceSelector && isEmptySelector(namespaceSelector)) return (pod) => labelsMatch(pod.metadata?.labels);
  return (pod) => {
    const namespace = namespaceOf(pod);
    let covered = coverage.get(namespace);
    if (covered === undefined) {
      covered = namespaces.has(namespace) || namespaceSelected(namespaceSelector, namespace);
      coverage.set(namespace, covered);
    }
    return covered && labelsMatch(pod.metadata?.labels);
  };
}

function requiredTerms(pod: V1Pod, which: 'podAffinity' | 'podAntiAffinity'): Term[] {
  const list = pod.spec?.affinity?.[which]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return list.map((term, index) => readTerm(pod, term, index));
}

function matchesAll(terms: readonly Term[], pod: V1Pod): boolean {
  return terms.length > 0 && terms.every((term) => term.matches(pod));
}

function podRef(pod: V1Pod, node: NodeFacts): PodRef {
  return { namespace: namespaceOf(pod), name: pod.metadata?.name ?? '', node: node.name };
}

function byPod(a: PodRef, b: PodRef): number {
  const ka = `${a.namespace}/${a.name}`;
  const kb = `${b.namespace}/${b.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function labelOf(node: NodeFacts, key: string): string | undefined {
  return Object.hasOwn(node.labels, key) ? node.labels[key] : undefined;
}

const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

interface AffinityState {
  affinity: Term[];
  antiAffinity: Term[];
  selfMatch: boolean;
  /** Per affinity term: topology value -> pods matching all affinity terms there. */
  affinityPods: Map<string, PodRef[]>[];
  /** Pods that counted for some affinity term. */
  matchingPods: PodRef[];
  /** Per anti-affinity term: topology value -> pods matching that term there. */
  antiAffinityPods: Map<string, PodRef[]>[];
  /** Topology pair -> existing pods' anti-affinity terms matching the incoming pod. */
  existing: Map<string, ExistingAntiAffinityConflict[]>;
}

// The terms of the node's pods with required anti-affinity (found by the node index, as the
// scheduler's NodeInfo keeps PodsWithRequiredAntiAffinity), read once per node's facts: shared
// by every diagnosis of the snapshot, and by a fix's replay for the nodes it leaves alone.
const heldAntiAffinity = new WeakMap<NodeFacts, { pod: V1Pod; terms: Term[] }[]>();

function antiAffinityHeldOn(node: NodeFacts): { pod: V1Pod; terms: Term[] }[] {
  let held = heldAntiAffinity.get(node);
  if (!held) {
    held = [];
    for (const pod of node.withRequiredAntiAffinity) held.push({ pod, terms: requiredTerms(pod, 'podAntiAffinity') });
    heldAntiAffinity.set(node, held);
  }
  return held;
}

// A pod without affinity terms reads no topology value on any of 5,000 nodes.
const noValues: readonly (string | undefined)[] = [];

function computeState(ctx: RuleContext): AffinityState {
  const incoming = ctx.pod.pod;
  const affinity = requiredTerms(incoming, 'podAffinity');
  const antiAffinity = requiredTerms(incoming, 'podAntiAffinity');
  const affinityPods = affinity.map(() => new Map<string, PodRef[]>());
  const antiAffinityPods = antiAffinity.map(() => new Map<string, PodRef[]>());
  const matchingPods: PodRef[] = [];
  const existing = new Map<string, ExistingAntiAffinityConflict[]>();
  // Indexed loops: this walks every pod of the cluster (50,000) once, mostly before V8 has
  // optimised it, and unoptimised for...of allocates an iterator result per step.
  for (let n = 0; n < ctx.nodes.length; n++) {
    const node = ctx.nodes[n] as NodeFacts;
    // (1) existing pods' anti-affinity against the incoming pod.
    if (node.withRequiredAntiAffinity.length === 0 && affinity.length === 0 && antiAffinity.length === 0) continue;
    if (node.withRequiredAntiAffinity.length > 0) {
      for (const { pod, terms } of antiAffinityHeldOn(node)) {
        for (const term of terms) {
          const value = labelOf(node, term.ref.topologyKey);
          if (value !== undefined && term.matches(incoming)) push(existing, pairKey(term.ref.topologyKey, value), { pod: podRef(pod, node), term: term.ref, domain: value });
        }
      }
    }
    // (2) the incoming pod's affinity: a pod counts only when it matches every term, and only
    // on a node that has some term's topologyKey.
    const affinityValues = affinity.length === 0 ? noValues : affinity.map((term) => labelOf(node, term.ref.topologyKey));
    if (affinity.length > 0 && affinityValues.some((value) => value !== undefined)) {
      for (const pod of node.pods) {
        if (!matchesAll(affinity, pod)) continue;
        affinityValues.forEach((value, i) => {
          if (value !== undefined) push(affinityPods[i]!, value, podRef(pod, node));
        });
        matchingPods.push(podRef(pod, node));
      }
    }
    // (3) the incoming pod's anti-affinity, term by term.
    for (let i = 0; i < antiAffinity.length; i++) {
      const term = antiAffinity[i] as Term;
      const value = labelOf(node, term.ref.topologyKey);
      if (value === undefined) continue;
      const pods = node.pods;
      for (let p = 0; p < pods.length; p++) {
        const pod = pods[p] as V1Pod;
        if (term.matches(pod)) push(antiAffinityPods[i]!, value, podRef(pod, node));
      }
    }
  }
  // A list per domain, 5,000 of them with a pod each under anti-affinity by hostname: only longer ones need sorting.
  const sortList = (list: PodRef[]) => {
    if (list.length > 1) list.sort(byPod);
  };
  for (const map of affinityPods) map.forEach(sortList);
  for (const map of antiAffinityPods) map.forEach(sortList);
  return { affinity, antiAffinity, selfMatch: matchesAll(affinity, incoming), affinityPods, matchingPods: matchingPods.sort(byPod), antiAffinityPods, existing };
}

// What computeState reads: the incoming pod's namespace, labels and terms, and the nodes' facts.
// The list itself, not its 5,000 elements: a replay that patches no node keeps the context's
// list (fixes/patch.ts), and one that patches some has new facts in it anyway.
const stateFor = oncePerCycle(computeState, (ctx) => [
  JSON.stringify([ctx.pod.pod.metadata?.namespace ?? 'default', ctx.pod.pod.metadata?.labels ?? {}, ctx.pod.pod.spec?.affinity ?? {}]),
  ctx.nodes,
]);

function elsewhere(map: Map<string, PodRef[]>): DomainCount[] {
  return [...map]
    .map(([domain, pods]) => ({ domain, pods: pods.length }))
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
    .slice(0, shownDomains);
}

// satisfyPodAffinity
function affinityReason(state: AffinityState, node: NodeFacts): InterPodAffinityReason | undefined {
  if (state.affinity.length === 0) return undefined;
  const missing = state.affinity.filter((t) => !Object.hasOwn(node.labels, t.ref.topologyKey));
  if (missing.length > 0) {
    return { plugin: 'InterPodAffinity', code: 'UnschedulableAndUnresolvable', detail: { kind: 'podAffinityLabelMissing', terms: missing.map((t) => t.ref) } };
  }
  const unmatched = state.affinity.flatMap((term, i): UnmatchedAffinityTerm[] => {
    const domain = labelOf(node, term.ref.topologyKey) ?? '';
    const map = state.affinityPods[i]!;
    return (map.get(domain)?.length ?? 0) > 0 ? [] : [{ term: term.ref, domain, elsewhere: elsewhere(map), elsewhereDomains: map.size }];
  });
  if (unmatched.length === 0) return undefined;
  // The first pod of a group that selects itself: nothing matches anywhere, and it matches its own terms.
  const nothingAnywhere = state.affinityPods.every((map) => map.size === 0);
  if (nothingAnywhere && state.selfMatch) return undefined;
  return {
    plugin: 'InterPodAffinity',
    code: 'UnschedulableAndUnresolvable',
    detail: {
      kind: 'podAffinityUnmatched',
      terms: unmatched,
      matchingPods: state.matchingPods.slice(0, shownPods),
      matchingPodCount: state.matchingPods.length,
      selfMatch: state.selfMatch,
    },
  };
}

// satisfyPodAntiAffinity
function antiAffinityReason(state: AffinityState, node: NodeFacts): InterPodAffinityReason | undefined {
  const conflicts: AntiAffinityConflict[] = [];
  // Indexed: it runs on each of 5,000 nodes, and an unoptimised for...of over entries() with
  // destructuring walks two iterators per node.
  for (let i = 0; i < state.antiAffinity.length; i++) {
    const term = state.antiAffinity[i] as Term;
    const domain = labelOf(node, term.ref.topologyKey);
    const pods = domain === undefined ? undefined : state.antiAffinityPods[i]?.get(domain);
    if (domain !== undefined && pods && pods.length > 0) conflicts.push({ term: term.ref, domain, pods: pods.slice(0, shownPods), podCount: pods.length });
  }
  if (conflicts.length === 0) return undefined;
  return { plugin: 'InterPodAffinity', code: 'Unschedulable', detail: { kind: 'podAntiAffinityConflict', terms: conflicts } };
}

// satisfyExistingPodsAntiAffinity: any of the node's labels may be a pair some existing term counted.
function existingAntiAffinityReason(state: AffinityState, node: NodeFacts): InterPodAffinityReason | undefined {
  if (state.existing.size === 0) return undefined;
  const conflicts = Object.entries(node.labels)
    .flatMap(([key, value]) => state.existing.get(pairKey(key, value)) ?? [])
    .sort((a, b) => byPod(a.pod, b.pod) || a.term.index - b.term.index);
  if (conflicts.length === 0) return undefined;
  return {
    plugin: 'InterPodAffinity',
    code: 'Unschedulable',
    detail: { kind: 'existingPodAntiAffinityConflict', conflicts: conflicts.slice(0, shownPods), conflictCount: conflicts.length },
  };
}

function nothingToCheck(state: AffinityState): boolean {
  return state.affinity.length === 0 && state.antiAffinity.length === 0 && state.existing.size === 0;
}

const rule: FilterRule<'InterPodAffinity', InterPodAffinityDetail> = {
  meta: { name: 'InterPodAffinity', kinds: ['podAffinityLabelMissing', 'podAffinityUnmatched', 'podAntiAffinityConflict', 'existingPodAntiAffinityConflict'] },
  // Existing pods' anti-affinity applies to every pod, so the pods are always read.
  needs: () => ['nodes', 'pods'],
  // Anti-affinity conflicts found stay whatever else runs; a node lacking a term's topology key
  // fails whatever runs. Affinity unmatched may be matched by a pod the input lacks.
  provenDespiteGaps: (detail) =>
    detail.kind === 'podAntiAffinityConflict' || detail.kind === 'existingPodAntiAffinityConflict' || detail.kind === 'podAffinityLabelMissing',
  // The common pod: no terms of its own, and no pod anywhere whose anti-affinity it meets
  // (upstream's Skip).
  preFilter: (ctx) => (nothingToCheck(stateFor(ctx)) ? { skip: true } : {}),
  filter(ctx, node) {
    const state = stateFor(ctx);
    if (nothingToCheck(state)) return [];
    // In satisfyPodAffinity, satisfyPodAntiAffinity, satisfyExistingPodsAntiAffinity's order;
    // pushed one by one (no list of three to filter for each of 5,000 nodes).
    const reasons: InterPodAffinityReason[] = [];
    const affinity = affinityReason(state, node);
    if (affinity) reasons.push(affinity);
    const anti = antiAffinityReason(state, node);
    if (anti) reasons.push(anti);
    const existing = existingAntiAffinityReason(state, node);
    if (existing) reasons.push(existing);
    return reasons;
  },
};

export default rule;
