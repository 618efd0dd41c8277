// Near-miss comparison: what kind of difference, where, and how it is shown. The strings are
// the ones that cost people an afternoon: a capital letter, a pasted NBSP, a Cyrillic "р".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareText, describeCodePoint, nearest, similarity, type DiffKind } from '../../src/engine/nearmiss/index.js';
import { explainDiff } from '../../src/messages/nearmiss.js';
import { palette } from '../../src/report/color.js';
import { renderAligned } from '../../src/report/human/aligned.js';

const CYRILLIC_ER = '\u0440';
const ZWSP = '\u200B';
const NBSP = '\u00A0';
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g');

describe('compareText names the kind of every difference', () => {
  it.each<{ name: string; wanted: string; actual: string; kinds: DiffKind[] }>([
    { name: 'upper case on the pod, lower case on the node, is letter case', wanted: 'GPU', actual: 'gpu', kinds: ['case'] },
    { name: 'a trailing space on the pod is trailing white space', wanted: 'gpu ', actual: 'gpu', kinds: ['trailingWhitespace'] },
    { name: 'a trailing tab on the node is trailing white space', wanted: 'gpu', actual: 'gpu\t', kinds: ['trailingWhitespace'] },
    { name: 'a leading space is leading white space', wanted: ' gpu', actual: 'gpu', kinds: ['leadingWhitespace'] },
    { name: 'a space inside the value is a real difference', wanted: 'a b', actual: 'ab', kinds: ['other'] },
    { name: 'a zero-width space inside the value is an invisible character', wanted: `g${ZWSP}pu`, actual: 'gpu', kinds: ['invisibleCharacter'] },
    { name: 'a byte-order mark at the start is invisible, not white space', wanted: '\uFEFFgpu', actual: 'gpu', kinds: ['invisibleCharacter'] },
    { name: 'a soft hyphen is invisible', wanted: 'gp\u00ADu', actual: 'gpu', kinds: ['invisibleCharacter'] },
    { name: 'a zero-width joiner on the node is invisible', wanted: 'gpu', actual: 'g\u200Dpu', kinds: ['invisibleCharacter'] },
    { name: 'a word joiner is invisible', wanted: 'gpu\u2060', actual: 'gpu', kinds: ['invisibleCharacter'] },
    { name: 'a trailing no-break space is a non-breaking space, not white space', wanted: `gpu${NBSP}`, actual: 'gpu', kinds: ['nonBreakingSpace'] },
    { name: 'a narrow no-break space instead of a space also normalizes away', wanted: 'a\u202Fb', actual: 'a b', kinds: ['nonBreakingSpace', 'unicodeNormalization'] },
    { name: 'a figure space instead of a space is a non-breaking space', wanted: 'a\u2007b', actual: 'a b', kinds: ['nonBreakingSpace', 'unicodeNormalization'] },
    { name: 'a Cyrillic er instead of a Latin p is a look-alike', wanted: `g${CYRILLIC_ER}u`, actual: 'gpu', kinds: ['lookAlike'] },
    { name: 'a Greek omicron instead of a Latin o is a look-alike', wanted: 'n\u03BFde', actual: 'node', kinds: ['lookAlike'] },
    { name: 'a Cyrillic capital A on the node is a look-alike', wanted: 'Apple', actual: '\u0410pple', kinds: ['lookAlike'] },
    { name: 'a fullwidth letter is a look-alike that NFKC removes', wanted: '\uFF47pu', actual: 'gpu', kinds: ['lookAlike', 'unicodeNormalization'] },
    { name: 'a Cyrillic capital ER against a Latin small p is both look-alike and case', wanted: 'G\u0420U', actual: 'gpu', kinds: ['case', 'lookAlike'] },
    { name: 'a lower-case L for the digit one is a look-alike', wanted: 'worker-l', actual: 'worker-1', kinds: ['lookAlike'] },
    { name: 'a capital I for a lower-case L is a look-alike', wanted: 'poIl', actual: 'poll', kinds: ['lookAlike'] },
    { name: 'a capital O for the digit zero is a look-alike', wanted: 'v1.O', actual: 'v1.0', kinds: ['lookAlike'] },
    { name: 'a lower-case o for the digit zero is a look-alike', wanted: 'node-o7', actual: 'node-07', kinds: ['lookAlike'] },
    { name: 'a capital L for the digit one is a real difference', wanted: 'node-L', actual: 'node-1', kinds: ['other'] },
    { name: 'a lower-case i for a lower-case L is a real difference', wanted: 'pool-i', actual: 'pool-l', kinds: ['other'] },
    { name: 'a composed é against e plus a combining accent is only normalization', wanted: '\u00E9', actual: 'e\u0301', kinds: ['unicodeNormalization'] },
    { name: 'a superscript two against a digit two is normalization', wanted: 'x\u00B2', actual: 'x2', kinds: ['unicodeNormalization'] },
    { name: 'a superscript next to a case change is normalization per column, not a typo', wanted: 'x\u00B2', actual: 'X2', kinds: ['case', 'unicodeNormalization'] },
    { name: 'a no-break space both sides share stays matched, not traded for a tab', wanted: NBSP, actual: `${NBSP}A\tb`, kinds: ['other'] },
    { name: 'an extra letter is a real difference', wanted: 'gpus', actual: 'gpu', kinds: ['other'] },
    { name: 'a different letter is a real difference', wanted: 'gpu', actual: 'cpu', kinds: ['other'] },
    { name: 'an empty value against a non-empty one is a real difference', wanted: '', actual: 'gpu', kinds: ['other'] },
    { name: 'a blank value against an empty one is white space', wanted: '', actual: ' ', kinds: ['trailingWhitespace'] },
    { name: 'a different emoji is a real difference', wanted: 'gpu\u{1F680}', actual: 'gpu\u{1F681}', kinds: ['other'] },
    { name: 'case and an extra letter are reported together', wanted: 'GPUs', actual: 'gpu', kinds: ['case', 'other'] },
    { name: 'four cosmetic kinds at once are all reported, sorted', wanted: ` GPU${ZWSP}`, actual: 'gpu ', kinds: ['case', 'invisibleCharacter', 'leadingWhitespace', 'trailingWhitespace'] },
    { name: 'an invisible character next to a trailing space keeps the space trailing', wanted: `gpu ${ZWSP}`, actual: 'gpu', kinds: ['invisibleCharacter', 'trailingWhitespace'] },
    { name: 'a byte-order mark in place of a no-break space is two kinds, not a space swap', wanted: `a${NBSP}b`, actual: 'a\uFEFFb', kinds: ['invisibleCharacter', 'nonBreakingSpace'] },
    { name: 'an all-cosmetic explanation wins over an equally long one with a typo', wanted: 'A   ', actual: ' a', kinds: ['case', 'leadingWhitespace', 'trailingWhitespace'] },
  ])('$name', ({ wanted, actual, kinds }) => {
    const diff = compareText(wanted, actual);
    expect(diff.equal).toBe(false);
    expect(diff.kinds).toEqual(kinds);
  });

  it('identical strings are equal, with no kinds and only same columns', () => {
    const diff = compareText('dedicated=gpu', 'dedicated=gpu');
    expect(diff).toMatchObject({ equal: true, kinds: [] });
    expect(diff.ops.map((o) => o.op)).toEqual(Array(13).fill('same'));
  });

  it('two empty strings are equal and have no columns', () => {
    expect(compareText('', '')).toEqual({ equal: true, kinds: [], ops: [] });
  });

  it('an astral emoji is one column, not two UTF-16 units', () => {
    const diff = compareText('gpu\u{1F680}', 'gpu\u{1F681}');
    expect(diff.ops.map((o) => o.op)).toEqual(['same', 'same', 'same', 'changed']);
    expect(diff.ops[3]).toEqual({
      op: 'changed',
      wanted: { char: '\u{1F680}', codePoint: 'U+1F680', visible: true },
      actual: { char: '\u{1F681}', codePoint: 'U+1F681', visible: true },
    });
  });

  it('an emoji before a difference does not shift the difference', () => {
    expect(compareText('\u{1F680}x', '\u{1F680}y').ops.map((o) => o.op)).toEqual(['same', 'changed']);
  });

  it('a character only the pod has is missing, one only the node has is extra', () => {
    expect(compareText('gpus', 'gpu').ops.map((o) => o.op)).toEqual(['same', 'same', 'same', 'missing']);
    expect(compareText('gpu', 'xgpu').ops.map((o) => o.op)).toEqual(['extra', 'same', 'same', 'same']);
  });

  it('a repeated letter keeps matches first, so the last copy is the missing one', () => {
    expect(compareText('aa', 'a').ops.map((o) => o.op)).toEqual(['same', 'missing']);
  });

  it('a case change next to an inserted letter aligns the letters, not the insertion', () => {
    const ops = compareText('Gpu', 'xgpu').ops.map((o) => `${o.op}:${o.wanted?.char ?? ''}${o.actual?.char ?? ''}`);
    expect(ops).toEqual(['extra:x', 'changed:Gg', 'same:pp', 'same:uu']);
  });
});

