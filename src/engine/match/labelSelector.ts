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
