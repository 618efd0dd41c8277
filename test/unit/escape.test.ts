// Terminal escaping (src/report/escape.ts): what a hostile string from the cluster becomes on a
// terminal, what survives the final pass over a report, and that JSON and YAML keep the strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compareText } from '../../src/engine/nearmiss/index.js';
import { explainDiff } from '../../src/messages/nearmiss.js';
import { palette } from '../../src/report/color.js';
import { escapeTerminal, escapeTerminalKeeping, hasTerminalControls, unicodeEscapeControls } from '../../src/report/escape.js';
import { renderAligned } from '../../src/report/human/aligned.js';
import { toYaml } from '../../src/report/yaml.js';

const ESC = '\u001b';
const BEL = '\u0007';

/** Anything a terminal could act on: C0 but line feed, DEL, C1, bidi controls, U+2028/U+2029. */
const UNSAFE_BUT_NEWLINE = /(?!\n)[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;

describe('escapeTerminal shows every control as its code point', () => {
  it.each<{ name: string; input: string; shown: string }>([
    { name: 'plain text is unchanged', input: 'web-0 in shop', shown: 'web-0 in shop' },
    { name: 'non-ASCII letters, emoji and a no-break space are unchanged', input: 'café 🚀 a\u00A0b', shown: 'café 🚀 a\u00A0b' },
    { name: 'a zero-width space is left to the near-miss renderer', input: 'g\u200Bpu', shown: 'g\u200Bpu' },
    { name: 'an OSC window title ended by BEL', input: `${ESC}]0;pwned${BEL}`, shown: '⟨U+001B⟩]0;pwned⟨U+0007⟩' },
    { name: 'a clear-screen CSI', input: `${ESC}[2J`, shown: '⟨U+001B⟩[2J' },
    { name: 'a colour SGR', input: `${ESC}[31mred${ESC}[0m`, shown: '⟨U+001B⟩[31mred⟨U+001B⟩[0m' },
    { name: 'a carriage return that would overwrite the line', input: 'bad\rgood', shown: 'bad⟨U+000D⟩good' },
    { name: 'a line feed, so one message stays one line', input: 'one\ntwo', shown: 'one⟨U+000A⟩two' },
    { name: 'a tab, so one cell stays one cell', input: 'a\tb', shown: 'a⟨U+0009⟩b' },
    { name: 'NUL, backspace and DEL', input: 'a\u0000b\u0008c\u007f', shown: 'a⟨U+0000⟩b⟨U+0008⟩c⟨U+007F⟩' },
    { name: 'the C1 CSI and NEL', input: '\u009b2J\u0085', shown: '⟨U+009B⟩2J⟨U+0085⟩' },
    { name: 'a right-to-left override (Trojan Source)', input: 'gpu\u202Eexe.txt', shown: 'gpu⟨U+202E⟩exe.txt' },
    { name: 'every bidi embedding, override and isolate', input: '\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069', shown: '⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩' },
    { name: 'the bidi marks', input: '\u061C\u200E\u200F', shown: '⟨U+061C⟩⟨U+200E⟩⟨U+200F⟩' },
    { name: 'the Unicode line and paragraph separators', input: 'a\u2028b\u2029c', shown: 'a⟨U+2028⟩b⟨U+2029⟩c' },
  ])('$name', ({ input, shown }) => {
    expect(escapeTerminal(input)).toBe(shown);
    expect(hasTerminalControls(input)).toBe(shown !== input);
  });

  it('leaves nothing a terminal could act on, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeTerminal(s);
        expect(/[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u.test(out)).toBe(false);
      }),
    );
  });
});

describe('escapeTerminalKeeping, the last pass over a human report', () => {
  const colors = palette(true);

  it('keeps line feeds and the palette colours, escapes everything else', () => {
    const text = `${colors.bold('Title')}\n  ${colors.red('no')} ${ESC}[2J${ESC}]0;x${BEL}\r\u202E\n`;
    expect(escapeTerminalKeeping(text, colors.sequences)).toBe(`${colors.bold('Title')}\n  ${colors.red('no')} ⟨U+001B⟩[2J⟨U+001B⟩]0;x⟨U+0007⟩⟨U+000D⟩⟨U+202E⟩\n`);
  });

  it('escapes colour sequences too when colour is off', () => {
    const off = palette(false);
    expect(off.sequences).toEqual([]);
    expect(escapeTerminalKeeping(`${ESC}[31mred${ESC}[39m`, off.sequences)).toBe('⟨U+001B⟩[31mred⟨U+001B⟩[39m');
  });

  it('keeps only exact palette sequences, not look-alikes', () => {
    expect(escapeTerminalKeeping(`${ESC}[31;1m ${ESC}[310m ${ESC}[31m`, colors.sequences)).toBe(`⟨U+001B⟩[31;1m ⟨U+001B⟩[310m ${ESC}[31m`);
  });

  it('lets through no control but line feed and the palette, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeTerminalKeeping(s, colors.sequences);
        const withoutPalette = colors.sequences.reduce((acc, seq) => acc.split(seq).join(''), out);
        expect(UNSAFE_BUT_NEWLINE.test(withoutPalette)).toBe(false);
      }),
    );
  });
});

describe('JSON and YAML keep the exact strings', () => {
  const hostile = { message: `${ESC}]0;t${BEL}${ESC}[2J\r\n\u202Eabc\u009b\u0085\u2028\u007f`, [`key\u202E`]: 'v' };

  it('JSON: parses back to the same data, with no raw control', () => {
    const text = unicodeEscapeControls(JSON.stringify(hostile, null, 2));
    expect(JSON.parse(text)).toEqual(hostile);
    expect(UNSAFE_BUT_NEWLINE.test(text)).toBe(false);
  });

  it('JSON: any string survives', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (data) => {
        const text = unicodeEscapeControls(JSON.stringify(data, null, 2));
        expect(JSON.parse(text)).toEqual(data);
      }),
    );
  });

  it('YAML: parses back to the same data, with no raw control', () => {
    const text = toYaml(hostile);
    expect(parse(text)).toEqual(hostile);
    expect(UNSAFE_BUT_NEWLINE.test(text)).toBe(false);
  });

  it('YAML: any string survives', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (data) => {
        expect(parse(toYaml(data))).toEqual(data);
      }),
    );
  });
});

describe('the near-miss renderer never prints a control raw', () => {
  it.each([
    ['ESC and BEL', `gpu${ESC}]0;x${BEL}`, 'gpu'],
    ['CR', 'gpu\r', 'gpu'],
    ['a right-to-left override', 'g\u202Epu', 'gpu'],
    ['a C1 CSI', 'gpu', '\u009bgpu'],
    ['a line feed in the middle', 'g\npu', 'gpu'],
  ])('%s', (_name, wanted, actual) => {
    const diff = compareText(wanted, actual);
    const lines = [...renderAligned(diff, palette(false)), ...explainDiff(diff)];
    for (const line of lines) expect(UNSAFE_BUT_NEWLINE.test(line) || line.includes('\n')).toBe(false);
    const colored = renderAligned(diff, palette(true)).join('\n');
    expect(escapeTerminalKeeping(colored, palette(true).sequences)).toBe(colored);
  });
});
