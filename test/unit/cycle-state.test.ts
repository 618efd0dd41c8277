// A PreFilter state is computed once per context, and reused by a context whose named inputs
// are the same values (a fix replay that leaves them untouched).
import { describe, expect, it } from 'vitest';
import { oncePerCycle } from '../../src/engine/cycleState.js';
import type { RuleContext } from '../../src/engine/model.js';

function context(nodes: unknown[]): RuleContext {
  return { nodes } as unknown as RuleContext;
}

describe('oncePerCycle', () => {
  it('computes once per context', () => {
    let computed = 0;
    const state = oncePerCycle(() => ++computed);
    const ctx = context([]);
    expect([state(ctx), state(ctx)]).toEqual([1, 1]);
    expect(state(context([]))).toBe(2);
  });

  it('reuses the state of a context with the same inputs, and only then', () => {
    let computed = 0;
    const state = oncePerCycle(
      () => ++computed,
      (ctx) => ctx.nodes,
    );
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(state(context([a, b]))).toBe(1);
    expect(state(context([a, b]))).toBe(1); // a replay that touched neither node
    expect(state(context([a, { name: 'b' }]))).toBe(2); // node b patched: a new object
    expect(state(context([a]))).toBe(3);
  });
});
