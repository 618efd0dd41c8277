// What the API accepts as a label (apimachinery validation IsQualifiedName for the key,
// IsValidLabelValue for the value), so that no fix proposes a `kubectl label` the API server
// would refuse: a selector value with a stray space, say, is fixed in the pod, never copied.
const name = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isLabelKey(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const [prefix, local] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !dnsSubdomain.test(prefix))) return false;
  return local !== undefined && local.length > 0 && local.length <= 63 && name.test(local);
}

export function isLabelValue(value: string): boolean {
  return value === '' || (value.length <= 63 && name.test(value));
}