describe('describeCodePoint', () => {
  it('shares one frozen description per character, so no caller can corrupt another', () => {
    expect(describeCodePoint('a')).toBe(describeCodePoint('a'));
    expect(Object.isFrozen(describeCodePoint('a'))).toBe(true);
  });

  it.each([
    { name: 'a zero-width space is named and invisible', char: ZWSP, info: { char: ZWSP, codePoint: 'U+200B', name: 'ZERO WIDTH SPACE', visible: false } },
    { name: 'a no-break space is named and invisible', char: NBSP, info: { char: NBSP, codePoint: 'U+00A0', name: 'NO-BREAK SPACE', visible: false } },
    { name: 'a plain space is named but prints as nothing', char: ' ', info: { char: ' ', codePoint: 'U+0020', name: 'SPACE', visible: false } },
    { name: 'a tab uses its formal alias', char: '\t', info: { char: '\t', codePoint: 'U+0009', name: 'CHARACTER TABULATION', visible: false } },
    { name: 'a Cyrillic er is named from the look-alike table', char: CYRILLIC_ER, info: { char: CYRILLIC_ER, codePoint: 'U+0440', name: 'CYRILLIC SMALL LETTER ER', visible: true } },
    { name: 'a fullwidth letter gets a derived name', char: '\uFF27', info: { char: '\uFF27', codePoint: 'U+FF27', name: 'FULLWIDTH LATIN CAPITAL LETTER G', visible: true } },
    { name: 'a Latin letter gets a derived name', char: 'a', info: { char: 'a', codePoint: 'U+0061', name: 'LATIN SMALL LETTER A', visible: true } },
    { name: 'an astral code point gets five hex digits and no name', char: '\u{1F680}', info: { char: '\u{1F680}', codePoint: 'U+1F680', visible: true } },
    { name: 'a combining mark is not printable on its own', char: '\u0301', info: { char: '\u0301', codePoint: 'U+0301', visible: false } },
    { name: 'an unlisted format character is still invisible', char: '\u2062', info: { char: '\u2062', codePoint: 'U+2062', visible: false } },
  ])('$name', ({ char, info }) => {
    expect(describeCodePoint(char)).toEqual(info);
  });
});

