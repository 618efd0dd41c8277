// The toleration a user most likely meant for a taint, and exactly how it misses: for a node's
// taints (rules/TaintToleration.ts), a NodePool's (karpenter/nodepool.ts) and a device's
// (dra/allocate.ts), whose tolerations match alike (resourceclaim.ToleratesTaint copies core's).
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { acceptedOperators, isComparisonOperator } from './tolerations.js';
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
