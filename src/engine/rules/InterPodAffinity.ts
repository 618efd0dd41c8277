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
// neither, its owner's namespace; an empty namespaceSelector selects all. The incoming pod's own
// selectors are resolved against the cluster's namespaces once (PreFilter's
// mergeAffinityTermNamespacesIfNotEmpty); an existing pod's selector is matched against the
// incoming pod's namespace labels. Only `kubernetes.io/metadata.name` is known without reading
// namespaces: where a selector needs other labels the input lacks, the term's coverage is
// unknown, and a node whose answer turns on it is not checked (never passed).
// matchLabelKeys/mismatchLabelKeys are merged into the selector as the apiserver does at admission
// (the scheduler itself reads only the merged labelSelector); merging again is harmless.
import type { V1LabelSelector, V1Pod, V1PodAffinityTerm } from '@kubernetes/client-node';
import type { CollectionName, Snapshot } from '../../snapshot/types.js';
import type { FilterRule, NodeFacts, NodeNotChecked, RuleReason, RuleContext } from '../model.js';
import { oncePerCycle } from '../cycleState.js';
import { formatLabelSelector, isEmptySelector, labelMatcher, matchesLabelSelector, mergeLabelKeys, onlyLabel } from '../match/labelSelector.js';
import { anchorOf, findLabelledOnEveryNode, mayMatch, type LabelAnchor } from '../match/podsLabelled.js';
import { metadataNameLabel, namespaceLabels, namespacesSelected, needsNamespaceLabels, selectsByNameOnly, selectsNamespacesByLabel } from '../namespaces.js';
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
  /** The namespaces of the cluster the incoming pod's namespaceSelector selected (its own terms only). */
  namespacesSelected?: string[];
  /** The namespaceSelector reads namespace labels the input does not hold, so which namespaces it selects is unknown. */
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
  | {
      kind: 'podAntiAffinityConflict';
      terms: AntiAffinityConflict[];
      /**
       * Every pod this node's existing-pods anti-affinity reason names is one these terms name: the
       * two are one symmetric rule (each pod's anti-affinity rejects the other), told once to a person.
       */
      symmetric?: true;
    }
  | { kind: 'existingPodAntiAffinityConflict'; conflicts: ExistingAntiAffinityConflict[]; conflictCount: number };

type InterPodAffinityReason = RuleReason<'InterPodAffinity', InterPodAffinityDetail>;

const shownPods = 5;
const shownDomains = 10;

function namespaceOf(pod: V1Pod): string {
  return pod.metadata?.namespace ?? 'default';
}

interface Term {
  ref: AffinityTermRef;
  /** The namespaces the term lists (or its owner's). */
  listed: ReadonlySet<string>;
  namespaceSelector: V1LabelSelector | undefined;
  labelsMatch: (labels: Record<string, string> | undefined) => boolean;
  /** One matchLabels entry of the selector: only pods that carry it can match. */
  anchor: LabelAnchor | undefined;
  /** The selector is that entry alone: a pod carrying it matches it. */
  anchorOnly: boolean;
}

/** A term of the incoming pod, its namespaces resolved: AffinityTerm.Matches as PreFilter leaves it. */
interface OwnTerm extends Term {
  matches: (pod: V1Pod) => boolean;
  /** `matches`, for a pod known to carry the anchor (mayMatch's): 5,000 of them, each read again from memory otherwise. */
  matchesAnchored: (pod: V1Pod) => boolean;
}

// framework.newAffinityTerm, plus the admission-time merge of the label keys.
function readTerm(owner: V1Pod, term: V1PodAffinityTerm, index: number): Term {
  const labels = owner.metadata?.labels ?? {};
  const merged = mergeLabelKeys(mergeLabelKeys(term.labelSelector, term.matchLabelKeys, 'In', labels), term.mismatchLabelKeys, 'NotIn', labels);
  const namespaceSelector = term.namespaceSelector ?? undefined;
  const listed = term.namespaces ?? [];
  const namespaces = listed.length === 0 && !namespaceSelector ? [namespaceOf(owner)] : [...listed];
  const ref: AffinityTermRef = { index, topologyKey: term.topologyKey, selector: formatLabelSelector(merged), namespaces: [...new Set(namespaces)].sort() };
  if (namespaceSelector) ref.namespaceSelector = formatLabelSelector(namespaceSelector) ?? '';
  return { ref, listed: new Set(namespaces), namespaceSelector, labelsMatch: labelMatcher(merged), anchor: anchorOf(merged), anchorOnly: onlyLabel(merged) !== undefined };
}

