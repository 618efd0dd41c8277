// Runs every filter rule on every node, the way the scheduler's framework does: PreFilter
// first (a failure there fails the pod everywhere; a node-name narrowing excludes the rest),
// then each node through every filter, keeping all reasons in filter order.
//
// What the input lacks is never taken as an answer. A rule whose input is a gap (a collection
// missing from a dump, forbidden, partial) keeps only the failures it proves despite the gap
// (provenDespiteGaps) and is otherwise "not checked"; a rule that does not model the pod at
// all (notEvaluated) is "not checked" everywhere. A node that passes what was checked but has
// an unchecked plugin is `unproven`, never `fits`.
import { isGap, type CollectionName } from '../snapshot/types.js';
import type { V1Pod } from '@kubernetes/client-node';
import { passed, type NodeFacts, type NodeNotChecked, type NotEvaluated, type RuleContext } from './model.js';
import type { Rule } from './reasons.js';
import type { Reason } from './reasons.js';
import { describeNominated, withNominated, type NominatedPod } from './nominated.js';
import type { PluginName } from './names.js';

/**
 * `fits`: every filter was checked and passes. `fails`: at least one failure is proven.
 * `unproven`: nothing failed, but some filter could not be checked (a gap in the input, or a
 * feature not modelled), so the node is not called a fit.
 */
export type Verdict = 'fits' | 'fails' | 'unproven';

/** A plugin that was not checked for this pod, and why. */
export type NotChecked =
  | { plugin: PluginName; cause: 'gap'; collections: CollectionName[] }
  | ({ plugin: PluginName; cause: 'notModelled' } & NotEvaluated)
  /** Not decided on these nodes only (an expression or a device feature the replay does not model). */
  | ({ plugin: PluginName; cause: 'notModelledOnNodes'; nodes: string[] } & NodeNotChecked);

export interface NodeVerdict {
  name: string;
  /** True only when the verdict is `fits`. */
  fits: boolean;
  verdict: Verdict;
  /** Non-terminal pods already bound to the node. */
  pods: number;
  /** Every failing reason, in the scheduler's filter order; the first is what the scheduler reports. */
  reasons: Reason[];
  /** Plugins not checked on this node (see Diagnosis.notChecked), so a pass there is not proven. */
  unchecked: PluginName[];
  /**
   * Set when the pods nominated to this node (priority >= the pod's) add a failing reason: the
   * scheduler filters with them added first. `decides`: without them the node would pass.
   */
  nominated?: { pods: NominatedPod[]; decides: boolean };
  /**
   * Found to fit where the scheduler's message says no node does, with nothing in the input dated
   * after its attempt to explain it: `unproven` (unknown), not `fits`.
   */
  disputed?: true;
}

export interface Judgement {
  preFilter: Reason[];
  nodes: NodeVerdict[];
  notChecked: NotChecked[];
}

interface RuleInput {
  rule: Rule;
  /** Collections the rule reads for this pod that are gaps. */
  gaps: CollectionName[];
  notEvaluated: NotEvaluated | undefined;
}

function inputsOf(rules: readonly Rule[], ctx: RuleContext): RuleInput[] {
  return rules.map((rule) => ({
    rule,
    gaps: rule.needs(ctx.pod).filter((c) => isGap(ctx.snapshot, c) !== undefined),
    notEvaluated: rule.notEvaluated?.(ctx.pod),
  }));
}

/** The reasons that stand despite the rule's gaps: all of them, as they are, without a gap (callers only read them). */
function proven(input: RuleInput, reasons: readonly Reason[]): readonly Reason[] {
  if (input.gaps.length === 0) return reasons;
  return reasons.filter((r) => input.rule.provenDespiteGaps?.(r.detail, input.gaps) ?? false);
}

/** Adds `node` to the entry for the same plugin and cause, or a new entry. */
function notCheckedOnNode(notChecked: NotChecked[], plugin: PluginName, undecided: NodeNotChecked, node: string): void {
  const same = notChecked.find((n) => n.cause === 'notModelledOnNodes' && n.plugin === plugin && JSON.stringify({ ...n, nodes: [] }) === JSON.stringify({ plugin, cause: n.cause, nodes: [], ...undecided }));
  if (same && same.cause === 'notModelledOnNodes') same.nodes.push(node);
  else notChecked.push({ plugin, cause: 'notModelledOnNodes', nodes: [node], ...undecided });
}

// Where each name is in a list of node facts, once per list (or null when a name repeats): a
// fix's replay judges the nodes it targets, often a few of 5,000, and every replay of a
// diagnosis that leaves the nodes alone shares the context's list.
const positions = new WeakMap<readonly NodeFacts[], Map<string, number> | null>();

