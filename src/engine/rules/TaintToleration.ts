// TaintToleration: every NoSchedule/NoExecute taint of the node must be tolerated. The
// scheduler names only the first untolerated taint (newer ones none at all); we list each,
// with the pod's nearest toleration and exactly how it misses.
//
// Two kinds of miss, kept apart so that the explanation never contradicts the matcher
// (match/tolerations.ts): a near miss in the text (key, value, effect, or an operator the API
// does not accept), compared character by character; and a Gt/Lt toleration that applies to
// the taint by key and effect but whose integer comparison does not hold, explained with the
// numbers the matcher compared.
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { passed, type FilterRule } from '../model.js';
import {
  acceptedOperators,
  appliesTo,
  compareValues,
  isComparisonOperator,
  untoleratedTaints,
  type ComparisonOperator,
  type ComparisonOutcome,
} from '../match/tolerations.js';
import { certainlyBelow, compareText, isNearMiss, mayBeNearMiss, similarity, type TextDiff } from '../nearmiss/index.js';

export type TolerationMismatch =
  /** `diff` only when the two are a near miss (isNearMiss): `cpu` vs `gpu` is another value, not a slip. */
  | { field: 'key'; wanted: string; actual: string; diff?: TextDiff }
  | { field: 'value'; wanted: string; actual: string; diff?: TextDiff; taintHasNoValue: boolean }
  | { field: 'effect'; wanted: string; actual: string; preferNoScheduleAgainstNoSchedule: boolean }
  /** An operator the API never accepts ("exists", "In"): no scheduler tolerates anything with it. */
  | { field: 'operator'; wanted: string; actual: string; accepted: readonly string[] };

export interface NearestToleration {
  toleration: V1Toleration;
  index: number;
  mismatches: TolerationMismatch[];
}

/**
 * The nearest toleration is a near miss (a slip worth showing character by character) when
 * every key or value it gets wrong is near (has a diff); a wrong effect or operator always is.
 */
export function isNearToleration(nearest: NearestToleration): boolean {
  return nearest.mismatches.every((m) => (m.field !== 'key' && m.field !== 'value') || m.diff !== undefined);
}

/** A Gt/Lt toleration for this taint's key and effect whose comparison does not hold. */
export interface ComparisonMiss {
  toleration: V1Toleration;
  index: number;
  operator: ComparisonOperator;
  outcome: Exclude<ComparisonOutcome, { kind: 'holds' }>;
}

export interface UntoleratedTaintDetail {
  kind: 'untoleratedTaint';
  taint: V1Taint;
  nearest?: NearestToleration;
  /** Present when the pod has Gt/Lt tolerations for this taint's key and effect. */
  comparisons?: ComparisonMiss[];
}

function nearDiff(wanted: string, actual: string): { diff?: TextDiff } {
  if (!mayBeNearMiss(wanted, actual)) return {};
  const diff = compareText(wanted, actual);
  return isNearMiss(diff) ? { diff } : {};
}

function tolerationMismatches(toleration: V1Toleration, taint: V1Taint): TolerationMismatch[] {
  const out: TolerationMismatch[] = [];
  const key = toleration.key ?? '';
  if (key && key !== taint.key) out.push({ field: 'key', wanted: key, actual: taint.key, ...nearDiff(key, taint.key) });
  const operator = toleration.operator || 'Equal';
  if (operator === 'Equal') {
    const wanted = toleration.value ?? '';
    const actual = taint.value ?? '';
    if (wanted !== actual) out.push({ field: 'value', wanted, actual, ...nearDiff(wanted, actual), taintHasNoValue: actual === '' });
  } else if (!acceptedOperators.includes(operator)) {
    out.push({ field: 'operator', wanted: operator, actual: acceptedOperators.join(', '), accepted: acceptedOperators });
  }
  if (toleration.effect && toleration.effect !== taint.effect) {
    out.push({
      field: 'effect',
      wanted: toleration.effect,
      actual: taint.effect,
      preferNoScheduleAgainstNoSchedule: toleration.effect === 'PreferNoSchedule' && taint.effect === 'NoSchedule',
    });
  }
  return out;
}