/**
 * Whether an existing pod's term covers the incoming pod's namespace: true, false, or undefined
 * when its namespaceSelector reads labels of that namespace the input does not hold.
 */
function coversNamespace(term: Term, namespace: string, labels: Readonly<Record<string, string>> | undefined): boolean | undefined {
  if (term.listed.has(namespace)) return true;
  const selector = term.namespaceSelector;
  if (!selector) return false;
  if (isEmptySelector(selector)) return true;
  if (selectsByNameOnly(selector)) return matchesLabelSelector(selector, { [metadataNameLabel]: namespace });
  return labels ? matchesLabelSelector(selector, labels) : undefined;
}

/**
 * An incoming pod's term with its namespaceSelector resolved against the cluster's namespaces,
 * as the scheduler's PreFilter does once per cycle: a namespace is covered when the term lists
 * it or its selector selects its labels (coversNamespace, as for an existing pod's term).
 * Namespaces that cannot be read (a gap) leave the selector covering only what its name-only
 * part decides, and say so (the rule's needs make the gap leave the plugin not checked).
 */
function ownTerm(term: Term, snapshot: Snapshot): OwnTerm {
  const selector = term.namespaceSelector;
  let ref = term.ref;
  let labelsOf = (namespace: string): Readonly<Record<string, string>> | undefined => namespaceLabels(snapshot, namespace);
  if (needsNamespaceLabels(selector)) {
    const selected = namespacesSelected(snapshot, selector as V1LabelSelector);
    if (selected) ref = { ...ref, namespacesSelected: selected };
    else {
      ref = { ...ref, namespaceSelectorUnknown: true };
      labelsOf = () => undefined;
    }
  }
  // A cluster has few namespaces: each is decided once.
  const coverage = new Map<string, boolean>();
  const covers = (pod: V1Pod) => {
    const namespace = namespaceOf(pod);
    let covered = coverage.get(namespace);
    if (covered === undefined) {
      covered = coversNamespace(term, namespace, labelsOf(namespace)) === true;
      coverage.set(namespace, covered);
    }
    return covered;
  };
  const matches = (pod: V1Pod) => covers(pod) && term.labelsMatch(pod.metadata?.labels);
  // An empty namespaceSelector covers every namespace.
  const everyNamespace = selector !== undefined && isEmptySelector(selector);
  const matchesAnchored = !term.anchorOnly ? matches : everyNamespace ? () => true : covers;
  return { ...term, ref, matches, matchesAnchored };
}

function requiredTerms(pod: V1Pod, which: 'podAffinity' | 'podAntiAffinity'): Term[] {
  const list = pod.spec?.affinity?.[which]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return list.map((term, index) => readTerm(pod, term, index));
}

