// A pod pinned to nodes by name: by the kubernetes.io/hostname label (the kubelet sets it to its
// node's name) or by matchFields metadata.name (how a DaemonSet's pod names its node). A pin to
// a name some node carries means that node: another node's near name (node-00008 for
// node-00009, one character apart as sequential names are) is another machine, not a slip. It
// is neither explained as a near miss (rules/NodeAffinity.ts) nor offered as a fix
// (fixes/selector.ts). A name no node carries may still be a typo.
import type { V1NodeSelectorRequirement } from '@kubernetes/client-node';
import type { NodeFacts } from '../model.js';

export const hostnameKey = 'kubernetes.io/hostname';
const nameField = 'metadata.name';

// Once per list of nodes: every node of a diagnosis asks about the same list.
const hostnames = new WeakMap<readonly NodeFacts[], ReadonlySet<string>>();
const names = new WeakMap<readonly NodeFacts[], ReadonlySet<string>>();

/** The values of kubernetes.io/hostname that the nodes carry. */
function hostnamesOf(nodes: readonly NodeFacts[]): ReadonlySet<string> {
  let found = hostnames.get(nodes);
  if (!found) {
    const set = new Set<string>();
    for (let i = 0; i < nodes.length; i++) {
      const labels = (nodes[i] as NodeFacts).labels;
      if (Object.hasOwn(labels, hostnameKey)) set.add(labels[hostnameKey] as string);
    }
    hostnames.set(nodes, (found = set));
  }
  return found;
}

function namesOf(nodes: readonly NodeFacts[]): ReadonlySet<string> {
  let found = names.get(nodes);
  if (!found) {
    const set = new Set<string>();
    for (let i = 0; i < nodes.length; i++) set.add((nodes[i] as NodeFacts).name);
    names.set(nodes, (found = set));
  }
  return found;
}

/** Whether `value` of the node label `key` names a node of `nodes` (only kubernetes.io/hostname does). */
export function namesNode(nodes: readonly NodeFacts[], key: string, value: string): boolean {
  return key === hostnameKey && hostnamesOf(nodes).has(value);
}

/**
 * Whether the requirement pins the pod to nodes of `nodes` by name: `In`, on the hostname label
 * or the metadata.name field, with every value a name some node carries.
 */
export function pinsToNodes(requirement: V1NodeSelectorRequirement, field: 'label' | 'field', nodes: readonly NodeFacts[]): boolean {
  if (requirement.operator !== 'In' || !requirement.values || requirement.values.length === 0) return false;
  let known: ReadonlySet<string>;
  if (field === 'label' && requirement.key === hostnameKey) known = hostnamesOf(nodes);
  else if (field === 'field' && requirement.key === nameField) known = namesOf(nodes);
  else return false;
  return requirement.values.every((value) => known.has(value));
}