/** The Gt/Lt tolerations that speak about this taint and do not tolerate it, with why. */
function comparisonMisses(tolerations: readonly V1Toleration[], taint: V1Taint): ComparisonMiss[] {
  const out: ComparisonMiss[] = [];
  tolerations.forEach((toleration, index) => {
    const operator = toleration.operator;
    if (!isComparisonOperator(operator) || !appliesTo(toleration, taint)) return;
    const outcome = compareValues(operator, toleration.value ?? '', taint.value ?? '');
    if (outcome.kind !== 'holds') out.push({ toleration, index, operator, outcome });
  });
  return out;
}

// The toleration the user most likely meant for this taint: fewest differing fields, then the
// closest key and value. Tolerations for unrelated keys are not offered as near misses, nor
// Gt/Lt ones: they are not meant to equal the taint, and `comparisonMisses` explains them.
export function nearestToleration(tolerations: readonly V1Toleration[], taint: V1Taint): NearestToleration | undefined {
  let best: (NearestToleration & { score: number }) | undefined;
  tolerations.forEach((toleration, index) => {
    if (isComparisonOperator(toleration.operator)) return;
    // A key plainly unlike the taint's scores below 0.5 (refused below): known without aligning
    // them, as each of the pod's default tolerations (not-ready, unreachable) is against a taint.
    if (toleration.key && certainlyBelow(toleration.key, taint.key, 0.5)) return;
    const mismatches = tolerationMismatches(toleration, taint);
    const keyScore = toleration.key ? similarity(toleration.key, taint.key) : 1;
    const fields = new Set(mismatches.map((m) => m.field));
    // A different key AND a different effect is another toleration, not a near miss of this one.
    if (keyScore < 0.5 || mismatches.length > 2 || (fields.has('key') && fields.has('effect'))) return;
    const valueScore = similarity(toleration.value ?? '', taint.value ?? '');
    const score = (3 - mismatches.length) * 10 + keyScore * 2 + valueScore;
    if (!best || score > best.score) best = { toleration, index, mismatches, score };
  });
  if (!best) return undefined;
  const { score: _score, ...nearest } = best;
  return nearest;
}

// How the pod's tolerations miss a taint depends on the taint's key, value and effect alone: the
// 500 nodes of a pool that carry one taint share one answer, worked out once per list of
// tolerations (the pod's own array; a fix's replay that adds one has another). Shared, not edited.
type TaintMiss = Pick<UntoleratedTaintDetail, 'nearest' | 'comparisons'>;
const noTolerations: readonly V1Toleration[] = [];
const missesByTolerations = new WeakMap<readonly V1Toleration[], Map<string, TaintMiss>>();

// A taint the API could have admitted has a key of at most 316 characters and a value of at most
// 63: a longer one (a hostile dump's) is worked out each time rather than held a second time.
const keptLength = 400;

function missOf(tolerations: readonly V1Toleration[], taint: V1Taint): TaintMiss {
  const nearest = nearestToleration(tolerations, taint);
  const comparisons = comparisonMisses(tolerations, taint);
  return { ...(nearest ? { nearest } : {}), ...(comparisons.length > 0 ? { comparisons } : {}) };
}

function taintMiss(tolerations: readonly V1Toleration[], taint: V1Taint): TaintMiss {
  if (taint.key.length + (taint.value ?? '').length > keptLength) return missOf(tolerations, taint);
  let known = missesByTolerations.get(tolerations);
  if (!known) missesByTolerations.set(tolerations, (known = new Map()));
  const key = JSON.stringify([taint.key, taint.value ?? '', taint.effect]);
  let miss = known.get(key);
  if (!miss) {
    miss = missOf(tolerations, taint);
    if (known.size >= 10_000) known.clear();
    known.set(key, miss);
  }
  return miss;
}

const rule: FilterRule<'TaintToleration', UntoleratedTaintDetail> = {
  meta: { name: 'TaintToleration', kinds: ['untoleratedTaint'] },
  needs: () => [],
  filter({ pod }, node) {
    const tolerations = pod.pod.spec?.tolerations ?? noTolerations;
    const taints = node.node.spec?.taints;
    // Most of 5,000 nodes have no taint at all: no list to filter.
    if (!taints || taints.length === 0) return passed;
    return untoleratedTaints(taints, tolerations).map((taint) => {
      const detail: UntoleratedTaintDetail = { kind: 'untoleratedTaint', taint, ...taintMiss(tolerations, taint) };
      return { plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', detail };
    });
  },
};

export default rule;
