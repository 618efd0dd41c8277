// Namespace labels, as the scheduler's InterPodAffinity reads them: a pod affinity term's
// namespaceSelector is resolved against the namespaces the cluster has (the incoming pod's own
// terms, PreFilter's mergeAffinityTermNamespacesIfNotEmpty), and an existing pod's term is
// matched against the incoming pod's namespace labels (GetNamespaceLabelsSnapshot).
// What the input does not hold is unknown, never "no labels".
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import { isGap, type NamespaceRecord, type Snapshot } from '../snapshot/types.js';
import { isEmptySelector, matchesLabelSelector } from './match/labelSelector.js';

/** The label the apiserver sets on every namespace (NamespaceDefaultLabelName, GA since 1.22). */
export const metadataNameLabel = 'kubernetes.io/metadata.name';

/** A selector that reads no namespace label but the name the apiserver sets: decided without reading any namespace. */
export function selectsByNameOnly(selector: V1LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).every((key) => key === metadataNameLabel) && (selector.matchExpressions ?? []).every((r) => r.key === metadataNameLabel);
}

/** Whether deciding `selector` needs namespace labels the pod's name alone does not give. */
export function needsNamespaceLabels(selector: V1LabelSelector | undefined | null): boolean {
  return !!selector && !isEmptySelector(selector) && !selectsByNameOnly(selector);
}

const byName = new WeakMap<readonly NamespaceRecord[], Map<string, Record<string, string>>>();

function index(namespaces: readonly NamespaceRecord[]): Map<string, Record<string, string>> {
  let map = byName.get(namespaces);
  if (!map) {
    map = new Map();
    for (const ns of namespaces) {
      const name = ns.metadata?.name;
      if (name) map.set(name, { ...ns.metadata?.labels, [metadataNameLabel]: name });
    }
    byName.set(namespaces, map);
  }
  return map;
}

/** The labels of namespace `name`, or undefined when the input does not hold that namespace. */
export function namespaceLabels(snapshot: Snapshot, name: string): Readonly<Record<string, string>> | undefined {
  return index(snapshot.objects.namespaces).get(name);
}

/**
 * The names of the namespaces `selector` selects, or undefined when the namespaces could not be
 * read (a gap): then which namespaces a term covers is unknown.
 */
export function namespacesSelected(snapshot: Snapshot, selector: V1LabelSelector): string[] | undefined {
  if (isGap(snapshot, 'namespaces')) return undefined;
  const selected: string[] = [];
  index(snapshot.objects.namespaces).forEach((labels, name) => {
    if (matchesLabelSelector(selector, labels)) selected.push(name);
  });
  return selected.sort();
}

/** Some required pod (anti-)affinity term of `pod` selects namespaces by labels other than their name. */
export function selectsNamespacesByLabel(pod: V1Pod): boolean {
  const affinity = pod.spec?.affinity;
  const terms = [...(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...(affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])];
  return terms.some((t) => needsNamespaceLabels(t.namespaceSelector));
}
