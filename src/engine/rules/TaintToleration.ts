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
import { appliesTo, compareValues, isComparisonOperator, untoleratedTaints, type ComparisonOperator, type ComparisonOutcome } from '../match/tolerations.js';
import { nearestToleration, type NearestToleration } from '../match/nearestToleration.js';

export type { NearestToleration, TolerationMismatch } from '../match/nearestToleration.js';

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
