// Toleration matching as k8s.io/api/core/v1 Toleration.ToleratesTaint (v1.34), with the
// v1.35 alpha Gt/Lt operators read as the newer scheduler reads them.
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';

/** Effects that keep a pod off a node; PreferNoSchedule only lowers a node's score. */
export const blockingEffects: readonly string[] = ['NoSchedule', 'NoExecute'];

export function tolerates(toleration: V1Toleration, taint: V1Taint): boolean {
  // An empty effect tolerates every effect.
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  // An empty key (only valid with Exists) tolerates every key.
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator || 'Equal';
  switch (operator) {
    case 'Exists':
      return true;
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Gt':
    case 'Lt':
      return compareNumeric(operator, toleration.value, taint.value);
    default:
      return false;
  }
}

// Gt/Lt tolerate when the taint's value compares that way against the toleration's; both must
// be integers, otherwise nothing is tolerated (KEP-5471).
function compareNumeric(operator: 'Gt' | 'Lt', tolerationValue?: string, taintValue?: string): boolean {
  const integer = /^-?\d+$/;
  if (!tolerationValue || !taintValue || !integer.test(tolerationValue) || !integer.test(taintValue)) return false;
  const want = BigInt(tolerationValue);
  const have = BigInt(taintValue);
  return operator === 'Gt' ? have > want : have < want;
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
