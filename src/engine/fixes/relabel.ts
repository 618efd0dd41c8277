// Relabel the one node spelled unlike its peers: the pod asks `disk=ssd`, most nodes carrying
// `disk` spell it `ssd`, and one spells it `SSD`. Rewriting the pod's selector to that node's
// spelling would part it from its peers; dropping the requirement would let it run anywhere.
// The correction is the node's label, with `--overwrite` (kubectl refuses to change a label
// without it). Only where the node's value is the pod's but for a slip (letter case, white
// space, look-alike or invisible characters) and some other node carries the pod's spelling.
import type { Reason } from '../reasons.js';
import { compareText } from '../nearmiss/index.js';
import type { SelectorEntryMiss } from '../rules/NodeAffinity.js';
import { failingOnlyOn, someNodeCarries } from './nodes.js';
import { near } from './selector.js';
import type { Candidate, FixInput } from './types.js';

/**
 * The node's value is the pod's but for a slip no label value means on purpose: letter case,
 * white space, an invisible or look-alike character. `eu-central-1a` against `eu-central-1b`
 * is another zone, however near: a label stating it is a fact, not a spelling.
 */
function slip(wanted: string, actual: string): boolean {
  if (!near(wanted, actual)) return false;
  const diff = compareText(wanted, actual);
  return !diff.equal && !diff.kinds.includes('other');
}

/** The misses a node's NodeAffinity reasons name where it has the key but spells the value otherwise. */
function respelled(reasons: readonly Reason[]): SelectorEntryMiss[] {
  const out: SelectorEntryMiss[] = [];
  for (const { detail } of reasons) {
    if (detail.kind === 'nodeSelectorMismatch') out.push(...detail.misses);
    if (detail.kind === 'requiredAffinityMismatch' && detail.terms.length === 1) out.push(...(detail.terms[0]?.misses ?? []));
  }
  return out.filter((m) => !m.pinnedElsewhere && m.actual !== undefined && (m.operator === 'In' || m.operator === '=' || m.wanted.length === 1));
}

export function proposeRelabels(input: FixInput): Candidate[] {
  const byChange = new Map<string, Candidate>();
  for (const node of failingOnlyOn(input.judgement, 'NodeAffinity')) {
    const misses = respelled(node.reasons);
    // Every entry the node misses must be a respelling: relabelling one of two misses frees nothing.
    const all = node.reasons.every((r) => r.detail.kind !== 'nodeSelectorMismatch' || r.detail.misses.length === misses.length);
    if (misses.length === 0 || !all) continue;
    const set: Record<string, string> = {};
    const overwrite: Record<string, string> = {};
    let ok = true;
    for (const m of misses) {
      const actual = m.actual ?? '';
      // A slip is never equal, so the nodes carrying the pod's spelling are this node's peers.
      const wanted = m.wanted.find((w) => slip(w, actual) && someNodeCarries(input.ctx.nodes, m.key, w));
      if (wanted === undefined) {
        ok = false;
        break;
      }
      set[m.key] = wanted;
      overwrite[m.key] = actual;
    }
    if (!ok) continue;
    const key = JSON.stringify([set, overwrite]);
    const known = byChange.get(key);
    if (known) {
      const change = known.changes[0];
      if (change?.kind === 'labelNodes') change.nodes.push(node.name);
      known.nodes.push(node.name);
    } else {
      byChange.set(key, { changes: [{ kind: 'labelNodes', cause: 'NodeAffinity', nodes: [node.name], set, remove: [], overwrite }], nodes: [node.name] });
    }
  }
  return [...byChange.values()];
}