const render = (wanted: string, actual: string, color = false) => renderAligned(compareText(wanted, actual), palette(color));

describe('renderAligned puts a caret under each differing column', () => {
  it.each([
    { name: 'case at the end of a taint value', wanted: 'dedicated=GPU', actual: 'dedicated=gpu', lines: ['dedicated=GPU', 'dedicated=gpu', '          ^^^'] },
    { name: 'an extra letter on the pod', wanted: 'gpus', actual: 'gpu', lines: ['gpus', 'gpu', '   ^'] },
    { name: 'a zero-width space shown as a placeholder, padded on the other line', wanted: `g${ZWSP}pu`, actual: 'gpu', lines: ['g⟨U+200B⟩pu', 'g        pu', ' ^^^^^^^^'] },
    { name: 'a trailing space shown as a placeholder so it can be seen', wanted: 'gpu', actual: 'gpu ', lines: ['gpu', 'gpu⟨U+0020⟩', '   ^^^^^^^^'] },
    { name: 'a shared space printed as itself', wanted: 'a bX', actual: 'a bY', lines: ['a bX', 'a bY', '   ^'] },
    { name: 'a no-break space against a space, both as placeholders', wanted: `a${NBSP}b`, actual: 'a b', lines: ['a⟨U+00A0⟩b', 'a⟨U+0020⟩b', ' ^^^^^^^^'] },
    { name: 'a look-alike letter, one column', wanted: `g${CYRILLIC_ER}u`, actual: 'gpu', lines: [`g${CYRILLIC_ER}u`, 'gpu', ' ^'] },
    { name: 'a double-width emoji gets two carets', wanted: 'a\u{1F680}b', actual: 'a\u{1F681}b', lines: ['a\u{1F680}b', 'a\u{1F681}b', ' ^^'] },
    { name: 'a difference after an emoji is two columns further on', wanted: '\u{1F680}x', actual: '\u{1F680}y', lines: ['\u{1F680}x', '\u{1F680}y', '  ^'] },
    { name: 'a missing leading space pads the node line', wanted: ' gpu', actual: 'gpu', lines: ['⟨U+0020⟩gpu', '        gpu', '^^^^^^^^'] },
    { name: 'identical strings have an empty marker line', wanted: 'gpu', actual: 'gpu', lines: ['gpu', 'gpu', ''] },
    { name: 'an empty pod value against a value', wanted: '', actual: 'gpu', lines: ['', 'gpu', '^^^'] },
  ])('$name', ({ wanted, actual, lines }) => {
    expect(render(wanted, actual)).toEqual(lines);
  });

  it('colours the pod side red and the node side green, leaving the marker line plain', () => {
    const [wanted, actual, marks] = render('dedicated=GPU', 'dedicated=gpu', true);
    expect(wanted).toBe('dedicated=\u001b[31mG\u001b[39m\u001b[31mP\u001b[39m\u001b[31mU\u001b[39m');
    expect(actual).toBe('dedicated=\u001b[32mg\u001b[39m\u001b[32mp\u001b[39m\u001b[32mu\u001b[39m');
    expect(marks).toBe('          ^^^');
  });

  it('does not colour columns that are the same', () => {
    const [wanted] = render('abc', 'abc', true);
    expect(wanted).toBe('abc');
  });
});

