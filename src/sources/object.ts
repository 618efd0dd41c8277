// What a decoded JSON or YAML document, a kubeconfig or an object's managedFields hold is
// unknown until checked: a mapping is told apart from a list and from a scalar here.

/** A mapping (a JSON object), not a list, not null. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
