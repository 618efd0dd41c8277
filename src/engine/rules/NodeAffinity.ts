// NodeAffinity: spec.nodeSelector AND spec.affinity.nodeAffinity.requiredDuringScheduling...
// Each unmet nodeSelector entry and each unmet requirement of each term is reported, with the
// node's closest label, so that a typo in a key or value is shown rather than guessed.
import type { V1NodeSelectorRequirement, V1NodeSelectorTerm, V1PodSpec } from '@kubernetes/client-node';
import type { FilterRule, NodeFacts, RuleReason } from '../model.js';
import { evaluateTerm, labelKeysAsked, matchesNodeRequirement } from '../match/nodeSelector.js';
import { compareText, isNearMiss, mayBeNearMiss, nearest, type Nearest, type TextDiff } from '../nearmiss/index.js';
import { byKeyList, labelKeys } from '../match/labelKeys.js';
import { TupleMemo } from '../tupleMemo.js';
import { hostnameKey, pinsToNodes } from '../match/pins.js';

/** A label of the node that nearly matches what the pod wants; diffs only where they are near misses. */
export interface LabelNearMiss {
  key: string;
  value: string;
  keyDiff: TextDiff;
  valueDiff?: TextDiff;
}

export interface SelectorEntryMiss {
  key: string;
  /** The wanted value (nodeSelector) or values (requirement). */
  wanted: string[];
  operator: string;
  /** The node's value for exactly this key, when it has the key. */
  actual?: string;
  /**
   * Only for a near miss (isNearMiss): when the node lacks the key, its label whose key nearly
   * matches; when it has it, its value if it nearly matches a wanted one. `ssd` vs `hdd` is not.
   */
  closest?: LabelNearMiss;
  /**
   * The pod is pinned by name to other nodes of the cluster (a kubernetes.io/hostname or a
   * metadata.name that some node carries, match/pins.ts): this node is another machine, its own
   * name in `actual` no slip to compare.
   */
  pinnedElsewhere?: true;
}

export type NodeAffinityDetail =
  | { kind: 'nodeSelectorMismatch'; misses: SelectorEntryMiss[] }
  | { kind: 'requiredAffinityMismatch'; terms: { index: number; misses: SelectorEntryMiss[] }[] }
  | { kind: 'outsidePreFilterNodes'; requested: string[] }
  | { kind: 'affinityTermsConflict' };

type NodeAffinityReason = RuleReason<'NodeAffinity', NodeAffinityDetail>;

// The label whose key nearly matches a wanted one depends on the node's keys alone: looked for
// once per wanted key and list of keys, not once per node.
const nearKeys = byKeyList<Nearest<string> | null>();

/** The node's key most like `wanted` (the earliest on a tie), when it is a near miss. */
function closestNearKey(wanted: string, labels: Record<string, string>): Nearest<string> | undefined {
  const keys = labelKeys(labels);
  const found = nearKeys(wanted, keys, () => {
    // Keys plainly unlike the wanted one (bench/candidate against kubernetes.io/arch) are not
    // aligned: none of them can be the near miss.
    if (!keys.keys.some((key) => mayBeNearMiss(wanted, key))) return null;
    const closest = nearest(wanted, keys.keys, (key) => key);
    return closest && isNearMiss(closest.diff) ? closest : null;
  });
  return found ?? undefined;
}

// The node's value against the wanted ones depends on the value alone: most of 5,000 nodes
// share a few values, so it is compared once per requirement (the pod's own object) and value.
const nearValues = new WeakMap<V1NodeSelectorRequirement, Map<string, LabelNearMiss | null>>();

function closestNearValue(requirement: V1NodeSelectorRequirement, actual: string): LabelNearMiss | undefined {
  let byValue = nearValues.get(requirement);
  if (!byValue) nearValues.set(requirement, (byValue = new Map()));
  let found = byValue.get(actual);
  if (found === undefined) {
    found = null;
    // Values plainly unlike the node's (a pod pinned to one hostname, against 5,000 others)
    // are not aligned character by character: none of them can be the near miss.
    const values = requirement.values ?? [];
    const closestValue = requirement.operator === 'In' && values.some((v) => mayBeNearMiss(v, actual)) ? nearest(actual, values, (v) => v) : undefined;
    if (closestValue) {
      const valueDiff = compareText(closestValue.item, actual);
      if (isNearMiss(valueDiff)) found = { key: requirement.key, value: actual, keyDiff: compareText(requirement.key, requirement.key), valueDiff };
    }
    byValue.set(actual, found);
  }
  return found ?? undefined;
}

