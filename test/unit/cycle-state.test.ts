// A PreFilter state is computed once per context, and reused by a context whose named inputs
// are the same values (a fix replay that leaves them untouched), within one read of the cluster.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { oncePerCycle } from '../../src/engine/cycleState.js';
import type { RuleContext } from '../../src/engine/model.js';

const oneRead = { kind: 'live', description: 'test' };

function context(nodes: unknown[], source: object = oneRead): RuleContext {
  return { nodes, snapshot: { source } } as unknown as RuleContext;
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

  it('reuses a state only within one read: a new read (--watch, another dump) computes its own', () => {
    let computed = 0;
    const state = oncePerCycle(
      () => ++computed,
      (ctx) => ctx.nodes,
    );
    const a = { name: 'a' };
    expect(state(context([a], { kind: 'live', description: 'first read' }))).toBe(1);
    expect(state(context([a], { kind: 'live', description: 'second read' }))).toBe(2);
  });

  it('keeps nothing of a read once it is gone', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const state = oncePerCycle(
      (ctx) => ctx.nodes.length,
      (ctx) => ctx.nodes,
    );
    // The old read's node, referenced from nowhere once this returns.
    const gone = ((): WeakRef<object> => {
      const node = { name: 'big' };
      state(context([node], { kind: 'live', description: 'old read' }));
      return new WeakRef(node);
    })();
    // Later reads, as --watch makes them: the old read's nodes must not stay alive through the cache.
    for (let i = 0; i < 3; i++) state(context([{ name: `n${i}` }], { kind: 'live', description: `read ${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(gone.deref()).toBeUndefined();
  });
});
