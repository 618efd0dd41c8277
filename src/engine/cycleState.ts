// The scheduler computes a pod's PreFilter state once per scheduling cycle and reads it in every
// Filter call; rules here do the same, keyed by the rule context of one diagnosis.
//
// A diagnosis also replays fixes, each on a patched copy of the context (fixes/patch.ts) that
// keeps every untouched node's facts as they were. A state that depends only on some inputs
// (the pod's labels and terms, the nodes' facts) names them with `inputs`: a context whose
// inputs are the same values (===, element by element) reuses the state, instead of walking
// 50,000 pods again for every replay.
import type { RuleContext } from './model.js';

const reusedStates = 4;

/** Inputs are the same when each is the same value; indexed, as it may compare 5,000 nodes' facts in code not yet compiled. */
function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `same`: whether two contexts' inputs are the same (each element ===, unless the rule compares them itself). */
export function oncePerCycle<T>(compute: (ctx: RuleContext) => T, inputs?: (ctx: RuleContext) => readonly unknown[], same: (a: readonly unknown[], b: readonly unknown[]) => boolean = sameElements): (ctx: RuleContext) => T {
  const cache = new WeakMap<RuleContext, T>();
  // The states kept for reuse belong to one read of the cluster: a fix's patched snapshot keeps
  // its original's `source` object, a new read (--watch, another dump) has its own. Kept with
  // that object, they go when the read does, instead of holding four old snapshots alive.
  const recentOf = new WeakMap<object, { inputs: readonly unknown[]; state: T }[]>();
  // The judge asks for every node in turn with the same context: the last answer is checked
  // first (kept until the next context, as `recent` keeps a few states).
  let last: { ctx: RuleContext; state: T } | undefined;
  return (ctx) => {
    if (last?.ctx === ctx) return last.state;
    let state: T;
    if (cache.has(ctx)) state = cache.get(ctx) as T;
    else {
      const key = inputs?.(ctx);
      let recent = recentOf.get(ctx.snapshot.source);
      if (!recent) recentOf.set(ctx.snapshot.source, (recent = []));
      const reused = key ? recent.find((r) => same(r.inputs, key)) : undefined;
      state = reused ? reused.state : compute(ctx);
      if (key && !reused) {
        recent.unshift({ inputs: key, state });
        recent.length = Math.min(recent.length, reusedStates);
      }
      cache.set(ctx, state);
    }
    last = { ctx, state };
    return state;
  };
}
