// The nodes to read are the first names in sort order of every replay's unread nodes, each once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepFirstNames } from '../../../src/engine/fixes/firstNames.js';

describe('keepFirstNames', () => {
  it('holds what gathering every batch, sorting and cutting would', () => {
    // Names that repeat, share prefixes and differ in case, given in batches of any order.
    const name = fc.stringMatching(/^[a-cA-C0-9-]{0,4}$/);
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 30 }), { maxLength: 6 }), fc.integer({ min: 0, max: 8 }), (batches, limit) => {
        const kept: string[] = [];
        for (const batch of batches) keepFirstNames(kept, batch, limit);
        expect(kept).toEqual([...new Set(batches.flat())].sort().slice(0, limit));
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 500) },
    );
  });
});
