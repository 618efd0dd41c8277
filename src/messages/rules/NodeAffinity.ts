// NodeAffinity: what it checks, its messages (each selector entry the node misses, with the
// closest label) and short forms, and the scheduler's wordings.
import rule, { type SelectorEntryMiss } from '../../engine/rules/NodeAffinity.js';
import { filterWording, preFilterWording } from '../../engine/scheduler-message/catalog.js';
import { diffKinds, diffKindsBriefly } from '../differences.js';
import { quote, visible } from '../format.js';
import { selectorBlock, wholeNearMiss } from '../nearMissBlocks.js';
import { plugin, verb, type Clause } from '../plugin.js';

function selectorMissText(m: SelectorEntryMiss): string {
  if (m.operator === 'emptyTerm') return 'an empty term matches no node';
  const wanted = m.wanted.length === 1 ? `${m.key}=${m.wanted[0] ?? ''}` : `${m.key} ${m.operator} (${m.wanted.join(', ')})`;
  // Nodes other than the one the pod names are told alike, so that they group as one line.
  if (m.pinnedElsewhere) return `wants ${wanted}: pinned by name to ${m.wanted.length === 1 ? 'another node' : 'other nodes'}`;
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
  if (first.pinnedElsewhere) return `not ${first.wanted.join(', ')}`;
  return first.actual !== undefined ? `${first.key}=${first.actual}` : `no ${first.key}`;
}

function wantedText(m: SelectorEntryMiss): string {
  const key = visible(m.key);
  return m.wanted.length === 1 && m.operator === 'In' ? `${key}=${visible(m.wanted[0] ?? '')}` : `${key} ${m.operator}${m.wanted.length > 0 ? ` (${m.wanted.map(visible).join(', ')})` : ''}`;
}

/** The term a node comes closest to satisfying: fewest unmet requirements, then the first. */
function closestTerm<T extends { misses: readonly SelectorEntryMiss[] }>(terms: readonly T[]): T | undefined {
  return terms.reduce<T | undefined>((best, t) => (!best || t.misses.length < best.misses.length ? t : best), undefined);
}

/** What the nodes have instead of the wanted entry: `has disktype=hdd`, `have no label disktype`. */
function insteadText(n: number, misses: readonly SelectorEntryMiss[]): string {
  const first = misses[0];
  if (!first || first.operator === 'emptyTerm') return '';
  if (first.operator === 'NotIn' || first.operator === 'DoesNotExist') return '';
  // Their own names: the brief form ("do not match its nodeSelector kubernetes.io/hostname=x") says it all.
  if (first.pinnedElsewhere) return '';
  const values = [...new Set(misses.map((m) => m.actual))];
  if (values.length === 1 && values[0] === undefined) return ` (${verb(n, 'has', 'have')} no label ${visible(first.key)})`;
  // A value that nearly matches says how it differs: `storage-tier=nvme (a non-breaking space)`.
  const near = (v: string) => {
    const diff = misses.find((m) => m.actual === v)?.closest?.valueDiff;
    return diff ? diffKindsBriefly(diff.kinds) : '';
  };
  const shown = values.slice(0, 3).map((v) => (v === undefined ? 'no label' : `${visible(first.key)}=${visible(v)}${near(v)}`));
  return ` (${verb(n, 'has', 'have')} ${shown.join(', ')}${values.length > 3 ? ', ...' : ''})`;
}

function selectorClause(what: string, n: number, misses: readonly SelectorEntryMiss[]): Clause {
  const first = misses[0];
  const brief = `${verb(n, 'does', 'do')} not match its ${what}${first ? ` ${wantedText(first)}` : ''}`;
  return { text: `${brief}${insteadText(n, misses)}`, brief };
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
    // Terms are ORed: the node is told against the term it comes closest to, the others counted.
    requiredAffinityMismatch: (d) => {
      const t = closestTerm(d.terms);
      if (!t) return 'required node affinity: no term';
      const others = d.terms.length > 1 ? ` (closest of ${d.terms.length} terms; the others miss too)` : '';
      return `required node affinity term ${t.index + 1}${others}: ${t.misses.map(selectorMissText).join('; ')}`;
    },
    outsidePreFilterNodes: (d) => `not among the nodes the pod's matchFields name (${d.requested.join(', ')})`,
    affinityTermsConflict: () => "the pod's node affinity terms name no node at all (conflicting matchFields)",
  },
  short: {
    nodeSelectorMismatch: (d) => firstMiss(d.misses),
    requiredAffinityMismatch: (d) => firstMiss(closestTerm(d.terms)?.misses ?? []),
    outsidePreFilterNodes: () => 'not named',
    affinityTermsConflict: () => 'terms conflict',
  },
  headline: {
    nodeSelectorMismatch: {
      key: (d) => (d.misses[0] ? wantedText(d.misses[0]) : ''),
      says: (n, details) => selectorClause('nodeSelector', n, details.flatMap((d) => d.misses.slice(0, 1))),
    },
    requiredAffinityMismatch: {
      key: (d) => {
        const term = closestTerm(d.terms);
        return term?.misses[0] ? `${term.index}|${wantedText(term.misses[0])}` : '';
      },
      says: (n, details) => selectorClause('required node affinity', n, details.flatMap((d) => closestTerm(d.terms)?.misses.slice(0, 1) ?? [])),
    },
    outsidePreFilterNodes: { key: () => '', says: (n) => ({ text: `${verb(n, 'is', 'are')} not among the nodes its matchFields name` }) },
  },
  nearMisses: {
    nodeSelectorMismatch: {
      blocks: (d) => d.misses.flatMap((m) => selectorBlock(m, 'nodeSelector') ?? []),
      toldWhole: (d) => d.misses.length > 0 && d.misses.every(wholeNearMiss),
    },
    // A node is compared with its closest term only (terms are ORed); a lone term can be told whole.
    requiredAffinityMismatch: {
      blocks: (d) => {
        const term = closestTerm(d.terms);
        return (term?.misses ?? []).flatMap((m) => selectorBlock(m, `affinity term ${(term?.index ?? 0) + 1}`) ?? []);
      },
      toldWhole: (d) => {
        const [only, ...more] = d.terms;
        return only !== undefined && more.length === 0 && only.misses.length > 0 && only.misses.every(wholeNearMiss);
      },
    },
  },
});