describe('explainDiff says what differs in plain English', () => {
  it.each([
    { name: 'a case run is one note with its positions', wanted: 'dedicated=GPU', actual: 'dedicated=gpu', notes: ['letter case: "GPU" (wanted) vs "gpu" (node) at positions 11-13'] },
    { name: 'a single case change names its position', wanted: 'dedicated=Gpu', actual: 'dedicated=gpu', notes: ['letter case: "G" (wanted) vs "g" (node) at position 11'] },
    { name: 'a trailing space on the node', wanted: 'gpu', actual: 'gpu ', notes: ["trailing space U+0020 on the node's side"] },
    { name: 'three trailing spaces are one note', wanted: 'gpu   ', actual: 'gpu', notes: ["trailing space U+0020 on the pod's side (3 times)"] },
    { name: 'a leading tab on the pod', wanted: '\tgpu', actual: 'gpu', notes: ["leading tab U+0009 on the pod's side"] },
    { name: 'a zero-width space on the pod', wanted: `gpu${ZWSP}x`, actual: 'gpux', notes: ["U+200B ZERO WIDTH SPACE on the pod's side at position 4"] },
    { name: 'a trailing no-break space on the node', wanted: 'gpu', actual: `gpu${NBSP}`, notes: ["U+00A0 NO-BREAK SPACE on the node's side at position 4"] },
    {
      name: 'a no-break space against a space',
      wanted: `a${NBSP}b`,
      actual: 'a b',
      notes: ['non-breaking space: U+00A0 NO-BREAK SPACE (wanted) vs U+0020 SPACE (node) at position 2', 'the two are equal after Unicode NFKC normalization'],
    },
    {
      name: 'a no-break space where the node has a letter is named, then called a different character',
      wanted: `a${NBSP}b`,
      actual: 'axb',
      notes: ["U+00A0 NO-BREAK SPACE on the pod's side at position 2", 'different character: U+00A0 NO-BREAK SPACE (wanted) vs "x" (node) at position 2'],
    },
    { name: 'a Cyrillic look-alike on the pod', wanted: `g${CYRILLIC_ER}u`, actual: 'gpu', notes: [`"${CYRILLIC_ER}" is U+0440 CYRILLIC SMALL LETTER ER, looks like Latin "p" (pod's side, position 2)`] },
    { name: 'a Cyrillic a on the node', wanted: 'cat', actual: 'c\u0430t', notes: ['"\u0430" is U+0430 CYRILLIC SMALL LETTER A, looks like Latin "a" (node\'s side, position 2)'] },
    { name: 'an ASCII look-alike names both characters', wanted: 'worker-l', actual: 'worker-1', notes: ['look-alike characters: "l" U+006C LATIN SMALL LETTER L (wanted) vs "1" U+0031 DIGIT ONE (node) at position 8'] },
    { name: 'an ASCII look-alike with a case change names both', wanted: 'NODE-o1', actual: 'node-01', notes: ['letter case: "NODE" (wanted) vs "node" (node) at positions 1-4', 'look-alike characters: "o" U+006F LATIN SMALL LETTER O (wanted) vs "0" U+0030 DIGIT ZERO (node) at position 6'] },
    { name: 'an extra letter on the pod', wanted: 'gpus', actual: 'gpu', notes: ['"s" is on the pod\'s side (position 4) but not the node\'s'] },
    { name: 'extra letters on the node are one note', wanted: '', actual: 'gpu', notes: ['"gpu" is on the node\'s side (positions 1-3) but not the pod\'s'] },
    { name: 'a typo names both characters', wanted: 'gpu', actual: 'cpu', notes: ['different character: "g" (wanted) vs "c" (node) at position 1'] },
    { name: 'a typo after an insertion names both positions', wanted: 'abc', actual: 'xabd', notes: ['"x" is on the node\'s side (position 1) but not the pod\'s', 'different character: "c" (wanted) vs "d" (node) at position 3 (4 on the node)'] },
    { name: 'a case change after an insertion names both positions', wanted: 'Gpu', actual: 'xgpu', notes: ['"x" is on the node\'s side (position 1) but not the pod\'s', 'letter case: "G" (wanted) vs "g" (node) at position 1 (2 on the node)'] },
    {
      name: 'a decomposed accent names the mark and the normalization form',
      wanted: '\u00E9',
      actual: 'e\u0301',
      notes: ['different character: "\u00E9" (wanted) vs "e" (node) at position 1', "U+0301 is on the node's side (position 2) but not the pod's", 'the two are equal after Unicode NFC normalization'],
    },
    { name: 'identical strings need no notes', wanted: 'gpu', actual: 'gpu', notes: [] },
  ])('$name', ({ wanted, actual, notes }) => {
    expect(explainDiff(compareText(wanted, actual))).toEqual(notes);
  });
});