// The nodeSelector as requirements, once per pod's selector object rather than once per node.
const selectorRequirements = new WeakMap<Record<string, string>, V1NodeSelectorRequirement[]>();

function requirementsOf(selector: Record<string, string>): V1NodeSelectorRequirement[] {
  let requirements = selectorRequirements.get(selector);
  if (!requirements) {
    requirements = Object.entries(selector).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
    selectorRequirements.set(selector, requirements);
  }
  return requirements;
}

function describeMiss(requirement: V1NodeSelectorRequirement, labels: Record<string, string>, field: 'label' | 'field', nodeName: string, nodes: readonly NodeFacts[]): SelectorEntryMiss {
  const values = requirement.values ?? [];
  const source = field === 'field' ? { 'metadata.name': nodeName } : labels;
  const actual = Object.hasOwn(source, requirement.key) ? source[requirement.key] : undefined;
  const miss: SelectorEntryMiss = { key: requirement.key, wanted: values, operator: requirement.operator };
  if (actual !== undefined) {
    miss.actual = actual;
    // Pinned to a node of the cluster by name, the pod means that node: the others' names are
    // not near misses of it, and 5,000 of them are not compared (match/pins.ts).
    if (pinsToNodes(requirement, field, nodes)) {
      miss.pinnedElsewhere = true;
      return miss;
    }
    const closest = closestNearValue(requirement, actual);
    if (closest) miss.closest = { ...closest };
    return miss;
  }
  if (requirement.operator === 'In' || requirement.operator === 'Exists' || requirement.operator === 'Gt' || requirement.operator === 'Lt') {
    const closestKey = closestNearKey(requirement.key, source);
    if (closestKey) {
      const key = closestKey.item;
      const value = source[key] ?? '';
      const wantedValue = values.length > 0 ? (nearest(value, values, (v) => v)?.item ?? values[0] ?? '') : undefined;
      miss.closest = { key, value, keyDiff: closestKey.diff };
      if (wantedValue !== undefined) miss.closest.valueDiff = compareText(wantedValue, value);
    }
  }
  return miss;
}

function unmetTerm(term: V1NodeSelectorTerm, labels: Record<string, string>, node: NodeFacts, nodes: readonly NodeFacts[]): SelectorEntryMiss[] {
  const result = evaluateTerm(term, node.node);
  if (result.matched) return [];
  if (result.requirements.length === 0) return [{ key: '', wanted: [], operator: 'emptyTerm' }];
  return result.requirements.filter((r) => !r.matched).map((r) => describeMiss(r.requirement, labels, r.field, node.name, nodes));
}

// PreFilter narrows the nodes to those named by `matchFields metadata.name In` when every term
// has one (nodeaffinity.go PreFilter); terms are ORed, requirements in a term intersected.
function preFilterNodeNames(terms: V1NodeSelectorTerm[]): Set<string> | undefined {
  let union: Set<string> | undefined;
  for (const term of terms) {
    let names: Set<string> | undefined;
    for (const requirement of term.matchFields ?? []) {
      if (requirement.key !== 'metadata.name' || requirement.operator !== 'In') continue;
      const values = new Set(requirement.values ?? []);
      names = names ? new Set([...names].filter((n) => values.has(n))) : values;
    }
    if (!names) return undefined;
    union = new Set([...(union ?? []), ...names]);
  }
  return union;
}

