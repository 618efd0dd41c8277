// The fixes the engine offers for `target` in a small cluster, as diagnose() computes them.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ObjectRef } from '../../src/engine/events.js';
import { proposeFixes, type Fix } from '../../src/engine/fixes/index.js';
import { judge } from '../../src/engine/judge.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { Collections } from '../../src/snapshot/types.js';
import { contextFor } from './builders.js';

export function fixesFor(target: V1Pod, nodes: V1Node[], others: Partial<Collections> = {}, owners: ObjectRef[] = []): Fix[] {
  const ctx = contextFor(target, nodes, others);
  return proposeFixes(ruleSet.rules, ctx, judge(ruleSet.rules, ctx), owners).fixes;
}

/** Each fix reduced to its changes' kinds and the nodes it makes fit, for whole comparisons. */
export function outline(fixes: readonly Fix[]): { kinds: string[]; makesFit: string[] }[] {
  return fixes.map((f) => ({ kinds: f.changes.map((c) => c.kind), makesFit: f.makesFit }));
}
