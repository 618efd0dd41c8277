// metav1.LabelSelector semantics (apimachinery LabelSelectorAsSelector): matchLabels and
// matchExpressions are ANDed; an empty selector matches everything; a nil one matches nothing.
import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';

export function matchesLabelSelector(selector: V1LabelSelector | undefined | null, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((requirement) => matchesRequirement(requirement, have));
}

/** The selector's one matchLabels entry when it is all the selector asks (no other entry, no expression). */
export function onlyLabel(selector: V1LabelSelector | undefined | null): [key: string, value: string] | undefined {
  const pairs = Object.entries(selector?.matchLabels ?? {});
  return pairs.length === 1 && (selector?.matchExpressions ?? []).length === 0 ? pairs[0] : undefined;
}

/** matchesLabelSelector with the selector read once: for matching one selector against many pods. */
export function labelMatcher(selector: V1LabelSelector | undefined | null): (labels: Record<string, string> | undefined) => boolean {
  if (!selector) return () => false;
  const pairs = Object.entries(selector.matchLabels ?? {});
  const expressions = selector.matchExpressions ?? [];
  const only = onlyLabel(selector);
  // The common term, one label: the loop and the expressions left out of 50,000 calls.
  if (only) {
    const [key, value] = only;
    return (labels) => labels !== undefined && labels[key] === value;
  }
  return (labels) => {
    const have = labels ?? {};
    for (const [key, value] of pairs) {
      if (have[key] !== value) return false;
    }
    return expressions.every((requirement) => matchesRequirement(requirement, have));
  };
}

function matchesRequirement(requirement: V1LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const present = Object.hasOwn(labels, requirement.key);
  const value = labels[requirement.key];
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return present && values.includes(value ?? '');
    case 'NotIn':
      return !present || !values.includes(value ?? '');
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    default:
      return false;
  }
}

/**
 * Appends `key In (value)` (matchLabelKeys) or `key NotIn (value)` (mismatchLabelKeys) for each key
 * the owner pod carries, as the apiserver does at admission (pkg/registry/core/pod/strategy.go
 * applyLabelKeysToLabelSelector). A nil selector stays nil: it matches nothing either way. Adding
 * the same requirement twice changes nothing, so an already admitted pod is safe to merge again.
 */
export function mergeLabelKeys(
  selector: V1LabelSelector | undefined | null,
  keys: readonly string[] | undefined,
  operator: 'In' | 'NotIn',
  ownerLabels: Record<string, string>,
): V1LabelSelector | undefined {
  if (!selector) return undefined;
  const extra: V1LabelSelectorRequirement[] = (keys ?? [])
    .filter((key) => Object.hasOwn(ownerLabels, key))
    .map((key) => ({ key, operator, values: [ownerLabels[key] ?? ''] }));
  if (extra.length === 0) return selector;
  return { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
}

/** A selector with no requirement at all: apimachinery's Everything, whose Empty() is true. */
export function isEmptySelector(selector: V1LabelSelector | undefined | null): boolean {
  return !!selector && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}

/** apimachinery's Selector.String(): requirements sorted by key, `k=v`, `k in (a,b)`, `!k`. Null for a nil selector. */
export function formatLabelSelector(selector: V1LabelSelector | undefined | null): string | null {
  if (!selector) return null;
  const parts: { key: string; text: string }[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({ key, text: `${key}=${value}` }));
  for (const r of selector.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort().join(',');
    const text =
      r.operator === 'In'
        ? `${r.key} in (${values})`
        : r.operator === 'NotIn'
          ? `${r.key} notin (${values})`
          : r.operator === 'Exists'
            ? r.key
            : r.operator === 'DoesNotExist'
              ? `!${r.key}`
              : `${r.key} ${r.operator} (${values})`;
    parts.push({ key: r.key, text });
  }
  return parts
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((p) => p.text)
    .join(',');
}