function matchesAll(terms: readonly OwnTerm[], pod: V1Pod): boolean {
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
  affinity: OwnTerm[];
  antiAffinity: OwnTerm[];
  selfMatch: boolean;
  /** Per affinity term: topology value -> pods matching all affinity terms there. */
  affinityPods: Map<string, PodRef[]>[];
  /** Pods that counted for some affinity term. */
  matchingPods: PodRef[];
  /** Per anti-affinity term: topology value -> pods matching that term there. */
  antiAffinityPods: Map<string, PodRef[]>[];
  /** Topology pair -> existing pods' anti-affinity terms matching the incoming pod. */
  existing: Map<string, ExistingAntiAffinityConflict[]>;
  /**
   * Topology pair -> existing pods' terms that select the incoming pod's labels through a
   * namespaceSelector on its namespace's labels, which the input lacks: whether they match is unknown.
   */
  existingUnknown: Map<string, ExistingAntiAffinityConflict[]>;
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
  const affinity = requiredTerms(incoming, 'podAffinity').map((t) => ownTerm(t, ctx.snapshot));
  const antiAffinity = requiredTerms(incoming, 'podAntiAffinity').map((t) => ownTerm(t, ctx.snapshot));
  const incomingNamespace = namespaceOf(incoming);
  // Read only where an existing term's selector needs it (GetNamespaceLabelsSnapshot).
  let incomingLabels: Readonly<Record<string, string>> | undefined | null = null;
  const labelsOfIncoming = () => (incomingLabels === null ? (incomingLabels = namespaceLabels(ctx.snapshot, incomingNamespace)) : incomingLabels);
  const existingUnknown = new Map<string, ExistingAntiAffinityConflict[]>();
  const affinityPods = affinity.map(() => new Map<string, PodRef[]>());
  const antiAffinityPods = antiAffinity.map(() => new Map<string, PodRef[]>());
  const matchingPods: PodRef[] = [];
  const existing = new Map<string, ExistingAntiAffinityConflict[]>();
  const first = affinity[0];
  if (first) findLabelledOnEveryNode(ctx.snapshot, first.anchor, first.ref.topologyKey);
  for (let i = 0; i < antiAffinity.length; i++) {
    const term = antiAffinity[i] as OwnTerm;
    findLabelledOnEveryNode(ctx.snapshot, term.anchor, term.ref.topologyKey);
  }
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
          if (value === undefined || !term.labelsMatch(incoming.metadata?.labels)) continue;
          const covers = coversNamespace(term, incomingNamespace, needsNamespaceLabels(term.namespaceSelector) ? labelsOfIncoming() : undefined);
          if (covers === false) continue;
          // Covered by its namespaceSelector (not a listed namespace): the conflict says it selected this pod's namespace.
          const ref = covers ? (term.listed.has(incomingNamespace) ? term.ref : { ...term.ref, namespacesSelected: [incomingNamespace] }) : { ...term.ref, namespaceSelectorUnknown: true };
          const conflict = { pod: podRef(pod, node), term: ref, domain: value };
          push(covers ? existing : existingUnknown, pairKey(term.ref.topologyKey, value), conflict);
        }
      }
    }
    // (2) the incoming pod's affinity: a pod counts only when it matches every term, and only
    // on a node that has some term's topologyKey.
    const affinityValues = affinity.length === 0 ? noValues : affinity.map((term) => labelOf(node, term.ref.topologyKey));
    if (affinity.length > 0 && affinityValues.some((value) => value !== undefined)) {
      for (const pod of mayMatch(node.pods, affinity[0]?.anchor)) {
        if (!matchesAll(affinity, pod)) continue;
        affinityValues.forEach((value, i) => {
          if (value !== undefined) push(affinityPods[i]!, value, podRef(pod, node));
        });
        matchingPods.push(podRef(pod, node));
      }
    }
    // (3) the incoming pod's anti-affinity, term by term.
    for (let i = 0; i < antiAffinity.length; i++) {
      const term = antiAffinity[i] as OwnTerm;
      const value = labelOf(node, term.ref.topologyKey);
      if (value === undefined) continue;
      const pods = mayMatch(node.pods, term.anchor);
      for (let p = 0; p < pods.length; p++) {
        const pod = pods[p] as V1Pod;
        if (term.matchesAnchored(pod)) push(antiAffinityPods[i]!, value, podRef(pod, node));
      }
    }
  }
  // A list per domain, 5,000 of them with a pod each under anti-affinity by hostname: only longer ones need sorting.
  const sortList = (list: PodRef[]) => {
    if (list.length > 1) list.sort(byPod);
  };
  for (const map of affinityPods) map.forEach(sortList);
  for (const map of antiAffinityPods) map.forEach(sortList);
  return { affinity, antiAffinity, selfMatch: matchesAll(affinity, incoming), affinityPods, matchingPods: matchingPods.sort(byPod), antiAffinityPods, existing, existingUnknown };
}

