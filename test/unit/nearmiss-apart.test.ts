// Telling plainly different values apart without aligning them (nearmiss/apart.ts) must never
// hide a near miss or a near value: what it rules out, the full comparison rules out too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { near } from '../../src/engine/fixes/selector.js';
import { certainlyBelow, compareText, isNearMiss, mayBeNearMiss, moreTyposApart, similarity } from '../../src/engine/nearmiss/index.js';

/** Levenshtein distance, whole table: the reference the banded one is held to. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

// Few letters, so that strings come near each other; case pairs; and characters the bound
// does not cover (a space, a no-break space, a Cyrillic look-alike, a combining accent).
const ascii = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'c', 'C', '-', '0', '1', 'l', 'I', 'i', 'o', 'O'), maxLength: 14 });
const any = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'c', '-', '0', '1', 'l', 'O', ' ', '\u00a0', '\u0430', 'e', '\u0301', '\u00e9'), maxLength: 14 });

const letters = ['a', 'A', 'b', 'c', 'C', '-', '0', '1', 'l', 'I', 'o', ' ', '\u00a0', '\u0430', '\u0301'];

/** As moreTyposApart folds them: lowercased, the look-alikes 1 l I (and i) one letter, 0 O o another. */
const folded = (s: string) => s.toLowerCase().replace(/[1i]/g, 'l').replace(/0/g, 'o');

/** A string and the same string after a few edits (insertions, deletions, changes, case): pairs at the bounds. */
const pair = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...letters.slice(0, 8)), minLength: 5, maxLength: 20 }),
    fc.array(fc.tuple(fc.constantFrom('insert', 'delete', 'change', 'case'), fc.nat(), fc.constantFrom(...letters)), { maxLength: 5 }),
  )
  .map(([base, edits]) => {
    const chars = [...base];
    for (const [edit, at, char] of edits) {
      const i = chars.length === 0 ? 0 : at % chars.length;
      if (edit === 'insert') chars.splice(i, 0, char);
      else if (edit === 'delete') chars.splice(i, 1);
      else if (edit === 'change') chars[i] = char;
      else chars[i] = chars[i]?.toUpperCase() ?? char;
    }
    return [base, chars.join('')] as const;
  });

describe('moreTyposApart', () => {
  it('is the edit distance of the folded strings, above the bound, for printable ASCII; else false', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(ascii, ascii), pair), fc.nat(6), ([a, b], typos) => {
        const printable = /^[\x21-\x7e]*$/.test(a) && /^[\x21-\x7e]*$/.test(b);
        expect(moreTyposApart(a, b, typos)).toBe(printable && distance(folded(a), folded(b)) > typos);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 2000) },
    );
  });

  it('decides nothing where a string has a character other than printable ASCII', () => {
    expect(moreTyposApart('a b', 'xyz-long-value', 0)).toBe(false);
    expect(moreTyposApart('gpu', 'g\u0440u-and-more', 0)).toBe(false);
  });

  it('tells a pinned hostname from other hostnames, and not from its near misses', () => {
    expect(mayBeNearMiss('node-04999', 'node-00417')).toBe(false);
    expect(mayBeNearMiss('node-04999', 'node-0499')).toBe(true);
    expect(mayBeNearMiss('node-04999', 'NODE-04999')).toBe(true);
  });
});

describe('what it rules out, the full comparison rules out', () => {
  it('never a near miss where mayBeNearMiss says no', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(fc.oneof(ascii, any), fc.oneof(ascii, any)), pair), ([a, b]) => {
        if (!mayBeNearMiss(a, b)) expect(isNearMiss(compareText(a, b))).toBe(false);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 2000) },
    );
  });

  it('never a similarity at or above the threshold where certainlyBelow says below', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(fc.oneof(ascii, any), fc.oneof(ascii, any)), pair), fc.constantFrom(0.25, 0.5, 0.6, 0.75, 0.9), ([a, b], threshold) => {
        if (certainlyBelow(a, b, threshold)) expect(similarity(a, b)).toBeLessThan(threshold);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 2000) },
    );
    // It does decide: the pod's default tolerations against a taint's key, a pinned hostname.
    expect(certainlyBelow('node.kubernetes.io/not-ready', 'dedicated', 0.5)).toBe(true);
    expect(certainlyBelow('dedicated', 'dedicatd', 0.5)).toBe(false);
  });

  it('never near enough for a selector fix where the typos alone are too many', () => {
    fc.assert(
      fc.property(fc.oneof(fc.tuple(fc.oneof(ascii, any), fc.oneof(ascii, any)), pair), ([a, b]) => {
        expect(near(a, b)).toBe(a === b || similarity(a, b) >= 0.75);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 2000) },
    );
  });
});
