// The newest time in the input, which ages are measured against (the engine has no clock).
import { describe, expect, it } from 'vitest';
import { newestOf } from '../../src/snapshot/types.js';

describe('newestOf', () => {
  it('the largest known time; unknown ones skipped; none known: undefined', () => {
    expect(newestOf([3, undefined, 7, 5])).toBe(7);
    expect(newestOf([undefined, undefined])).toBeUndefined();
    expect(newestOf([])).toBeUndefined();
  });

  it("takes as many times as a large cluster's events (more than a call takes arguments)", () => {
    const times = Array.from({ length: 500_000 }, (_, i) => (i % 3 === 0 ? undefined : i));
    expect(newestOf(times)).toBe(499_999);
  });
});
