// Words for room held on a node by pods nominated to it (engine/nominated.ts): who holds it, at
// what priority, since when, and which victims its preemption waits on.
import type { NodeVerdict } from '../engine/judge.js';
import type { NominatedPod } from '../engine/nominated.js';
import { instant } from './bound.js';
import { list } from './format.js';

function who(p: NominatedPod): string {
  const since = p.since !== undefined ? `, nominated since at least ${instant(p.since)}` : '';
  const waiting = p.waitingOn.length > 0 ? `, waiting for ${p.waitingOn.length === 1 ? 'its victim' : 'its victims'} ${list(p.waitingOn.map((v) => `${v.namespace}/${v.name}`))} to terminate` : '';
  return `${p.namespace}/${p.name} (priority ${p.priority}${since}${waiting})`;
}

/** One line per node: the pods the scheduler counts there before this one, and what that decides. */
export function nominatedLine(node: NodeVerdict, ownPriority: number): string | undefined {
  const held = node.nominated;
  if (!held) return undefined;
  const pods = held.pods;
  const subject = `${pods.length === 1 ? 'room held for' : 'room held for the nominated pods'} ${list(pods.map(who))}`;
  const effect = held.decides
    ? `the scheduler counts ${pods.length === 1 ? 'it' : 'them'} as running there before a pod of priority ${ownPriority}, so this pod does not fit; without ${pods.length === 1 ? 'it' : 'them'} the node would pass`
    : `the scheduler counts ${pods.length === 1 ? 'it' : 'them'} as running there, adding to the reasons below`;
  return `${node.name}: ${subject}: ${effect}`;
}

/** The headline's note when nominated pods alone keep the pod off some nodes. */
export function nominatedHeadline(nodes: readonly NodeVerdict[]): string | undefined {
  const decided = nodes.filter((n) => n.nominated?.decides);
  if (decided.length === 0) return undefined;
  const pods = [...new Set(decided.flatMap((n) => (n.nominated?.pods ?? []).map((p) => `${p.namespace}/${p.name}`)))];
  const names = decided.map((n) => n.name);
  return `${list(names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} more`] : names)} would fit but for room held for the nominated ${pods.length === 1 ? 'pod' : 'pods'} ${list(pods)} (a higher-priority preemption in progress).`;
}
