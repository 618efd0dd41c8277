// Messages for the node-level rules: NodeUnschedulable, NodeName, TaintToleration,
// NodeAffinity, NodePorts, NodeResourcesFit.
import { formatTaint, formatToleration } from '../../engine/match/tolerations.js';
import type { SelectorEntryMiss } from '../../engine/rules/NodeAffinity.js';
import type { ComparisonMiss, TolerationMismatch } from '../../engine/rules/TaintToleration.js';
import { list, quantity, quote } from '../format.js';
import type { MessageTable } from '../types.js';

function mismatchText(m: TolerationMismatch): string {
  switch (m.field) {
    case 'key':
      return `key ${quote(m.wanted)} vs ${quote(m.actual)}${diffKinds(m.diff.kinds)}`;
    case 'value':
      return m.taintHasNoValue
        ? `value ${quote(m.wanted)} but the taint has no value (use operator Exists, or drop the value)`
        : `value ${quote(m.wanted)} vs ${quote(m.actual)}${diffKinds(m.diff.kinds)}`;
    case 'effect':
      return m.preferNoScheduleAgainstNoSchedule
        ? `effect PreferNoSchedule does not tolerate NoSchedule`
        : `effect ${m.wanted} vs ${m.actual}`;
    case 'operator':
      // validation.go: Unsupported value. Equal and Exists always; Gt and Lt since v1.35 with the gate.
      return `operator ${quote(m.wanted)}, which the API server rejects (it accepts Equal and Exists, and Gt and Lt with the TaintTolerationComparisonOperators gate), so no scheduler tolerates anything with it`;
  }
}

const integerProblem = {
  notCanonicalInteger: 'is not a decimal integer in canonical form (no "+", no leading zero, no spaces, no decimals)',
  outOfInt64Range: 'does not fit in a 64-bit integer',
} as const;

/** Why a Gt/Lt toleration, which applies to the taint by key and effect, does not tolerate it. */
function comparisonText(c: ComparisonMiss): string {
  const head = `toleration #${c.index + 1} ${formatToleration(c.toleration)}`;
  const o = c.outcome;
  if (o.kind === 'invalidValue') {
    const whose = o.side === 'taint' ? "the taint's value" : "the toleration's value";
    return `${head} compares integers, and ${whose} ${quote(o.value)} ${integerProblem[o.problem]}, so ${c.operator} never matches it`;
  }
  const relation = c.operator === 'Gt' ? 'greater than' : 'less than';
  return `${head} needs a taint value ${relation} ${o.tolerationValue}, and the node's is ${o.taintValue}`;
}

/** A few words for the summary sentence: "800 is not greater than 950". */
export function comparisonShort(c: ComparisonMiss): string {
  const o = c.outcome;
  if (o.kind === 'invalidValue') return `${o.side === 'taint' ? 'taint' : 'toleration'} value ${quote(o.value)} is not an integer ${c.operator} can compare`;
  return `${o.taintValue} is not ${c.operator === 'Gt' ? 'greater' : 'less'} than ${o.tolerationValue}`;
}

// KEP-5471: alpha since v1.35 and still off by default in v1.37. The pod passed validation, so
// the API server has the gate on; a scheduler without it tolerates nothing with Gt or Lt.
const comparisonGateNote =
  'Gt and Lt also need the TaintTolerationComparisonOperators feature gate on kube-scheduler, alpha since v1.35 and off by default; without it the scheduler tolerates nothing with them';

const kindWords: Record<string, string> = {
  case: 'letter case',
  leadingWhitespace: 'leading white space',
  trailingWhitespace: 'trailing white space',
  invisibleCharacter: 'an invisible character',
  nonBreakingSpace: 'a non-breaking space',
  lookAlike: 'a look-alike character',
  unicodeNormalization: 'Unicode normalization',
  other: 'different characters',
};

export function diffKinds(kinds: readonly string[]): string {
  // A plain typo needs no label; the subtle kinds (case, spaces, look-alikes) do.
  const words = kinds.filter((k) => k !== 'other').map((k) => kindWords[k] ?? k);
  return words.length > 0 ? ` (differs by ${list(words)})` : '';
}

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

export const messages: MessageTable<
  | 'nodeCordoned'
  | 'nodeNameMismatch'
  | 'untoleratedTaint'
  | 'nodeSelectorMismatch'
  | 'requiredAffinityMismatch'
  | 'outsidePreFilterNodes'
  | 'affinityTermsConflict'
  | 'hostPortInUse'
  | 'insufficientResource'
> = {
  nodeCordoned: () => 'node is cordoned (spec.unschedulable) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule',
  nodeNameMismatch: (d) => `pod asks for node ${quote(d.wanted)}`,
  untoleratedTaint: (d) => {
    const parts = [`taint ${formatTaint(d.taint)} is not tolerated`];
    if (d.nearest) parts.push(`nearest toleration ${formatToleration(d.nearest.toleration)} misses by ${d.nearest.mismatches.map(mismatchText).join('; ')}`);
    if (d.comparisons) parts.push(...d.comparisons.map(comparisonText), comparisonGateNote);
    return parts.join('; ');
  },
  nodeSelectorMismatch: (d) => `nodeSelector: ${d.misses.map(selectorMissText).join('; ')}`,
  requiredAffinityMismatch: (d) =>
    `required node affinity: ${d.terms.map((t) => `term ${t.index + 1}: ${t.misses.map(selectorMissText).join('; ')}`).join(' | ')}`,
  outsidePreFilterNodes: (d) => `not among the nodes the pod's matchFields name (${d.requested.join(', ')})`,
  affinityTermsConflict: () => "the pod's node affinity terms name no node at all (conflicting matchFields)",
  hostPortInUse: (d) =>
    `host port ${d.wanted.port}/${d.wanted.protocol} on ${d.wanted.hostIP} is taken by ${d.usedBy.map((u) => `${u.namespace}/${u.name}`).join(', ')}`,
  insufficientResource: (d) => {
    if (d.resource === 'pods') return `too many pods: ${d.used} of ${d.allocatable} allowed already run`;
    const q = (n: bigint) => quantity(d.resource, n);
    const head = `insufficient ${d.resource}: pod asks ${q(d.requested)}, node has ${q(d.free)} free of ${q(d.allocatable)} (short by ${q(d.short)})`;
    return d.exceedsAllocatable ? `${head}; more than the node's whole allocatable, no eviction can help` : head;
  },
};