export function positionsIn(nodes: readonly NodeFacts[]): Map<string, number> | null {
  let at = positions.get(nodes);
  if (at === undefined) {
    at = new Map();
    // Indexed, as the judge's loop: it runs once per process on 5,000 names, in the interpreter.
    for (let i = 0; i < nodes.length; i++) {
      const name = (nodes[i] as NodeFacts).name;
      if (at.has(name)) {
        at = null;
        break;
      }
      at.set(name, i);
    }
    positions.set(nodes, at);
  }
  return at;
}

/**
 * `to` holds nodes of the same names in the same places as `from` (a fix's patched copy of the
 * list): it shares `from`'s index instead of building one of 5,000 names again.
 */
export function samePositions(from: readonly NodeFacts[], to: readonly NodeFacts[]): void {
  const at = positions.get(from);
  if (at !== undefined && !positions.has(to)) positions.set(to, at);
}

/** The nodes of `nodes` named in `only`, in the order of `nodes`. */
function nodesNamed(nodes: readonly NodeFacts[], only: ReadonlySet<string>): readonly NodeFacts[] {
  const at = positionsIn(nodes);
  if (!at) return nodes.filter((node) => only.has(node.name));
  // A few names (a batch of unread.ts, a preemption's node): their places, sorted as numbers.
  if (only.size * 16 < nodes.length) {
    const places = new Int32Array(only.size);
    let count = 0;
    only.forEach((name) => {
      const i = at.get(name);
      if (i !== undefined) places[count++] = i;
    });
    const sorted = places.subarray(0, count).sort();
    const few: NodeFacts[] = [];
    for (let i = 0; i < count; i++) few.push(nodes[sorted[i] as number] as NodeFacts);
    return few;
  }
  // Marked by place, then taken in order: a replay names up to 4,500 nodes, and a sort with a
  // comparator would call it 50,000 times before V8 has compiled it.
  const marked = new Uint8Array(nodes.length);
  only.forEach((name) => {
    const i = at.get(name);
    if (i !== undefined) marked[i] = 1;
  });
  const found: NodeFacts[] = [];
  for (let i = 0; i < nodes.length; i++) if (marked[i] === 1) found.push(nodes[i] as NodeFacts);
  return found;
}

const noReasons: Reason[] = passed;
const noneUnchecked: PluginName[] = passed;

/** `list` with `plugin` added: the shared empty list is never the one added to. */
function withUnchecked(list: PluginName[], plugin: PluginName): PluginName[] {
  const out = list === noneUnchecked ? [] : list;
  out.push(plugin);
  return out;
}

/**
 * Judges every node with `rules`, given in the scheduler's filter order. `only`: filter just
 * these nodes (a replay of a fix); PreFilter still sees every node, as the scheduler's does.
 */
