// Printable ASCII skips the Unicode property tests (unicode.ts describeUncached, compare.ts
// traits). The shortcut rests on facts about U+0021..U+007E that the slow path would find by
// itself: checked here with the slow path's own predicates and expressions, character by
// character, so that a table or predicate that one day names one of them breaks this test.
import { describe, expect, it } from 'vitest';
import { compareText, describeCodePoint } from '../../src/engine/nearmiss/index.js';
import { isInvisible, isNonBreakingSpace, isPrintableAscii, isWhitespace, lookAlikeOf } from '../../src/engine/nearmiss/unicode.js';

const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i));

/** The name the tables derive for a letter or digit, spelled out independently. */
function expectedName(char: string): string | undefined {
  if (/^[a-z]$/.test(char)) return `LATIN SMALL LETTER ${char.toUpperCase()}`;
  if (/^[A-Z]$/.test(char)) return `LATIN CAPITAL LETTER ${char}`;
  const digits = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];
  return /^[0-9]$/.test(char) ? `DIGIT ${digits[Number(char)]}` : undefined;
}

describe('printable ASCII takes the shortcut the slow path would agree with', () => {
  it('is exactly U+0021..U+007E', () => {
    for (let code = 0; code < 0x300; code++) expect(isPrintableAscii(String.fromCharCode(code)), `U+${code.toString(16)}`).toBe(code >= 0x21 && code <= 0x7e);
    expect(isPrintableAscii('ab')).toBe(false);
    expect(isPrintableAscii('')).toBe(false);
  });

  it.each(printable)('%s is no special kind, visible, named only as a letter or digit', (char) => {
    expect(isInvisible(char)).toBe(false);
    expect(isNonBreakingSpace(char)).toBe(false);
    expect(isWhitespace(char)).toBe(false);
    expect(lookAlikeOf(char)).toBeUndefined();
    expect(char.normalize('NFKC')).toBe(char);
    expect(/^[\p{C}\p{Z}\p{M}]$/u.test(char)).toBe(false);
    const info = describeCodePoint(char);
    expect(info).toEqual({ char, codePoint: `U+00${char.charCodeAt(0).toString(16).toUpperCase()}`, visible: true, ...(expectedName(char) ? { name: expectedName(char) } : {}) });
  });

  it('the ASCII look-alike groups (1 l I, 0 O o) are look-alikes; any other pair is case or a typo', () => {
    const groups = ['1lI', '0Oo'];
    const group = (c: string) => groups.findIndex((g) => g.includes(c));
    for (const a of printable) {
      for (const b of printable) {
        if (a === b) continue;
        const expected = a.toLowerCase() === b.toLowerCase() ? ['case'] : group(a) !== -1 && group(a) === group(b) ? ['lookAlike'] : ['other'];
        expect(compareText(a, b).kinds, `${a} vs ${b}`).toEqual(expected);
      }
    }
  });

  it('a letter-case pair of printable ASCII is a case difference, a space beside it is not printable', () => {
    expect(compareText('GPU', 'gpu').kinds).toEqual(['case']);
    expect(compareText('gpu ', 'gpu').kinds).toEqual(['trailingWhitespace']);
    expect(isPrintableAscii(' ')).toBe(false);
  });
});
