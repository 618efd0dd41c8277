// TaintToleration: what it checks, its messages (the nearest toleration and how it misses, or
// the Gt/Lt comparison that does not hold) and short forms, and the scheduler's wordings.
import { cordonTaint, formatTaint, formatToleration } from '../../engine/match/tolerations.js';
import rule, { type ComparisonMiss, type TolerationMismatch, type UntoleratedTaintDetail } from '../../engine/rules/TaintToleration.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { diffKinds, diffKindsBriefly } from '../differences.js';
import { quote, visible } from '../format.js';
import { isNearToleration } from '../../engine/match/nearestToleration.js';
import { tolerationLines } from '../nearMissBlocks.js';
import { plugin, verb } from '../plugin.js';

function mismatchText(m: TolerationMismatch): string {
  switch (m.field) {
    case 'key':
      return `key ${quote(m.wanted)} vs ${quote(m.actual)}${m.diff ? diffKinds(m.diff.kinds) : ''}`;
    case 'value':
      return m.taintHasNoValue
        ? `value ${quote(m.wanted)} but the taint has no value (use operator Exists, or drop the value)`
        : `value ${quote(m.wanted)} vs ${quote(m.actual)}${m.diff ? diffKinds(m.diff.kinds) : ''}`;
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
function comparisonShort(c: ComparisonMiss): string {
  const o = c.outcome;
  if (o.kind === 'invalidValue') return `${o.side === 'taint' ? 'taint' : 'toleration'} value ${quote(o.value)} is not an integer ${c.operator} can compare`;
  return `${o.taintValue} is not ${c.operator === 'Gt' ? 'greater' : 'less'} than ${o.tolerationValue}`;
}

/** How the nearest toleration misses, in a few words: `value "GPU" (letter case)`, `effect PreferNoSchedule`. */
function missesBriefly(m: TolerationMismatch): string {
  if (m.field === 'effect' || m.field === 'operator') return `${m.field} ${m.wanted}`;
  const wanted = `${m.field} ${quote(visible(m.wanted))}`;
  if (m.field === 'value' && m.taintHasNoValue) return `${wanted} (the taint has none: use Exists)`;
  return m.diff ? `${wanted}${diffKindsBriefly(m.diff.kinds)}` : wanted;
}

/** Why the pod's tolerations miss this taint, for the headline. */
function whyUntolerated(d: UntoleratedTaintDetail): string {
  const cmp = d.comparisons?.[0];
  if (d.nearest) return `, which its toleration misses by ${d.nearest.mismatches.map(missesBriefly).join(' and ')}`;
  if (cmp) return `, which its toleration ${visible(formatToleration(cmp.toleration))} does not match (${comparisonShort(cmp)})`;
  return ', which it does not tolerate';
}

// KEP-5471: alpha since v1.35 and still off by default in v1.37. The pod passed validation, so
// the API server has the gate on; a scheduler without it tolerates nothing with Gt or Lt.
const comparisonGateNote =
  'Gt and Lt also need the TaintTolerationComparisonOperators feature gate on kube-scheduler, alpha since v1.35 and off by default; without it the scheduler tolerates nothing with them';

export default plugin(rule, {
  purpose: 'the node has a NoSchedule/NoExecute taint the pod does not tolerate',
  wordings: [
    // tainttoleration/taint_toleration.go Filter. Three wordings since v1.20:
    // PR #87250 (v1.18) "had taint {%s: %s}, that the pod didn't tolerate";
    // PR #109119 (v1.25) "had untolerated taint {%s: %s}";
    // PR #134740 (v1.35; cherry-picked to release-1.34 as #135023) "had untolerated taint(s)",
    // because taint keys and values can be sensitive.
    filterWording(/^node\(s\) had untolerated taint\(s\)$/, 'UnschedulableAndUnresolvable', 'v1.35+, v1.34 patch releases from Nov 2025'),
    filterWording(/^node\(s\) had untolerated taint \{(?<key>[^{}]*?): (?<value>[^{}]*)\}$/, 'UnschedulableAndUnresolvable', 'v1.25-v1.34'),
    filterWording(/^node\(s\) had taint \{(?<key>[^{}]*?): (?<value>[^{}]*)\}, that the pod didn't tolerate$/, 'UnschedulableAndUnresolvable', 'v1.18-v1.24'),
    // ErrReasonNotMatch; the legacy PodToleratesNodeTaints predicate.
    filterWording(/^node\(s\) had taints that the pod didn't tolerate$/, 'UnschedulableAndUnresolvable', '<= v1.17'),
  ],
  messages: {
    untoleratedTaint: (d) => {
      const parts = [`taint ${formatTaint(d.taint)} is not tolerated`];
      if (d.nearest) parts.push(`nearest toleration ${formatToleration(d.nearest.toleration)} misses by ${d.nearest.mismatches.map(mismatchText).join('; ')}`);
      if (d.comparisons) parts.push(...d.comparisons.map(comparisonText), comparisonGateNote);
      return parts.join('; ');
    },
  },
  short: {
    untoleratedTaint: (d) => formatTaint(d.taint),
  },
  headline: {
    // Grouped by the taint's key and effect and the toleration that misses it: nodes tainted
    // sla=800 and sla=0950 that one Gt toleration misses are one cause.
    untoleratedTaint: {
      key: (d) => `${d.taint.key}:${d.taint.effect}|${d.nearest ? formatToleration(d.nearest.toleration) : ''}|${d.comparisons?.[0] ? formatToleration(d.comparisons[0].toleration) : ''}`,
      says: (n, details) => {
        const [d] = details;
        if (!d) return { text: '' };
        const values = [...new Set(details.map((x) => x.taint.value ?? ''))];
        const taint = values.length === 1 ? visible(formatTaint(d.taint)) : `${visible(d.taint.key)}:${d.taint.effect} (values ${values.slice(0, 3).map(visible).join(', ')}${values.length > 3 ? ', ...' : ''})`;
        const brief = `${verb(n, 'carries', 'carry')} taint ${taint}`;
        const tol = d.nearest?.toleration ?? d.comparisons?.[0]?.toleration;
        const why = values.length === 1 ? whyUntolerated(d) : tol ? `, which its toleration ${visible(formatToleration(tol))} does not match` : whyUntolerated(d);
        return { text: `${brief}${why}`, brief };
      },
    },
  },
  nearMisses: {
    // Character detail only where some field is a near miss; a different value is told in Reasons.
    untoleratedTaint: {
      blocks: (d) => {
        const near = d.nearest;
        if (!near || !isNearToleration(near)) return [];
        return [{ key: `taint|${formatTaint(d.taint)}|${near.index}`, title: `taint ${formatTaint(d.taint)} vs the pod's toleration #${near.index + 1} ${formatToleration(near.toleration)}`, lines: tolerationLines(near, 'node') }];
      },
      // Whole unless other tolerations were compared against the taint too.
      toldWhole: (d) => d.nearest !== undefined && isNearToleration(d.nearest) && !d.comparisons,
    },
  },
  presentation: {
    untoleratedTaint: {
      // A plain untolerated taint says no more than the node's row ("TaintToleration: key=value:Effect").
      toldByRow: (d) => !d.nearest && !d.comparisons,
      // A cordoned node fails NodeUnschedulable for spec.unschedulable, and TaintToleration for the
      // taint the node lifecycle controller keeps in step with it: one reason for a person.
      toldBy: (d, others) => d.taint.key === cordonTaint.key && others.some((o) => o.kind === 'nodeCordoned'),
    },
  },
});
