// Runs every filter rule on every node, the way the scheduler's framework does: PreFilter
// first (a failure there fails the pod everywhere; a node-name narrowing excludes the rest),
// then each node through every filter, keeping all reasons in filter order.
import { isGap } from '../snapshot/types.js';
import type { NodeVerdict } from './diagnosis.js';
import type { Reason, RuleContext } from './model.js';
import type { PluginName } from './plugins.js';
import { filterRules } from './rules/registry.js';

export interface Judgement {
  preFilter: Reason[];
  nodes: NodeVerdict[];
}

function isNotEvaluated(reason: Reason): boolean {
  return 'unchecked' in reason.detail && reason.detail.unchecked === true;
}

export function judge(ctx: RuleContext): Judgement {
  const preFilter: Reason[] = [];
  const outside = new Map<string, Reason[]>();
  let allowed: Set<string> | undefined;
  for (const rule of filterRules) {
    const outcome = rule.preFilter?.(ctx);
    if (!outcome) continue;
    preFilter.push(...(outcome.reasons ?? []));
    // RunPreFilterPlugins stops at an UnschedulableAndUnresolvable status (preemption cannot
    // help), so the later PreFilter plugins never run and report nothing.
    if (outcome.reasons?.some((r) => r.code === 'UnschedulableAndUnresolvable')) break;
    if (outcome.nodeNames && outcome.outsideDetail) {
      const names = outcome.nodeNames;
      allowed = allowed ? new Set([...allowed].filter((n) => names.has(n))) : new Set(names);
      const reason: Reason = { plugin: rule.plugin, code: 'UnschedulableAndUnresolvable', detail: outcome.outsideDetail };
      for (const node of ctx.nodes) {
        if (!names.has(node.name)) outside.set(node.name, [...(outside.get(node.name) ?? []), reason]);
      }
    }
  }
  const nodes = ctx.nodes.map((node): NodeVerdict => {
    const reasons: Reason[] = [...(outside.get(node.name) ?? [])];
    const unchecked: PluginName[] = [];
    for (const rule of filterRules) {
      const found = rule.filter(ctx, node).filter((r) => !reasons.some((o) => o.plugin === r.plugin && o.detail.kind === r.detail.kind));
      // A rule that could not evaluate (input we do not have) says so; that is not a failure.
      const notEvaluated = found.filter(isNotEvaluated);
      reasons.push(...found.filter((r) => !isNotEvaluated(r)));
      const gap = found.length === 0 && rule.needs(ctx.pod).some((c) => isGap(ctx.snapshot, c));
      if (gap || notEvaluated.length > 0) unchecked.push(rule.plugin);
    }
    return { name: node.name, pods: node.pods.length, fits: reasons.length === 0 && preFilter.length === 0, reasons, unchecked };
  });
  return { preFilter, nodes };
}
