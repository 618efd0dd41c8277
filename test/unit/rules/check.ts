// Runs one rule on one node, the way the engine does, for table tests.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { FilterRule, Reason } from '../../../src/engine/model.js';
import type { Collections } from '../../../src/snapshot/types.js';
import { contextFor } from '../../support/builders.js';

export function runRule(rule: FilterRule, target: V1Pod, node: V1Node, others: Partial<Collections> = {}): Reason[] {
  const ctx = contextFor(target, [node], others);
  const facts = ctx.nodes[0];
  if (!facts) throw new Error('no node facts');
  return rule.filter(ctx, facts);
}