describe('similarity and nearest', () => {
  it.each([
    { name: 'a case variant beats a one-letter typo', wanted: 'GPU', candidates: ['GPX', 'gpu'], best: 'gpu' },
    { name: 'a trailing-space variant beats a one-letter typo of the same length', wanted: 'gpu', candidates: ['gpux', 'gpu '], best: 'gpu ' },
    { name: 'a look-alike beats a one-letter typo', wanted: 'gpu', candidates: ['gpv', `g${CYRILLIC_ER}u`], best: `g${CYRILLIC_ER}u` },
    { name: 'an invisible character beats a typo in a long key', wanted: 'topology.kubernetes.io/zone', candidates: ['topology.kubernetes.io/zona', `topology.kubernetes.io/zone${ZWSP}`], best: `topology.kubernetes.io/zone${ZWSP}` },
    { name: 'the exact value beats a case variant', wanted: 'gpu', candidates: ['GPU', 'gpu'], best: 'gpu' },
    { name: 'among typos the smaller edit wins', wanted: 'disktype', candidates: ['zone', 'disk-typo', 'disk-type'], best: 'disk-type' },
    { name: 'a tie goes to the earlier candidate', wanted: 'gpu', candidates: ['gpx', 'gpy'], best: 'gpx' },
    { name: 'an ASCII look-alike beats a one-digit typo', wanted: 'worker-l', candidates: ['worker-2', 'worker-1', 'worker-3'], best: 'worker-1' },
    { name: 'among typos a case difference costs less than a second typo', wanted: 'gpu-node', candidates: ['gpu-noXY', 'Gpu-nodX'], best: 'Gpu-nodX' },
  ])('$name', ({ wanted, candidates, best }) => {
    expect(nearest(wanted, candidates, (c) => c)?.item).toBe(best);
  });

  it('returns the diff and score of the chosen candidate', () => {
    const found = nearest('GPU', [{ v: 'cpu' }, { v: 'gpu' }], (c) => c.v);
    expect(found?.item).toEqual({ v: 'gpu' });
    expect(found?.diff.kinds).toEqual(['case']);
    expect(found?.score).toBe(similarity('GPU', 'gpu'));
  });

  it('has nothing to offer without candidates', () => {
    expect(nearest('gpu', [], (c: string) => c)).toBeUndefined();
  });

  it('scores identical strings 1, unrelated strings 0, and a one-letter typo in nine by its distance', () => {
    expect(similarity('gpu', 'gpu')).toBe(1);
    expect(similarity('abc', 'xyz')).toBe(0);
    expect(similarity('disk-type', 'disktype')).toBeCloseTo(8 / 9, 10);
  });
});

