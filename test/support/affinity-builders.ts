// Builders for topology spread constraints and pod (anti-)affinity terms, used through
// PodBuilder.with(...): pod('p').with(spread(1, 'zone', { foo: '' })).obj(), in the spirit of the
// scheduler's st.MakePod().SpreadConstraint(...).PodAffinityIn(...).
import type { V1LabelSelector, V1LabelSelectorRequirement, V1Pod, V1PodAffinityTerm, V1TopologySpreadConstraint } from '@kubernetes/client-node';

type Mutation = (pod: V1Pod) => void;

/** matchLabels; `null` for a nil selector. */
export type SelectorInput = Record<string, string> | V1LabelSelector | null;

function isSelector(input: Record<string, string> | V1LabelSelector): input is V1LabelSelector {
  return 'matchLabels' in input || 'matchExpressions' in input;
}

function selector(input: SelectorInput): V1LabelSelector | undefined {
  if (input === null) return undefined;
  return isSelector(input) ? input : { matchLabels: input };
}

export const exists = (key: string): V1LabelSelectorRequirement => ({ key, operator: 'Exists' });
export const inValues = (key: string, ...values: string[]): V1LabelSelectorRequirement => ({ key, operator: 'In', values });
export const notIn = (key: string, ...values: string[]): V1LabelSelectorRequirement => ({ key, operator: 'NotIn', values });
export const expressions = (...matchExpressions: V1LabelSelectorRequirement[]): V1LabelSelector => ({ matchExpressions });

export type SpreadOptions = Partial<Omit<V1TopologySpreadConstraint, 'maxSkew' | 'topologyKey' | 'labelSelector'>>;

/** A DoNotSchedule topology spread constraint unless `whenUnsatisfiable` says otherwise. */
export function spread(maxSkew: number, topologyKey: string, labels: SelectorInput, options: SpreadOptions = {}): Mutation {
  return (pod) => {
    const constraint: V1TopologySpreadConstraint = { maxSkew, topologyKey, whenUnsatisfiable: 'DoNotSchedule', ...options };
    const labelSelector = selector(labels);
    if (labelSelector) constraint.labelSelector = labelSelector;
    (pod.spec!.topologySpreadConstraints ??= []).push(constraint);
  };
}

export type TermOptions = Partial<Omit<V1PodAffinityTerm, 'topologyKey' | 'labelSelector'>>;

function term(topologyKey: string, labels: SelectorInput, options: TermOptions = {}): V1PodAffinityTerm {
  const t: V1PodAffinityTerm = { topologyKey, ...options };
  const labelSelector = selector(labels);
  if (labelSelector) t.labelSelector = labelSelector;
  return t;
}

/** A required pod affinity term. */
export function affinity(topologyKey: string, labels: SelectorInput, options: TermOptions = {}): Mutation {
  return (pod) => {
    const a = (pod.spec!.affinity ??= {});
    const pa = (a.podAffinity ??= {});
    (pa.requiredDuringSchedulingIgnoredDuringExecution ??= []).push(term(topologyKey, labels, options));
  };
}

/** A required pod anti-affinity term. */
export function antiAffinity(topologyKey: string, labels: SelectorInput, options: TermOptions = {}): Mutation {
  return (pod) => {
    const a = (pod.spec!.affinity ??= {});
    const pa = (a.podAntiAffinity ??= {});
    (pa.requiredDuringSchedulingIgnoredDuringExecution ??= []).push(term(topologyKey, labels, options));
  };
}

/** Marks the pod as being deleted (a terminating pod). */
export const terminating: Mutation = (pod) => {
  pod.metadata!.deletionTimestamp = new Date('2025-01-01T00:00:00Z');
};
