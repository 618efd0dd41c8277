// The scheduler computes a pod's PreFilter state once per scheduling cycle and reads it in every
// Filter call; rules here do the same, keyed by the rule context of one diagnosis.
import type { RuleContext } from './model.js';

export function oncePerCycle<T>(compute: (ctx: RuleContext) => T): (ctx: RuleContext) => T {
  const cache = new WeakMap<RuleContext, T>();
  return (ctx) => {
    if (!cache.has(ctx)) cache.set(ctx, compute(ctx));
    return cache.get(ctx) as T;
  };
}
