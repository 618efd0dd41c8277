// Fix the pod's selector where it nearly names what the nodes carry: a nodeSelector entry, or
// a value of a required node-affinity expression, whose key or value differs from a node's
// label by a typo or a letter case. The change takes the node's spelling; the replay says
// which nodes that frees.
import type { V1NodeSelectorRequirement } from '@kubernetes/client-node';
import { similarity } from '../nearmiss/index.js';
import type { SelectorEntryMiss } from '../rules/NodeAffinity.js';
import { failingOnlyOn } from './nodes.js';
import type { Candidate, Change, FixInput } from './types.js';

/** Close enough to be the same word mistyped, not another word. */
const nearEnough = 0.5;

function near(wanted: string, actual: string): boolean {
  return wanted === actual || similarity(wanted, actual) >= nearEnough;
}

function selectorChange(miss: SelectorEntryMiss): Change | undefined {
  const closest = miss.closest;
  const wanted = miss.wanted[0];
  if (!closest || wanted === undefined || !near(miss.key, closest.key) || !near(wanted, closest.value)) return undefined;
  return { kind: 'setNodeSelector', cause: 'NodeAffinity', from: { key: miss.key, value: wanted }, to: { key: closest.key, value: closest.value } };
}

function sameRequirement(r: V1NodeSelectorRequirement, miss: SelectorEntryMiss): boolean {
  return r.key === miss.key && r.operator === miss.operator && (r.values ?? []).join('\u0000') === miss.wanted.join('\u0000');
}

function affinityChange(input: FixInput, term: number, miss: SelectorEntryMiss): Change | undefined {
  if (miss.operator !== 'In' || miss.actual === undefined) return undefined;
  const actual = miss.actual;
  const from = miss.wanted.filter((v) => near(v, actual)).sort((a, b) => similarity(b, actual) - similarity(a, actual))[0];
  if (from === undefined) return undefined;
  const expressions = input.ctx.pod.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[term]?.matchExpressions ?? [];
  const expression = expressions.findIndex((r) => sameRequirement(r, miss));
  const requirement = expressions[expression];
  if (!requirement) return undefined;
  const result = { ...requirement, values: (requirement.values ?? []).map((v) => (v === from ? actual : v)) };
  return { kind: 'setAffinityValue', cause: 'NodeAffinity', term, expression, key: miss.key, from, to: actual, result };
}

export function proposeSelectorFixes(input: FixInput): Candidate[] {
  const byChange = new Map<string, Candidate>();
  for (const node of failingOnlyOn(input.judgement, 'NodeAffinity')) {
    const changes: Change[] = [];
    for (const reason of node.reasons) {
      const detail = reason.detail;
      if (detail.kind === 'nodeSelectorMismatch') {
        for (const miss of detail.misses) {
          const change = selectorChange(miss);
          if (change) changes.push(change);
        }
      }
      if (detail.kind === 'requiredAffinityMismatch') {
        // One term that this node nearly meets is enough: terms are ORed.
        const term = detail.terms.find((t) => t.misses.every((m) => affinityChange(input, t.index, m)));
        for (const miss of term?.misses ?? []) {
          const change = term ? affinityChange(input, term.index, miss) : undefined;
          if (change) changes.push(change);
        }
      }
    }
    if (changes.length === 0) continue;
    const key = JSON.stringify(changes);
    const known = byChange.get(key);
    if (known) known.nodes.push(node.name);
    else byChange.set(key, { changes, nodes: [node.name] });
  }
  return [...byChange.values()];
}