export function judge(rules: readonly Rule[], ctx: RuleContext, only?: ReadonlySet<string>): Judgement {
  const inputs = inputsOf(rules, ctx);
  const notChecked: NotChecked[] = inputs.flatMap(({ rule, gaps, notEvaluated }): NotChecked[] => {
    if (notEvaluated) return [{ plugin: rule.meta.name, cause: 'notModelled', ...notEvaluated }];
    return gaps.length > 0 ? [{ plugin: rule.meta.name, cause: 'gap', collections: gaps }] : [];
  });

  const preFilter: Reason[] = [];
  const outside = new Map<string, Reason[]>();
  const skipped = new Set<RuleInput>();
  for (const input of inputs) {
    if (input.notEvaluated) continue;
    const outcome = input.rule.preFilter?.(ctx);
    if (!outcome) continue;
    // A Skip drawn from partial input would pass nodes on a guess: the rule runs, and its gap
    // leaves them not checked.
    if (outcome.skip && input.gaps.length === 0) skipped.add(input);
    const reasons = proven(input, outcome.reasons ?? []);
    preFilter.push(...reasons);
    // RunPreFilterPlugins stops at an UnschedulableAndUnresolvable status (preemption cannot
    // help), so the later PreFilter plugins never run and report nothing.
    if (reasons.some((r) => r.code === 'UnschedulableAndUnresolvable')) break;
    // A narrowing drawn from partial input would exclude nodes on a guess.
    if (outcome.nodeNames && outcome.outsideDetail && input.gaps.length === 0) {
      const names = outcome.nodeNames;
      const reason: Reason = { plugin: input.rule.meta.name, code: 'UnschedulableAndUnresolvable', detail: outcome.outsideDetail };
      for (const node of ctx.nodes) {
        if (!names.has(node.name)) outside.set(node.name, [...(outside.get(node.name) ?? []), reason]);
      }
    }
  }

  // The rules whose Filter runs on each node, in filter order: for the common pod, four of 13.
  const perNode = skipped.size > 0 ? inputs.filter((input) => !skipped.has(input)) : inputs;
  const judged = only ? nodesNamed(ctx.nodes, only) : ctx.nodes;
  const nodes = judged.map((node): NodeVerdict => {
    const excluded = outside.get(node.name);
    // A verdict's lists are read, never changed, by everyone after the judge: a node that fails
    // one rule keeps that rule's own list (NodeAffinity's is shared by its class), and a node
    // with nothing unchecked shares one empty list. 5,000 verdicts are most of what survives a
    // diagnosis's young-generation collections, and every list kept is copied by each.
    let reasons: Reason[] = excluded ? [...excluded] : noReasons;
    let ownReasons = excluded !== undefined;
    let unchecked: PluginName[] = noneUnchecked;
    // Indexed: on 5,000 nodes this loop mostly runs before V8 optimises it, and unoptimised
    // for...of allocates an iterator result per step.
    for (let i = 0; i < perNode.length; i++) {
      const input = perNode[i] as RuleInput;
      if (input.notEvaluated) {
        unchecked = withUnchecked(unchecked, input.rule.meta.name);
        continue;
      }
      // 13 rules on 5,000 nodes: nothing is copied for the common empty answer.
      const raw = input.rule.filter(ctx, node);
      const found = raw.length > 0 && reasons.length > 0 ? raw.filter((r) => !reasons.some((o) => o.plugin === r.plugin && o.detail.kind === r.detail.kind)) : raw;
      // proven() only where there is something to sift: 65,000 calls saved on the common pass.
      const kept = found.length > 0 && input.gaps.length > 0 ? proven(input, found) : found;
      if (kept.length > 0 && reasons.length === 0 && !ownReasons) reasons = kept as Reason[];
      else if (kept.length > 0) {
        if (!ownReasons) {
          reasons = [...reasons];
          ownReasons = true;
        }
        // Not push(...kept): a spread call, on 5,000 nodes, before V8 has compiled the loop.
        for (let k = 0; k < kept.length; k++) reasons.push(kept[k] as Reason);
      }
      if (input.gaps.length > 0 && kept.length === 0) unchecked = withUnchecked(unchecked, input.rule.meta.name);
      else if (kept.length === 0 && preFilter.length === 0) {
        const undecided = input.rule.notCheckedOn?.(ctx, node);
        if (undecided) {
          unchecked = withUnchecked(unchecked, input.rule.meta.name);
          notCheckedOnNode(notChecked, input.rule.meta.name, undecided, node.name);
        }
      }
    }
    // Inline, not a helper: a call per node costs, in code V8 has not compiled yet.
    const verdict: Verdict = reasons.length > 0 || preFilter.length > 0 ? 'fails' : unchecked.length > 0 ? 'unproven' : 'fits';
    return { name: node.name, pods: node.pods.length, fits: verdict === 'fits', verdict, reasons, unchecked };
  });
  if (ctx.nominated && preFilter.length === 0) withNominatedPass(rules, ctx, ctx.nominated, judged, nodes);
  return { preFilter, nodes, notChecked };
}

/**
 * RunFilterPluginsWithNominatedPods: on a node with nominated pods the scheduler's answer is the
 * first pass's (them added) when it fails, else the second's (without them), which `nodes`
 * already holds. Nodes with nominated pods are few: each is judged once more, alone.
 */
function withNominatedPass(rules: readonly Rule[], ctx: RuleContext, nominated: ReadonlyMap<string, readonly V1Pod[]>, judged: readonly NodeFacts[], nodes: NodeVerdict[]): void {
  for (let i = 0; i < judged.length; i++) {
    const facts = judged[i] as NodeFacts;
    const pods = nominated.get(facts.name);
    if (!pods) continue;
    const added = withNominated(ctx, facts, pods);
    // The same names in the same places: the pass judging one node shares the index of 5,000.
    samePositions(ctx.nodes, added.nodes);
    const first = judge(rules, added, new Set([facts.name])).nodes[0];
    const second = nodes[i] as NodeVerdict;
    if (!first || first.verdict === 'fits') continue;
    if (first.verdict === 'unproven') {
      if (second.verdict === 'fits') nodes[i] = { ...second, fits: false, verdict: 'unproven', unchecked: first.unchecked };
      continue;
    }
    const adds = first.reasons.some((r) => !second.reasons.some((o) => o.plugin === r.plugin && o.detail.kind === r.detail.kind));
    nodes[i] = {
      ...second,
      fits: false,
      verdict: 'fails',
      reasons: first.reasons,
      unchecked: first.unchecked,
      ...(adds ? { nominated: { pods: describeNominated(pods, facts), decides: second.verdict !== 'fails' } } : {}),
    };
  }
}
