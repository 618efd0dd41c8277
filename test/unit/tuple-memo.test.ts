// The memo behind NodeAffinity's classes and the fixes that group nodes by them: one answer per
// list of values, worked out once; lists that differ in any value or in length never share one.
import { describe, expect, it } from 'vitest';
import { TupleMemo } from '../../src/engine/tupleMemo.js';

describe('TupleMemo', () => {
  it('works an answer out once per list, and keeps lists of other lengths or values apart', () => {
    const memo = new TupleMemo<string>();
    let computed = 0;
    const get = (parts: unknown[]) => memo.get(parts, () => `${++computed}:${parts.map(String).join(',')}`);
    const lists: unknown[][] = [[], ['a'], ['a', 'b'], ['a', 'b', 'c'], ['b'], ['b', 'a'], ['a', undefined], [undefined], [undefined, 'a'], ['1'], [1]];
    const first = lists.map(get);
    expect(computed).toBe(lists.length);
    expect(new Set(first).size).toBe(lists.length);
    // Again, in another order and with new arrays of equal values: the same answers, none computed.
    for (const [i, list] of [...lists.entries()].reverse()) expect(get([...list])).toBe(first[i]);
    expect(computed).toBe(lists.length);
  });

  it('compares objects by identity, strings by content', () => {
    const memo = new TupleMemo<number>();
    let computed = 0;
    const key = { a: 1 };
    const answer = memo.get([key, 'x'], () => ++computed);
    expect(memo.get([key, `${'x'}`], () => ++computed)).toBe(answer);
    expect(memo.get([{ a: 1 }, 'x'], () => ++computed)).not.toBe(answer);
    expect(computed).toBe(2);
  });
});
