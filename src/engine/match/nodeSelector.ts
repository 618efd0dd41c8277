// v1.NodeSelector semantics (component-helpers/scheduling/corev1/nodeaffinity): terms are ORed,
// requirements inside a term ANDed; matchFields supports only metadata.name; an empty term
// matches nothing.
import type { V1NodeSelector, V1NodeSelectorRequirement, V1NodeSelectorTerm, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';

export interface RequirementResult {
  requirement: V1NodeSelectorRequirement;
  field: 'label' | 'field';
  matched: boolean;
}

export interface TermResult {
  term: V1NodeSelectorTerm;
  matched: boolean;
  requirements: RequirementResult[];
}

export function evaluateTerm(term: V1NodeSelectorTerm, node: NodeRecord): TermResult {
  const labels = node.metadata?.labels ?? {};
  const fields: Record<string, string> = { 'metadata.name': node.metadata?.name ?? '' };
  const requirements: RequirementResult[] = [
    ...(term.matchExpressions ?? []).map((requirement) => ({
      requirement,
      field: 'label' as const,
      matched: matchesNodeRequirement(requirement, labels),
    })),
    ...(term.matchFields ?? []).map((requirement) => ({
      requirement,
      field: 'field' as const,
      matched: requirement.key === 'metadata.name' && matchesNodeRequirement(requirement, fields),
    })),
  ];
  return { term, matched: requirements.length > 0 && requirements.every((r) => r.matched), requirements };
}

export function evaluateNodeSelector(selector: V1NodeSelector, node: NodeRecord): { matched: boolean; terms: TermResult[] } {
  const terms = selector.nodeSelectorTerms.map((term) => evaluateTerm(term, node));
  return { matched: terms.some((t) => t.matched), terms };
}

export function matchesNodeRequirement(requirement: V1NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const present = Object.hasOwn(labels, requirement.key);
  const value = labels[requirement.key] ?? '';
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return present && values.includes(value);
    case 'NotIn':
      return !present || !values.includes(value);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    case 'Gt':
    case 'Lt': {
      // Both sides must parse as integers; otherwise the requirement does not match.
      const integer = /^-?\d+$/;
      const bound = values[0];
      if (!present || values.length !== 1 || bound === undefined || !integer.test(value) || !integer.test(bound)) return false;
      return requirement.operator === 'Gt' ? BigInt(value) > BigInt(bound) : BigInt(value) < BigInt(bound);
    }
    default:
      return false;
  }
}

export function formatRequirement(requirement: V1NodeSelectorRequirement): string {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return `${requirement.key} in (${values.join(', ')})`;
    case 'NotIn':
      return `${requirement.key} notin (${values.join(', ')})`;
    case 'Exists':
      return requirement.key;
    case 'DoesNotExist':
      return `!${requirement.key}`;
    case 'Gt':
      return `${requirement.key} > ${values[0] ?? ''}`;
    case 'Lt':
      return `${requirement.key} < ${values[0] ?? ''}`;
    default:
      return `${requirement.key} ${requirement.operator} (${values.join(', ')})`;
  }
}

/** component-helpers nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): nodeSelector AND required terms. */
export function matchesRequiredNodeAffinity(pod: V1Pod, node: NodeRecord): boolean {
  const labels = node.metadata?.labels ?? {};
  const selectorOk = Object.entries(pod.spec?.nodeSelector ?? {}).every(([key, value]) => matchesNodeRequirement({ key, operator: 'In', values: [value] }, labels));
  if (!selectorOk) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return evaluateNodeSelector({ nodeSelectorTerms: required.nodeSelectorTerms ?? [] }, node).matched;
}

/** The label keys a pod's nodeSelector and required node-affinity expressions ask about, each once. */
export function labelKeysAsked(spec: V1PodSpec | undefined): string[] {
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return [...new Set([...Object.keys(spec?.nodeSelector ?? {}), ...terms.flatMap((t) => (t.matchExpressions ?? []).map((r) => r.key))])];
}
