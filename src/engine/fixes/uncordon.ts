// Uncordon a cordoned node. Cordons are usually deliberate (a drain, an upgrade), so this is
// offered as what would work, for the few cordoned nodes the pod could otherwise use.
import type { V1ManagedFieldsEntry } from '@kubernetes/client-node';
import { toTime } from '../../snapshot/types.js';
import { cordonTaint } from '../match/tolerations.js';
import { failing, failures } from './nodes.js';
import type { Candidate, FixInput } from './types.js';

const offered = 3;

/** The field manager that owns spec.unschedulable (kubectl, a drainer, an autoscaler), and when it last wrote. */
function cordonOwner(entries: readonly V1ManagedFieldsEntry[] | undefined): { by: string; at?: number } | undefined {
  const owner = entries?.find((e) => {
    const spec = (e.fieldsV1 as Record<string, unknown> | undefined)?.['f:spec'];
    return typeof spec === 'object' && spec !== null && 'f:unschedulable' in spec;
  });
  if (!owner?.manager) return undefined;
  const at = toTime(owner.time);
  return { by: owner.manager, ...(at !== undefined ? { at } : {}) };
}

export function proposeUncordons({ ctx, judgement }: FixInput): Candidate[] {
  if (!failures(judgement).plugins.has('NodeUnschedulable')) return [];
  const out: Candidate[] = [];
  // The first few cordoned nodes: no need to look through the other thousands.
  for (const n of failing(judgement)) {
    if (out.length === offered) break;
    if (!n.reasons.some((r) => r.detail.kind === 'nodeCordoned')) continue;
    const node = ctx.nodes.find((f) => f.name === n.name)?.node;
    // When it was cordoned: the taint the node lifecycle controller keeps with the cordon says;
    // who: the field manager that owns spec.unschedulable, where the input keeps managedFields.
    const taint = node?.spec?.taints?.find((t) => t.key === cordonTaint.key);
    const owner = cordonOwner(node?.metadata?.managedFields);
    const since = toTime(taint?.timeAdded) ?? owner?.at;
    out.push({ changes: [{ kind: 'uncordon', cause: 'NodeUnschedulable', node: n.name, ...(since !== undefined ? { since } : {}), ...(owner ? { by: owner.by } : {}) }], nodes: [n.name] });
  }
  return out;
}
