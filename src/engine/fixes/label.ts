// Label the nodes: on nodes that pass every other filter and lack the label, the labels the
// pod's nodeSelector and one of its required node-affinity terms ask for (`kubectl label node`), and
// the removal of labels a NotIn or DoesNotExist expression forbids. Gt/Lt and matchFields are
// not proposed: no label value is "the" answer there.
import type { V1NodeSelectorRequirement, V1NodeSelectorTerm } from '@kubernetes/client-node';
import type { NodeVerdict } from '../judge.js';
import type { NodeFacts } from '../model.js';
import { labelKeys, byKeyList } from '../match/labelKeys.js';
import { labelKeysAsked, matchesNodeRequirement } from '../match/nodeSelector.js';
import { isLabelKey, isLabelValue } from './labelSyntax.js';
import { carriesAll, failingOnlyOn, nodeNamed, selectorOnlyKeys } from './nodes.js';
import { near } from './selector.js';
import type { Candidate, Change, FixInput } from './types.js';

interface Labelling {
  set: Record<string, string>;
  remove: string[];
}

function satisfy(requirement: V1NodeSelectorRequirement, labels: Record<string, string>, into: Labelling): boolean {
  if (matchesNodeRequirement(requirement, labels)) return true;
  // A node that says otherwise (nvidia.com/gpu.present=false) is what it says: relabelling it
  // would only lie to the scheduler. A missing label is the one worth adding. Asked first: a
  // pod pinned to one hostname is refused so by 4,999 nodes, without a near-miss search each.
  if (requirement.operator === 'In' && Object.hasOwn(labels, requirement.key)) return false;
  if (!isLabelKey(requirement.key) || labelNearMiss(requirement, labels)) return false;
  switch (requirement.operator) {
    case 'In': {
      const value = requirement.values?.[0];
      if (value === undefined || !isLabelValue(value)) return false;
      into.set[requirement.key] = value;
      return true;
    }
    case 'Exists':
      into.set[requirement.key] = '';
      return true;
    case 'NotIn':
    case 'DoesNotExist':
      // Two expressions may forbid one key: it is one label to remove.
      if (!into.remove.includes(requirement.key)) into.remove.push(requirement.key);
      return true;
    default:
      return false;
  }
}

// The node spells this key, or a near miss of it, its own way: the fix is the pod's selector
// (selector.ts), not relabelling a node that other workloads may select as it is.
function labelNearMiss(requirement: V1NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const actual = Object.hasOwn(labels, requirement.key) ? labels[requirement.key] : undefined;
  if (actual !== undefined) return requirement.operator === 'In' && (requirement.values ?? []).some((v) => v !== actual && near(v, actual));
  const keys = labelKeys(labels);
  return keyNearMisses(requirement.key, keys, () => keys.keys.some((k) => near(k, requirement.key)));
}

// Whether some key of the node nearly spells a wanted one depends on its keys alone.
const keyNearMisses = byKeyList<boolean>();

function termLabelling(term: V1NodeSelectorTerm, labels: Record<string, string>, base: Labelling): Labelling | undefined {
  if ((term.matchFields ?? []).length > 0 || (term.matchExpressions ?? []).length === 0) return undefined;
  const out: Labelling = { set: { ...base.set }, remove: [...base.remove] };
  return (term.matchExpressions ?? []).every((r) => satisfy(r, labels, out)) ? out : undefined;
}

interface Found {
  labelling: Labelling;
  /** The labelling as text: nodes with the same one are one candidate. */
  key: string;
}

function size(l: Labelling): number {
  return Object.keys(l.set).length + l.remove.length;
}

function labellingFor(input: FixInput, node: NodeFacts): Labelling | undefined {
  const spec = input.ctx.pod.pod.spec;
  const base: Labelling = { set: {}, remove: [] };
  for (const [key, value] of Object.entries(spec?.nodeSelector ?? {})) satisfy({ key, operator: 'In', values: [value] }, node.labels, base);
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms) return base;
  // The term that needs the fewest labels changed on this node.
  const options = terms.map((t) => termLabelling(t, node.labels, base)).filter((l): l is Labelling => l !== undefined);
  return options.sort((a, b) => size(a) - size(b))[0];
}

export function proposeLabels(input: FixInput): Candidate[] {
  const byLabelling = new Map<string, { labelling: Labelling; nodes: string[] }>();
  // A node's labelling depends on its keys and on its values of the keys the pod asks about:
  // worked out once per such combination, not once for each of 4,500 nodes.
  const spec = input.ctx.pod.pod.spec;
  const asked = labelKeysAsked(spec);
  // By the node's list of keys (a string the nodes with the same keys share, so it is hashed
  // once, not built and hashed again for each of 4,500 nodes), then by its values of the asked keys.
  const seen = new Map<string, Map<string, Found | undefined>>();
  const ofNode = (verdict: NodeVerdict): Found | undefined => {
    // A PreFilter narrowing by node name is not a label.
    if (verdict.reasons.some((r) => r.detail.kind === 'outsidePreFilterNodes')) return undefined;
    const node = nodeNamed(input.ctx.nodes, verdict.name);
    if (!node) return undefined;
    // The key list matters only where an asked key is missing (labelNearMiss looks at the keys then).
    const values = asked.map((key) => (Object.hasOwn(node.labels, key) ? (node.labels[key] ?? '') : null));
    const keys = values.includes(null) ? labelKeys(node.labels).joined : '';
    let byValues = seen.get(keys);
    if (!byValues) seen.set(keys, (byValues = new Map()));
    const memo = JSON.stringify(values);
    if (!byValues.has(memo)) {
      const labelling = labellingFor(input, node);
      byValues.set(memo, labelling && size(labelling) > 0 ? { labelling, key: JSON.stringify([Object.entries(labelling.set).sort(), [...labelling.remove].sort()]) } : undefined);
    }
    return byValues.get(memo);
  };
  // Nodes of one NodeAffinity class share their reasons (rules/NodeAffinity.ts), and the class
  // holds what the labelling reads (the values of the asked keys, the key list where one is
  // missing): worked out once per list of reasons. Reasons made for one node are its own.
  const byReasons = new Map<NodeVerdict['reasons'], Found | undefined>();
  // Without required terms the labelling is the nodeSelector's keys the node lacks: a node that
  // carries each (a pod pinned to a hostname, against 4,999 other hostnames) has none to add.
  // Whether it carries them is one of the values its class holds: asked for the first node of a
  // class, not for every node of it, and before the class is kept, so that thousands of classes
  // of one pinned-elsewhere node each are not kept at all.
  const selectorKeys = selectorOnlyKeys(spec);
  for (const verdict of failingOnlyOn(input.judgement, 'NodeAffinity')) {
    let found: Found | undefined;
    if (byReasons.has(verdict.reasons)) found = byReasons.get(verdict.reasons);
    else {
      if (selectorKeys && carriesAll(input.ctx.nodes, verdict.name, selectorKeys)) continue;
      found = ofNode(verdict);
      byReasons.set(verdict.reasons, found);
    }
    if (!found) continue;
    const { labelling, key } = found;
    const known = byLabelling.get(key);
    if (known) known.nodes.push(verdict.name);
    else byLabelling.set(key, { labelling, nodes: [verdict.name] });
  }
  return [...byLabelling.values()]
    .sort((a, b) => b.nodes.length - a.nodes.length)
    .slice(0, 2)
    .map(({ labelling, nodes }): Candidate => {
      const change: Change = { kind: 'labelNodes', cause: 'NodeAffinity', nodes, set: labelling.set, remove: [...new Set(labelling.remove)] };
      return { changes: [change], nodes };
    });
}
