// Runs one rule the way the engine's judge does, for table tests: the rule context of a small
// cluster, the rule's PreFilter once, its Filter on each node.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { PreFilterOutcome, RuleContext } from '../../src/engine/model.js';
import type { Rule } from '../../src/engine/reasons.js';
import type { Reason } from '../../src/engine/reasons.js';
import type { Collections } from '../../src/snapshot/types.js';
import { contextFor } from './builders.js';

/** A table case for a rule's Filter: the pod, the cluster, and every node's reasons by name. */
export interface FilterCase {
  name: string;
  pod: V1Pod;
  nodes: V1Node[];
  /** Pods already in the cluster. */
  pods?: V1Pod[];
  want: Record<string, Reason[]>;
}

export interface RuleOutcome {
  preFilter: PreFilterOutcome;
  /** Filter reasons by node name. */
  nodes: Record<string, Reason[]>;
}

function filterEach(rule: Rule, ctx: RuleContext): Record<string, Reason[]> {
  return Object.fromEntries(ctx.nodes.map((n) => [n.name, rule.filter(ctx, n)]));
}

/** The rule's PreFilter, and its Filter on every node. */
export function evaluate(rule: Rule, target: V1Pod, nodes: V1Node[], others: Partial<Collections> = {}): RuleOutcome {
  const ctx = contextFor(target, nodes, others);
  return { preFilter: rule.preFilter?.(ctx) ?? {}, nodes: filterEach(rule, ctx) };
}

/** The rule's Filter reasons on every node, by node name. */
export function verdicts(rule: Rule, target: V1Pod, nodes: V1Node[], others: Partial<Collections> = {}): Record<string, Reason[]> {
  return filterEach(rule, contextFor(target, nodes, others));
}

/** The rule's Filter reasons on one node. */
export function runRule(rule: Rule, target: V1Pod, node: V1Node, others: Partial<Collections> = {}): Reason[] {
  const ctx = contextFor(target, [node], others);
  const facts = ctx.nodes[0];
  if (!facts) throw new Error('no node facts');
  return rule.filter(ctx, facts);
}
