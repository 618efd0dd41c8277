// The replay: the engine's own judge, on a patched copy of the context, for the nodes a change
// targets only. A node is made to fit only when its verdict becomes `fits`; `unproven` (a gap
// in the input) is reported apart and never counted.
import type { NodeVerdict } from '../judge.js';
import { judge, type Judgement } from '../judge.js';
import type { RuleContext } from '../model.js';
import type { Rule } from '../reasons.js';
import type { Reason } from '../reasons.js';
import type { PluginName } from '../names.js';
import { patchedContext } from './patch.js';
import type { Change } from './types.js';

export interface Replay {
  fits: string[];
  unproven: string[];
  /** Of `unproven`, the nodes that would fit but whose pods were not read: reading them can confirm it. */
  podsUnread: string[];
  /** Nodes that still fail, with their plugins in filter order. */
  blocked: Record<string, PluginName[]>;
  /** The patched context and its judgement, to look for a second change. */
  ctx: RuleContext;
  judgement: Judgement;
}

/** The plugins of `reasons`, each once, in order: a node has a few reasons, and a replay thousands of nodes. */
function pluginsOf(preFilter: readonly Reason[], reasons: readonly Reason[]): PluginName[] {
  if (preFilter.length === 0 && reasons.length === 1) return [(reasons[0] as Reason).plugin];
  const out: PluginName[] = [];
  for (let i = 0; i < preFilter.length + reasons.length; i++) {
    const r = (i < preFilter.length ? preFilter[i] : reasons[i - preFilter.length]) as Reason;
    if (!out.includes(r.plugin)) out.push(r.plugin);
  }
  return out;
}

/** `patched`: the context with `changes` made, when the caller has it already (unread.ts). */
export function replay(rules: readonly Rule[], ctx: RuleContext, changes: readonly Change[], nodes: readonly string[], patched: RuleContext = patchedContext(ctx, changes)): Replay {
  const judgement = judge(rules, patched, new Set(nodes));
  // A node whose pods were never read (a live read in stages skips nodes that node objects rule
  // out) looks empty: passing there proves nothing.
  const podsRead = ctx.snapshot.podsReadOn ? new Set(ctx.snapshot.podsReadOn) : undefined;
  const fits: string[] = [];
  const unproven: string[] = [];
  const podsUnread: string[] = [];
  const blocked: Record<string, PluginName[]> = {};
  // Nodes of one class share their list of reasons (the judge keeps a rule's own list): one
  // list of plugins each, the same array for all of them (read, never changed, by callers).
  let lastReasons: readonly Reason[] | undefined;
  let lastPlugins: PluginName[] = [];
  // Indexed: a replay's verdicts are walked once, before V8 has compiled this loop.
  for (let i = 0; i < judgement.nodes.length; i++) {
    const node = judgement.nodes[i] as NodeVerdict;
    if (node.verdict === 'fits' && podsRead && !podsRead.has(node.name)) {
      unproven.push(node.name);
      podsUnread.push(node.name);
    }
    else if (node.verdict === 'fits') fits.push(node.name);
    else if (node.verdict === 'unproven') unproven.push(node.name);
    else {
      if (node.reasons !== lastReasons) {
        lastReasons = node.reasons;
        lastPlugins = pluginsOf(judgement.preFilter, node.reasons);
      }
      blocked[node.name] = lastPlugins;
    }
  }
  return { fits, unproven, podsUnread, blocked, ctx: patched, judgement };
}