// What computeState reads: the incoming pod's namespace, labels and terms, the namespaces, and
// of each node its name, labels, pods and those of them with required anti-affinity. A fix's
// replay that uncordons a node has new facts for it with these four the same (fixes/patch.ts),
// and reuses the state instead of walking 100,000 pods again.
const stateFor = oncePerCycle(
  computeState,
  (ctx) => [
    JSON.stringify([ctx.pod.pod.metadata?.namespace ?? 'default', ctx.pod.pod.metadata?.labels ?? {}, ctx.pod.pod.spec?.affinity ?? {}]),
    ctx.snapshot.objects.namespaces,
    ctx.snapshot.gaps,
    ctx.nodes,
  ],
  (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && sameAsAffinityReadsThem(a[3] as readonly NodeFacts[], b[3] as readonly NodeFacts[]),
);

function sameAsAffinityReadsThem(a: readonly NodeFacts[], b: readonly NodeFacts[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  // Indexed: 5,000 nodes, in code V8 has not compiled yet.
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as NodeFacts;
    const y = b[i] as NodeFacts;
    if (x !== y && (x.name !== y.name || x.labels !== y.labels || x.pods !== y.pods || x.withRequiredAntiAffinity !== y.withRequiredAntiAffinity)) return false;
  }
  return true;
}

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
    const term = state.antiAffinity[i] as OwnTerm;
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

/** The existing pods whose anti-affinity rejects this pod are among those the pod's own anti-affinity rejects. */
function symmetric(anti: InterPodAffinityReason, existing: InterPodAffinityReason): boolean {
  if (anti.detail.kind !== 'podAntiAffinityConflict' || existing.detail.kind !== 'existingPodAntiAffinityConflict') return false;
  if (existing.detail.conflictCount > existing.detail.conflicts.length) return false;
  const named = new Set(anti.detail.terms.flatMap((t) => t.pods.map((p) => `${p.namespace}/${p.name}`)));
  return existing.detail.conflicts.every((c) => named.has(`${c.pod.namespace}/${c.pod.name}`));
}

function nothingToCheck(state: AffinityState): boolean {
  return state.affinity.length === 0 && state.antiAffinity.length === 0 && state.existing.size === 0 && state.existingUnknown.size === 0;
}

/** The existing pods' terms on this node's domains whose match turns on namespace labels the input lacks. */
function unknownExisting(state: AffinityState, node: NodeFacts): ExistingAntiAffinityConflict[] {
  if (state.existingUnknown.size === 0) return [];
  return Object.entries(node.labels).flatMap(([key, value]) => state.existingUnknown.get(pairKey(key, value)) ?? []);
}

const alwaysRead: CollectionName[] = ['nodes', 'pods'];
const withNamespaces: CollectionName[] = ['nodes', 'pods', 'namespaces'];

const rule: FilterRule<'InterPodAffinity', InterPodAffinityDetail> = {
  meta: { name: 'InterPodAffinity', kinds: ['podAffinityLabelMissing', 'podAffinityUnmatched', 'podAntiAffinityConflict', 'existingPodAntiAffinityConflict'] },
  // Existing pods' anti-affinity applies to every pod, so the pods are always read; the
  // namespaces when the pod's own terms select them by label. (An existing pod's term that needs
  // the pod's namespace labels makes only the nodes it reaches not checked: notCheckedOn.)
  needs: (pod) => (selectsNamespacesByLabel(pod.pod) ? withNamespaces : alwaysRead),
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
    if (anti && existing && symmetric(anti, existing)) reasons[reasons.indexOf(anti)] = { ...anti, detail: { ...anti.detail, symmetric: true } as InterPodAffinityDetail };
    return reasons;
  },
  notCheckedOn(ctx, node): NodeNotChecked | undefined {
    const unknown = unknownExisting(stateFor(ctx), node);
    if (unknown.length === 0) return undefined;
    const selectors = [...new Set(unknown.map((c) => c.term.namespaceSelector ?? ''))].sort();
    return { kind: 'namespaceLabelsUnread', namespace: ctx.pod.namespace, namespaceSelectors: selectors };
  },
};

export default rule;
