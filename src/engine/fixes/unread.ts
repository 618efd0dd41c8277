// A change whose nodes' pods were all left unread (a live read in stages reads the pods of the
// nodes that pass the node-only checks, and no others) can make none of them fit for certain: on
// such a node a replay's `fits` is unproven (replay.ts), and the candidate's only use is to name
// the nodes a follow-up read should confirm, the first few in sort order (firstNames.ts). A
// labelling of the 4,400 nodes a selector misses was judged whole for 20 names.
//
// The nodes are judged in name order, a few at a time, on the cluster patched whole (PreFilter
// reads every node: spreading counts the nodes a labelling makes match), until `limit` would fit.
// For a change replayed alone, a second change is looked for where nodes still fail, and could
// add names of its own: the shortcut holds only while no node before the last name found still
// fails (then every name a second change could add comes after it, and is not among the first);
// otherwise, undefined, and the whole replay is made. For a second change (`stopAtFailure`
// false) nothing follows, and failing nodes are passed over.
import type { NodeVerdict } from '../judge.js';
import { judge, positionsIn } from '../judge.js';
import type { RuleContext } from '../model.js';
import type { Rule } from '../reasons.js';
import { patchedContext } from './patch.js';
import type { Change } from './types.js';

/** Names judged at a time: the first batch usually holds the few wanted. */
const batch = 32;

/**
 * `names`: the first `limit` names of `nodes`, in sort order, that the changes would make fit,
 * when no node's pods were read. Undefined when some were: the caller replays them all. With
 * `stopAtFailure`, when a node before the last of them still fails: `patched`, the cluster
 * with the changes made, for the caller's whole replay (patching 4,400 nodes is most of one).
 */
export function firstUnreadFits(
  rules: readonly Rule[],
  ctx: RuleContext,
  changes: readonly Change[],
  nodes: readonly string[],
  limit: number,
  stopAtFailure: boolean,
): { names: string[] } | { patched: RuleContext } | undefined {
  const podsReadOn = ctx.snapshot.podsReadOn;
  // A name held by two nodes: the whole replay, which judges each (positionsIn says so).
  if (!podsReadOn || nodes.length === 0 || positionsIn(ctx.nodes) === null) return undefined;
  const read = new Set(podsReadOn);
  for (let i = 0; i < nodes.length; i++) if (read.has(nodes[i] as string)) return undefined;
  // The default sort: the order keepFirstNames keeps (Array.prototype.sort's), without a
  // comparator called 50,000 times before V8 has compiled it.
  const names = [...new Set(nodes)].sort();
  const patched = patchedContext(ctx, changes);
  const found: string[] = [];
  for (let start = 0; start < names.length && found.length < limit; start += batch) {
    const some = names.slice(start, start + batch);
    const verdicts = new Map<string, NodeVerdict>();
    for (const verdict of judge(rules, patched, new Set(some)).nodes) verdicts.set(verdict.name, verdict);
    for (let i = 0; i < some.length && found.length < limit; i++) {
      const verdict = verdicts.get(some[i] as string)?.verdict;
      if (verdict === 'fits') found.push(some[i] as string);
      else if (verdict === 'fails' && stopAtFailure) return { patched };
    }
  }
  return { names: found };
}