function reasonsOn(spec: V1PodSpec | undefined, labels: Record<string, string>, node: NodeFacts, nodes: readonly NodeFacts[]): NodeAffinityReason[] {
  const reasons: NodeAffinityReason[] = [];
  const selector = spec?.nodeSelector;
  // A loop, not filter and map: with a pod pinned to a hostname every node is its own class,
  // and this runs 5,000 times in code V8 has not compiled yet.
  const selectorMisses: SelectorEntryMiss[] = [];
  const requirements = selector ? requirementsOf(selector) : [];
  for (let i = 0; i < requirements.length; i++) {
    const requirement = requirements[i] as V1NodeSelectorRequirement;
    if (!matchesNodeRequirement(requirement, labels)) selectorMisses.push(describeMiss(requirement, labels, 'label', node.name, nodes));
  }
  if (selectorMisses.length > 0) {
    reasons.push({ plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', detail: { kind: 'nodeSelectorMismatch', misses: selectorMisses } });
  }
  const required = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) {
    const terms = required.nodeSelectorTerms.map((term, index) => ({ index, misses: unmetTerm(term, labels, node, nodes) }));
    if (terms.every((t) => t.misses.length > 0)) {
      reasons.push({ plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', detail: { kind: 'requiredAffinityMismatch', terms } });
    }
  }
  return reasons;
}

// For one pod, 5,000 nodes fall into a few classes: what the filter reads of a node's labels is
// its values of the keys the pod asks about and, where one is missing, its list of keys (the
// near key looked for) and that near key's value. The reasons are worked out once per class and
// shared by its nodes (callers only read them; the fix generators group nodes by them). A term
// with matchFields reads the node's name: no classes then; nor for a pod that asks about
// kubernetes.io/hostname, which the kubelet sets to its node's name: every node would be a class
// of its own, and keeping 5,000 of them only costs. By the pod's spec object and the list
// of nodes (whether a hostname pins the pod to one of them depends on the list), so that a fix's
// patched pod or patched nodes have their own.
interface Classes {
  asked: string[];
  memo: TupleMemo<NodeAffinityReason[]>;
}

const classesByNodes = new WeakMap<readonly NodeFacts[], WeakMap<V1PodSpec, Classes | null>>();

function classesOf(spec: V1PodSpec, nodes: readonly NodeFacts[]): Classes | null {
  let bySpec = classesByNodes.get(nodes);
  if (!bySpec) classesByNodes.set(nodes, (bySpec = new WeakMap()));
  let found = bySpec.get(spec);
  if (found === undefined) {
    const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    const byName = terms.some((t) => (t.matchFields ?? []).length > 0);
    const asked = byName ? [] : labelKeysAsked(spec);
    found = byName || asked.includes(hostnameKey) ? null : { asked, memo: new TupleMemo() };
    bySpec.set(spec, found);
  }
  return found;
}

const missing = Symbol('missing');

/** What of the labels the reasons depend on, as a list for the memo. */
function classOf(asked: readonly string[], labels: Record<string, string>): unknown[] {
  const parts: unknown[] = [];
  let keys: string | undefined;
  for (let i = 0; i < asked.length; i++) {
    const key = asked[i] as string;
    if (Object.hasOwn(labels, key)) {
      parts.push(labels[key]);
      continue;
    }
    keys ??= labelKeys(labels).joined;
    const near = closestNearKey(key, labels);
    parts.push(missing, near && Object.hasOwn(labels, near.item) ? labels[near.item] : missing);
  }
  if (keys !== undefined) parts.push(keys);
  return parts;
}

const rule: FilterRule<'NodeAffinity', NodeAffinityDetail> = {
  meta: { name: 'NodeAffinity', kinds: ['nodeSelectorMismatch', 'requiredAffinityMismatch', 'outsidePreFilterNodes', 'affinityTermsConflict'], narrowsNodes: true },
  needs: () => [],
  preFilter({ pod }) {
    const required = pod.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    // Neither a nodeSelector nor required node affinity: nothing to filter (upstream's Skip).
    if (!required && !pod.pod.spec?.nodeSelector) return { skip: true };
    const terms = required?.nodeSelectorTerms ?? [];
    if (terms.length === 0) return {};
    const nodeNames = preFilterNodeNames(terms);
    if (!nodeNames) return {};
    if (nodeNames.size === 0) {
      return { reasons: [{ plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', detail: { kind: 'affinityTermsConflict' } }] };
    }
    return { nodeNames, outsideDetail: { kind: 'outsidePreFilterNodes', requested: [...nodeNames].sort() } };
  },
  filter({ pod, nodes }, node) {
    const spec = pod.pod.spec;
    const classes = spec && classesOf(spec, nodes);
    if (!classes) return reasonsOn(spec, node.labels, node, nodes);
    return classes.memo.get(classOf(classes.asked, node.labels), () => reasonsOn(spec, node.labels, node, nodes));
  },
};

export default rule;
