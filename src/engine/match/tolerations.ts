// Toleration matching as k8s.io/api core/v1 Toleration.ToleratesTaint does it (toleration.go,
// unchanged from v1.35 to v1.37):
//   1. an empty effect matches every effect, else the effects must be equal;
//   2. an empty key matches every key (the API allows it only with Exists), else keys are equal;
//   3. "" and Equal compare the values as strings, Exists ignores them;
//   4. Gt and Lt (KEP-5471) compare them as integers: Gt tolerates a taint whose value is
//      greater than the toleration's, Lt one whose value is less. Either value must be a
//      decimal integer in canonical form (apimachinery content.IsDecimalInteger: "0", or an
//      optional "-" then a digit 1-9 and more digits; no "+", no leading zero, no spaces) that
//      fits in an int64 (strconv.ParseInt); otherwise the toleration does not match;
//   5. any other operator matches nothing.
// Gt and Lt sit behind the TaintTolerationComparisonOperators feature gate: alpha in v1.35 and
// still alpha, off by default, in v1.37 (pkg/features). With the gate off the API server
// rejects a pod that uses them (validation.go: Unsupported value), and kube-scheduler's
// ToleratesTaint(..., enableComparisonOperators=false) tolerates nothing with them. A pod that
// does use them exists only because the API server had the gate on, so we evaluate them as
// the enabled code does; the messages say the scheduler needs the gate too.
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';

/** Effects that keep a pod off a node; PreferNoSchedule only lowers a node's score. */
const blockingEffects: readonly string[] = ['NoSchedule', 'NoExecute'];

const comparisonOperators = ['Gt', 'Lt'] as const;
export type ComparisonOperator = (typeof comparisonOperators)[number];

/** Operators the API accepts: Equal and Exists always; Gt and Lt from v1.35 with the gate on. */
export const acceptedOperators: readonly string[] = ['Equal', 'Exists', ...comparisonOperators];

export function isComparisonOperator(operator: string | undefined): operator is ComparisonOperator {
  return operator === 'Gt' || operator === 'Lt';
}

export type IntegerProblem = 'notCanonicalInteger' | 'outOfInt64Range';

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** content.IsDecimalInteger, then strconv.ParseInt(value, 10, 64). */
export function parseCanonicalInt64(value: string): { value: bigint } | { problem: IntegerProblem } {
  if (!/^(?:0|-?[1-9][0-9]*)$/.test(value)) return { problem: 'notCanonicalInteger' };
  const n = BigInt(value);
  return n < int64Min || n > int64Max ? { problem: 'outOfInt64Range' } : { value: n };
}

/** How a Gt/Lt toleration's value compares with a taint's (compareNumericValues). */
export type ComparisonOutcome =
  | { kind: 'holds' }
  /** Both are integers, and the taint's is not greater (Gt) or not less (Lt). */
  | { kind: 'fails'; tolerationValue: bigint; taintValue: bigint }
  /** The toleration's value is read first, as upstream does; the taint's only when it parses. */
  | { kind: 'invalidValue'; side: 'toleration' | 'taint'; value: string; problem: IntegerProblem };

export function compareValues(operator: ComparisonOperator, tolerationValue: string, taintValue: string): ComparisonOutcome {
  const tol = parseCanonicalInt64(tolerationValue);
  if ('problem' in tol) return { kind: 'invalidValue', side: 'toleration', value: tolerationValue, problem: tol.problem };
  const tnt = parseCanonicalInt64(taintValue);
  if ('problem' in tnt) return { kind: 'invalidValue', side: 'taint', value: taintValue, problem: tnt.problem };
  const holds = operator === 'Gt' ? tnt.value > tol.value : tnt.value < tol.value;
  return holds ? { kind: 'holds' } : { kind: 'fails', tolerationValue: tol.value, taintValue: tnt.value };
}

/** Steps 1 and 2: the toleration speaks about this taint's key and effect at all. */
/** The taint the node lifecycle controller keeps in step with a cordon (spec.unschedulable: TaintNodesByCondition). */
export const cordonTaint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' } as const;

export function appliesTo(toleration: V1Toleration, taint: V1Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  return !toleration.key || toleration.key === taint.key;
}

export function tolerates(toleration: V1Toleration, taint: V1Taint): boolean {
  if (!appliesTo(toleration, taint)) return false;
  const operator = toleration.operator ?? '';
  switch (operator) {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    case 'Gt':
    case 'Lt':
      return compareValues(operator, toleration.value ?? '', taint.value ?? '').kind === 'holds';
    default:
      return false;
  }
}

export function toleratesAny(tolerations: readonly V1Toleration[], taint: V1Taint): boolean {
  return tolerations.some((toleration) => tolerates(toleration, taint));
}

/** Blocking taints of a node that no toleration matches, in the node's order. */
export function untoleratedTaints(taints: readonly V1Taint[], tolerations: readonly V1Toleration[]): V1Taint[] {
  return taints.filter((taint) => blockingEffects.includes(taint.effect) && !toleratesAny(tolerations, taint));
}

export function formatTaint(taint: V1Taint): string {
  const value = taint.value ? `=${taint.value}` : '';
  return `${taint.key}${value}:${taint.effect}`;
}

/** kubectl describe's form: `key=value:Effect`, `key:Effect`, `:Effect` for an empty key. */
export function formatToleration(toleration: V1Toleration): string {
  const operator = toleration.operator || 'Equal';
  const key = toleration.key ?? '';
  let text: string;
  if (operator === 'Exists') text = key ? `${key} op=Exists` : 'op=Exists';
  else if (operator === 'Equal') text = `${key}=${toleration.value ?? ''}`;
  else text = `${key} ${operator} ${toleration.value ?? ''}`;
  return toleration.effect ? `${text}:${toleration.effect}` : text;
}