// Characters that exercise every branch: ASCII, spaces of every sort, invisibles,
// look-alikes, a combining mark, fullwidth and astral code points.
const interesting = fc.constantFrom('a', 'b', 'G', 'g', 'p', ' ', '\t', NBSP, '\u202F', ZWSP, '\uFEFF', CYRILLIC_ER, '\u0410', '\u03BF', '\uFF47', '\u0301', '\u00E9', '\u{1F680}', '\u{1F681}');
const text = fc.oneof(fc.string({ unit: interesting, maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }));
const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 12 });

describe('properties', () => {
  it('a string is equal to itself, with no kinds and no differing column', () => {
    fc.assert(
      fc.property(text, (a) => {
        const diff = compareText(a, a);
        expect(diff.equal).toBe(true);
        expect(diff.kinds).toEqual([]);
        expect(diff.ops.every((o) => o.op === 'same')).toBe(true);
      }),
    );
  });

  it('the columns reconstruct both strings exactly, one code point each', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const { ops } = compareText(a, b);
        expect(ops.map((o) => o.wanted?.char ?? '').join('')).toBe(a);
        expect(ops.map((o) => o.actual?.char ?? '').join('')).toBe(b);
        for (const o of ops) {
          if (o.op === 'same') expect(o.wanted?.char).toBe(o.actual?.char);
          if (o.op === 'changed') expect(o.wanted?.char).not.toBe(o.actual?.char);
          if (o.op === 'missing') expect(o.actual).toBeUndefined();
          if (o.op === 'extra') expect(o.wanted).toBeUndefined();
          for (const side of [o.wanted, o.actual]) if (side) expect([...side.char]).toHaveLength(1);
        }
      }),
    );
  });

  it('kinds are sorted, unique, and empty exactly when the strings are equal', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const { kinds, equal } = compareText(a, b);
        expect(equal).toBe(a === b);
        expect(kinds).toEqual([...new Set(kinds)].sort());
        expect(kinds.length === 0).toBe(a === b);
      }),
    );
  });

  it('similarity is in [0, 1], symmetric, and 1 only for identical strings', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = similarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(similarity(b, a)).toBe(s);
        expect(s === 1).toBe(a === b);
      }),
    );
  });

  it('a case-only variant always outranks a same-length typo in nearest', () => {
    const variantAndTypo = word.chain((w) =>
      fc.record({
        wanted: fc.constant(w),
        upper: fc.array(fc.boolean(), { minLength: w.length, maxLength: w.length }),
        at: fc.nat({ max: w.length - 1 }),
        shift: fc.integer({ min: 1, max: 25 }),
        typoFirst: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(variantAndTypo, ({ wanted, upper, at, shift, typoFirst }) => {
        const variant = [...wanted].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        const replaced = String.fromCharCode(((wanted.charCodeAt(at) - 97 + shift) % 26) + 97);
        const typo = wanted.slice(0, at) + replaced + wanted.slice(at + 1);
        const candidates = typoFirst ? [typo, variant] : [variant, typo];
        expect(nearest(wanted, candidates, (c) => c)?.item).toBe(variant);
      }),
    );
  });

  it('any cosmetic variant outranks any typo of the same length', () => {
    const cosmetic = fc.constantFrom<(w: string) => string>(
      (w) => w.toUpperCase(),
      (w) => `${w} `,
      (w) => ` ${w}`,
      (w) => `${w}${NBSP}`,
      (w) => `${w.slice(0, 1)}${ZWSP}${w.slice(1)}`,
      (w) => w.replace(/[aeopcxy]/g, (c) => ({ a: '\u0430', e: '\u0435', o: '\u043E', p: '\u0440', c: '\u0441', x: '\u0445', y: '\u0443' })[c] ?? c),
    );
    fc.assert(
      fc.property(word, cosmetic, fc.nat(), fc.nat(), (wanted, make, at, extra) => {
        const variant = make(wanted);
        fc.pre(variant !== wanted);
        // A typo of the variant's length: the wanted word with one letter changed, padded with letters.
        const chars = [...wanted];
        const i = at % chars.length;
        chars[i] = chars[i] === 'q' ? 'z' : 'q';
        const typo = (chars.join('') + 'abcdefghijklmnop'.slice(extra % 3)).slice(0, [...variant].length);
        fc.pre([...typo].length === [...variant].length);
        expect(similarity(wanted, variant)).toBeGreaterThan(similarity(wanted, typo));
      }),
    );
  });

  it('for printable ASCII, column i of the marker line is a caret exactly when column i differs', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'abcABC-_./=1'), maxLength: 10 });
    fc.assert(
      fc.property(ascii, ascii, (a, b) => {
        const diff = compareText(a, b);
        const [, , marks = ''] = renderAligned(diff, palette(false));
        const expected = diff.ops.map((o) => (o.op === 'same' ? ' ' : '^')).join('').trimEnd();
        expect(marks).toBe(expected);
      }),
    );
  });

  it('colour changes nothing but the escape codes', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const diff = compareText(a, b);
        expect(renderAligned(diff, palette(true)).map((l) => l.replace(ANSI, ''))).toEqual(renderAligned(diff, palette(false)));
      }),
    );
  });
});
