// NodeAffinity: what it checks, its messages (each selector entry the node misses, with the
// closest label) and short forms, and the scheduler's wordings.
import rule, { type SelectorEntryMiss } from '../../engine/rules/NodeAffinity.js';
import { filterWording, preFilterWording } from '../../engine/scheduler-message/catalog.js';
import { diffKinds } from '../differences.js';
import { quote } from '../format.js';
import { mark, plugin } from '../plugin.js';

function selectorMissText(m: SelectorEntryMiss): string {
  if (m.operator === 'emptyTerm') return 'an empty term matches no node';
  const wanted = m.wanted.length === 1 ? `${m.key}=${m.wanted[0] ?? ''}` : `${m.key} ${m.operator} (${m.wanted.join(', ')})`;
  if (m.actual !== undefined) {
    const kinds = m.closest?.valueDiff ? diffKinds(m.closest.valueDiff.kinds) : '';
    return `wants ${wanted}, node has ${m.key}=${m.actual}${kinds}`;
  }
  if (m.operator === 'NotIn' || m.operator === 'DoesNotExist') return `wants ${wanted}`;
  const closest = m.closest ? `; closest label ${m.closest.key}=${m.closest.value}${diffKinds(m.closest.keyDiff.kinds)}` : '';
  return `wants ${wanted}, node has no label ${quote(m.key)}${closest}`;
}

/** The first entry missed, as the node has it: `disktype=hdd`, or `no disktype`. */
function firstMiss(misses: readonly SelectorEntryMiss[]): string {
  const first = misses[0];
  if (!first) return 'no match';
  return first.actual !== undefined ? `${first.key}=${first.actual}` : `no ${first.key}`;
}

export default plugin(rule, {
  purpose: "the node's labels do not match the pod's nodeSelector or required node affinity",
  wordings: [
    // nodeaffinity/node_affinity.go ErrReasonPod (was ErrReason, the legacy MatchNodeSelector
    // predicate's words), errReasonEnforced (NodeAffinityArgs.addedAffinity), errReasonConflict.
    filterWording(/^node\(s\) didn't match Pod's node affinity\/selector$/, 'UnschedulableAndUnresolvable', 'v1.22+'),
    filterWording(/^node\(s\) didn't match Pod's node affinity$/, 'UnschedulableAndUnresolvable', 'v1.21'),
    filterWording(/^node\(s\) didn't match node selector$/, 'UnschedulableAndUnresolvable', '<= v1.20'),
    filterWording(/^node\(s\) didn't match scheduler-enforced node affinity$/, 'UnschedulableAndUnresolvable', 'v1.21+'),
    preFilterWording(/^pod affinity terms conflict$/, 'v1.24+ (matchFields metadata.name terms that name no common node)'),
  ],
  messages: {
    nodeSelectorMismatch: (d) => `nodeSelector: ${d.misses.map(selectorMissText).join('; ')}`,
    requiredAffinityMismatch: (d) =>
      `required node affinity: ${d.terms.map((t) => `term ${t.index + 1}: ${t.misses.map(selectorMissText).join('; ')}`).join(' | ')}`,
    outsidePreFilterNodes: (d) => `not among the nodes the pod's matchFields name (${d.requested.join(', ')})`,
    affinityTermsConflict: () => "the pod's node affinity terms name no node at all (conflicting matchFields)",
  },
  short: {
    nodeSelectorMismatch: (d) => firstMiss(d.misses),
    requiredAffinityMismatch: (d) => firstMiss(d.terms.flatMap((t) => t.misses)),
    outsidePreFilterNodes: () => 'not named',
    affinityTermsConflict: mark,
  },
});
