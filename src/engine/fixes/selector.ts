// Fix the pod's selector where it nearly names what the nodes carry: a nodeSelector entry, or
// a value of a required node-affinity expression, whose key or value differs from a node's
// label by a typo or a letter case. The change takes the node's spelling; the replay says
// which nodes that frees.
import type { V1NodeSelectorRequirement } from '@kubernetes/client-node';
import { certainlyBelow, similarity } from '../nearmiss/index.js';
import type { Reason } from '../reasons.js';
import { namesNode } from '../match/pins.js';
import type { SelectorEntryMiss } from '../rules/NodeAffinity.js';
import { TupleMemo } from '../tupleMemo.js';
import { carriesAll, failingOnlyOn, selectorOnlyKeys } from './nodes.js';
import type { Candidate, Change, FixInput } from './types.js';

/**
 * Close enough to be the same word mistyped, not another word: a difference of letter case,
 * spaces or look-alikes always; one typo in four characters at most ("gpu" is not "cpu").
 */
const nearEnough = 0.75;

export function near(wanted: string, actual: string): boolean {
  if (wanted === actual) return true;
  // Plainly unlike values are told apart without aligning them (a hostname pin against 5,000 hostnames).
  if (certainlyBelow(wanted, actual, nearEnough)) return false;
  return similarity(wanted, actual) >= nearEnough;
}

// The node's key when the pod's is a near miss of it (or the same), else nothing to fix here.
function nodeKey(miss: SelectorEntryMiss): { key: string; value: string } | undefined {
  if (miss.actual !== undefined) return { key: miss.key, value: miss.actual };
  const closest = miss.closest;
  return closest && near(miss.key, closest.key) ? { key: closest.key, value: closest.value } : undefined;
}

/** Whether `value` of the node label `key` names a node of the cluster that the pod may mean as it is (match/pins.ts). */
type Named = (key: string, value: string) => boolean;

function selectorChange(miss: SelectorEntryMiss, named: Named): Change | undefined {
  const node = nodeKey(miss);
  const wanted = miss.wanted[0];
  if (!node || wanted === undefined) return undefined;
  // A hostname some node carries is asked first: cheaper than the near-miss test it makes moot.
  const to = { key: node.key, value: !named(node.key, wanted) && near(wanted, node.value) ? node.value : wanted };
  if (to.key === miss.key && to.value === wanted) return undefined;
  return { kind: 'setNodeSelector', cause: 'NodeAffinity', from: { key: miss.key, value: wanted }, to };
}

function sameRequirement(r: V1NodeSelectorRequirement, miss: SelectorEntryMiss): boolean {
  return r.key === miss.key && r.operator === miss.operator && (r.values ?? []).join('\u0000') === miss.wanted.join('\u0000');
}

function affinityChange(input: FixInput, term: number, miss: SelectorEntryMiss, named: Named): Change | undefined {
  if (miss.operator !== 'In' && miss.operator !== 'Exists') return undefined;
  const node = nodeKey(miss);
  if (!node) return undefined;
  const expressions = input.ctx.pod.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[term]?.matchExpressions ?? [];
  const expression = expressions.findIndex((r) => sameRequirement(r, miss));
  const from = expressions[expression];
  if (!from) return undefined;
  // The value the node's is a near miss of, if any, takes the node's spelling.
  const nearValue = miss.wanted.filter((v) => !named(node.key, v) && near(v, node.value)).sort((a, b) => similarity(b, node.value) - similarity(a, node.value))[0];
  const values = (from.values ?? []).map((v) => (v === nearValue ? node.value : v));
  const to: V1NodeSelectorRequirement = { ...from, key: node.key, ...(from.values ? { values } : {}) };
  if (to.key === from.key && values.every((v, i) => v === from.values?.[i])) return undefined;
  const termAfter = expressions.map((r, i) => (i === expression ? to : r));
  return { kind: 'setAffinityExpression', cause: 'NodeAffinity', term, expression, from, to, termAfter };
}

function changesFor(input: FixInput, reasons: readonly Reason[], named: Named): { changes: Change[]; key: string } | null {
  const changes: Change[] = [];
  for (const reason of reasons) {
    const detail = reason.detail;
    if (detail.kind === 'nodeSelectorMismatch') {
      for (const miss of detail.misses) {
        const change = selectorChange(miss, named);
        if (change) changes.push(change);
      }
    }
    if (detail.kind === 'requiredAffinityMismatch') {
      // One term that this node nearly meets is enough: terms are ORed.
      const term = detail.terms.find((t) => t.misses.every((m) => affinityChange(input, t.index, m, named)));
      for (const miss of term?.misses ?? []) {
        const change = term ? affinityChange(input, term.index, miss, named) : undefined;
        if (change) changes.push(change);
      }
    }
  }
  return changes.length > 0 ? { changes, key: JSON.stringify(changes) } : null;
}

export function proposeSelectorFixes(input: FixInput): Candidate[] {
  const byChange = new Map<string, Candidate>();
  // Nodes of one NodeAffinity class share their reasons (rules/NodeAffinity.ts): the changes
  // are worked out once per list of reasons, not once for each of 4,500 nodes.
  const byReasons = new TupleMemo<{ changes: Change[]; key: string } | null>();
  const named: Named = (key, value) => namesNode(input.ctx.nodes, key, value);
  // A nodeSelector that only pins the pod to nodes by name: a node carrying its keys has another
  // name, never a fix (a pod pinned to a hostname, against 4,999 other hostnames).
  const spec = input.ctx.pod.pod.spec;
  const selectorKeys = selectorOnlyKeys(spec);
  const pinsOnly = selectorKeys !== undefined && selectorKeys.length > 0 && selectorKeys.every((key) => named(key, spec?.nodeSelector?.[key] ?? ''));
  // Nodes in a row most often share their list: the last answer is asked first.
  let last: { reasons: readonly Reason[]; found: { changes: Change[]; key: string } | null } | undefined;
  for (const node of failingOnlyOn(input.judgement, 'NodeAffinity')) {
    if (pinsOnly && carriesAll(input.ctx.nodes, node.name, selectorKeys)) continue;
    if (last?.reasons !== node.reasons) last = { reasons: node.reasons, found: byReasons.get(node.reasons, () => changesFor(input, node.reasons, named)) };
    const found = last.found;
    if (!found) continue;
    const known = byChange.get(found.key);
    if (known) known.nodes.push(node.name);
    else byChange.set(found.key, { changes: found.changes, nodes: [node.name] });
  }
  return [...byChange.values()];
}
