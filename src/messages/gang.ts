// A gang's story in words (engine/story/gang.ts, engine/gangReplay.ts): what the group needs, what
// exists, who should make the rest, and, when the scheduler could not place it, which members fit.
import type { Gang } from '../engine/story/gang.js';
import type { GangPlacement } from '../engine/gangReplay.js';
import { instant } from './bound.js';
import { list, plural } from './format.js';

function ownersText(g: Gang): string {
  return g.owners.length > 0 ? ` (made by ${list(g.owners.map((o) => `${o.kind} ${o.name}`))})` : '';
}

/** The headline of a pod waiting for its gang. */
export function waitingForGangSentence(pod: string, g: Gang): string {
  if (g.found === false) return `Pod ${pod} waits for PodGroup ${g.podGroup}, which does not exist: the scheduler holds the pod, and says nothing, until the group is created.`;
  if (g.found === undefined) return `Pod ${pod} belongs to PodGroup ${g.podGroup}, which could not be read; the scheduler has said nothing about the pod, as it does while a gang waits for its pods.`;
  const have = g.members.length;
  if (g.minCount !== undefined && have < g.minCount) {
    return `Pod ${pod} waits for its gang: PodGroup ${g.podGroup} needs ${g.minCount} pods (minCount) and ${have} ${have === 1 ? 'exists' : 'exist'}; the scheduler says nothing until ${g.minCount - have} more ${g.minCount - have === 1 ? 'is' : 'are'} created.`;
  }
  return `Pod ${pod} belongs to PodGroup ${g.podGroup}${g.minCount !== undefined ? ` (minCount ${g.minCount}, ${have} pods exist)` : ''}; the scheduler has not written about it yet.`;
}

/** The headline of a pod whose gang the scheduler could not place together. */
export function gangUnschedulableSentence(pod: string, g: Gang & { placement?: GangPlacement }): string {
  const p = g.placement;
  const fit = p ? p.placed.length : undefined;
  const total = g.members.length;
  const need = g.minCount !== undefined ? `${g.minCount} pods placed together (minCount)` : 'its pods placed together';
  const found = fit !== undefined ? `; placed one after another here, ${fit} of ${total} fit${p && p.unplaced.length > 0 ? ` (${list(p.unplaced.map((u) => u.member))} nowhere)` : ''}` : '';
  return `Pod ${pod} cannot be scheduled with its gang: PodGroup ${g.podGroup} needs ${need}${found}.`;
}

/** The lines of the gang's section. */
export function gangLines(g: Gang & { placement?: GangPlacement }): string[] {
  const out: string[] = [];
  const since = g.since !== undefined ? instant(g.since) : undefined;
  const need = g.minCount !== undefined ? `minCount ${g.minCount}` : 'no gang policy';
  if (g.found === true) out.push(`PodGroup ${g.podGroup}: ${need}${since ? `, created ${since}` : ''}`);
  else out.push(`PodGroup ${g.podGroup}: ${g.found === false ? 'does not exist' : 'not read'}${since ? `; its pods have waited since ${since}` : ''}`);
  out.push(`pods of the group: ${g.members.length > 0 ? list(g.members.map((m) => (m.node ? `${m.name} (on ${m.node})` : m.name))) : 'none'}${ownersText(g)}`);
  if (g.minCount !== undefined && g.members.length < g.minCount) {
    out.push(`${plural(g.minCount - g.members.length, 'pod')} missing: ${g.owners.length > 0 ? `${list(g.owners.map((o) => `${o.kind} ${o.name}`))} should create ${g.minCount - g.members.length === 1 ? 'it' : 'them'}` : 'nothing that owns the group\'s pods was found to create more'}, or the group's minCount is more than the workload makes`);
  }
  if (g.condition) out.push(`the scheduler's condition on the group: ${g.condition.status}${g.condition.reason ? ` (${g.condition.reason})` : ''}${g.condition.message ? `: ${g.condition.message}` : ''}`);
  const p = g.placement;
  if (p) {
    for (const placed of p.placed) out.push(`${placed.member}: ${placed.bound ? `bound to ${placed.node}` : `fits, first on ${placed.node} once the members before it are placed`}`);
    for (const u of p.unplaced) {
      const by = Object.entries(u.firstPlugins).map(([plugin, n]) => `${n} ${plugin}`).join(', ');
      out.push(`${u.member}: fits no node once the members before it are placed${by ? ` (${by})` : ''}`);
    }
    if (p.notReplayed > 0) out.push(`(${plural(p.notReplayed, 'more member')} not replayed)`);
    if (p.placedBefore.length > 0) out.push(`the node table is this pod's with ${list(p.placedBefore)} placed first, as in the scheduler's cycle for the group`);
  }
  return out;
}
