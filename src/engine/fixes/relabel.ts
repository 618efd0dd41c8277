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

/** The labels a node with these reasons would take (and the values they overwrite), or undefined when relabelling frees nothing. */
function relabelFor(reasons: readonly Reason[], input: FixInput): { set: Record<string, string>; overwrite: Record<string, string> } | undefined {
  const misses = respelled(reasons);
  // Every entry the node misses must be a respelling: relabelling one of two misses frees nothing.
  const all = reasons.every((r) => r.detail.kind !== 'nodeSelectorMismatch' || r.detail.misses.length === misses.length);
  if (misses.length === 0 || !all) return undefined;
  const set: Record<string, string> = {};
  const overwrite: Record<string, string> = {};
  for (const m of misses) {
    const actual = m.actual ?? '';
    // A slip is never equal, so the nodes carrying the pod's spelling are this node's peers.
    const wanted = m.wanted.find((w) => slip(w, actual) && someNodeCarries(input.ctx.nodes, m.key, w));
    if (wanted === undefined) return undefined;
    set[m.key] = wanted;
    overwrite[m.key] = actual;
  }
  return { set, overwrite };
}

export function proposeRelabels(input: FixInput): Candidate[] {
  const byChange = new Map<string, Candidate>();
  /** The candidate nodes with these reasons join (one per change), or null when relabelling frees nothing. */
  const candidateOf = (reasons: readonly Reason[]): Candidate | null => {
    const relabel = relabelFor(reasons, input);
    if (!relabel) return null;
    const key = JSON.stringify([relabel.set, relabel.overwrite]);
    let candidate = byChange.get(key);
    if (!candidate) {
      candidate = { changes: [{ kind: 'labelNodes', cause: 'NodeAffinity', nodes: [], set: relabel.set, remove: [], overwrite: relabel.overwrite }], nodes: [] };
      byChange.set(key, candidate);
    }
    return candidate;
  };
  // Nodes of one class share their list of reasons (4,500 refused by one selector in about 500
  // lists): each list's candidate is worked out once.
  const byList = new Map<readonly Reason[], Candidate | null>();
  const nodes = failingOnlyOn(input.judgement, 'NodeAffinity');
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as (typeof nodes)[number];
    let candidate = byList.get(node.reasons);
    if (candidate === undefined) byList.set(node.reasons, (candidate = candidateOf(node.reasons)));
    if (candidate === null) continue;
    const change = candidate.changes[0];
    if (change?.kind === 'labelNodes') change.nodes.push(node.name);
    candidate.nodes.push(node.name);
  }
  return [...byChange.values()];
}
