// Character tables for near-miss explanations. Node ships no Unicode name database, so the
// names we print come from these small tables: only characters that plausibly sneak into a
// label or taint (pasted from a document, a chat, a spreadsheet) are worth naming.

export interface CodePointInfo {
  char: string;
  /** `U+200B` style, at least four upper-case hex digits. */
  codePoint: string;
  name?: string;
  /** False when printing the raw character would not show it (or would move the column). */
  visible: boolean;
}

/** Format characters that render as nothing; the usual suspects of copy-and-paste. */
const INVISIBLE_NAMES = new Map<number, string>([
  [0x00ad, 'SOFT HYPHEN'],
  [0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 'WORD JOINER'],
  [0x2061, 'FUNCTION APPLICATION'],
  [0x3164, 'HANGUL FILLER'],
  [0xfe0f, 'VARIATION SELECTOR-16'],
  [0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
]);

/** Spaces that look like U+0020 but are a different character. */
const NON_BREAKING_SPACES = new Map<number, string>([
  [0x00a0, 'NO-BREAK SPACE'],
  [0x2007, 'FIGURE SPACE'],
  [0x202f, 'NARROW NO-BREAK SPACE'],
]);

// Control characters have no Unicode name; these are their formal aliases.
const SPACE_NAMES = new Map<number, string>([
  [0x0009, 'CHARACTER TABULATION'],
  [0x000a, 'LINE FEED'],
  [0x000b, 'LINE TABULATION'],
  [0x000c, 'FORM FEED'],
  [0x000d, 'CARRIAGE RETURN'],
  [0x0020, 'SPACE'],
  [0x2002, 'EN SPACE'],
  [0x2003, 'EM SPACE'],
  [0x2009, 'THIN SPACE'],
  [0x3000, 'IDEOGRAPHIC SPACE'],
]);

/** Letters drawn like a Latin letter in most fonts: [char, Latin letter, name]. */
const CONFUSABLE_ROWS: [string, string, string][] = [
  ['\u0430', 'a', 'CYRILLIC SMALL LETTER A'],
  ['\u0435', 'e', 'CYRILLIC SMALL LETTER IE'],
  ['\u043E', 'o', 'CYRILLIC SMALL LETTER O'],
  ['\u0440', 'p', 'CYRILLIC SMALL LETTER ER'],
  ['\u0441', 'c', 'CYRILLIC SMALL LETTER ES'],
  ['\u0443', 'y', 'CYRILLIC SMALL LETTER U'],
  ['\u0445', 'x', 'CYRILLIC SMALL LETTER HA'],
  ['\u0455', 's', 'CYRILLIC SMALL LETTER DZE'],
  ['\u0456', 'i', 'CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I'],
  ['\u0458', 'j', 'CYRILLIC SMALL LETTER JE'],
  ['\u04BB', 'h', 'CYRILLIC SMALL LETTER SHHA'],
  ['\u0501', 'd', 'CYRILLIC SMALL LETTER KOMI DE'],
  ['\u0405', 'S', 'CYRILLIC CAPITAL LETTER DZE'],
  ['\u0406', 'I', 'CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I'],
  ['\u0408', 'J', 'CYRILLIC CAPITAL LETTER JE'],
  ['\u0410', 'A', 'CYRILLIC CAPITAL LETTER A'],
  ['\u0412', 'B', 'CYRILLIC CAPITAL LETTER VE'],
  ['\u0415', 'E', 'CYRILLIC CAPITAL LETTER IE'],
  ['\u041A', 'K', 'CYRILLIC CAPITAL LETTER KA'],
  ['\u041C', 'M', 'CYRILLIC CAPITAL LETTER EM'],
  ['\u041D', 'H', 'CYRILLIC CAPITAL LETTER EN'],
  ['\u041E', 'O', 'CYRILLIC CAPITAL LETTER O'],
  ['\u0420', 'P', 'CYRILLIC CAPITAL LETTER ER'],
  ['\u0421', 'C', 'CYRILLIC CAPITAL LETTER ES'],
  ['\u0422', 'T', 'CYRILLIC CAPITAL LETTER TE'],
  ['\u0425', 'X', 'CYRILLIC CAPITAL LETTER HA'],
  ['\u03B1', 'a', 'GREEK SMALL LETTER ALPHA'],
  ['\u03B5', 'e', 'GREEK SMALL LETTER EPSILON'],
  ['\u03B9', 'i', 'GREEK SMALL LETTER IOTA'],
  ['\u03BA', 'k', 'GREEK SMALL LETTER KAPPA'],
  ['\u03BD', 'v', 'GREEK SMALL LETTER NU'],
  ['\u03BF', 'o', 'GREEK SMALL LETTER OMICRON'],
  ['\u03C1', 'p', 'GREEK SMALL LETTER RHO'],
  ['\u03C5', 'u', 'GREEK SMALL LETTER UPSILON'],
  ['\u03C7', 'x', 'GREEK SMALL LETTER CHI'],
  ['\u0391', 'A', 'GREEK CAPITAL LETTER ALPHA'],
  ['\u0392', 'B', 'GREEK CAPITAL LETTER BETA'],
  ['\u0395', 'E', 'GREEK CAPITAL LETTER EPSILON'],
  ['\u0396', 'Z', 'GREEK CAPITAL LETTER ZETA'],
  ['\u0397', 'H', 'GREEK CAPITAL LETTER ETA'],
  ['\u0399', 'I', 'GREEK CAPITAL LETTER IOTA'],
  ['\u039A', 'K', 'GREEK CAPITAL LETTER KAPPA'],
  ['\u039C', 'M', 'GREEK CAPITAL LETTER MU'],
  ['\u039D', 'N', 'GREEK CAPITAL LETTER NU'],
  ['\u039F', 'O', 'GREEK CAPITAL LETTER OMICRON'],
  ['\u03A1', 'P', 'GREEK CAPITAL LETTER RHO'],
  ['\u03A4', 'T', 'GREEK CAPITAL LETTER TAU'],
  ['\u03A5', 'Y', 'GREEK CAPITAL LETTER UPSILON'],
  ['\u03A7', 'X', 'GREEK CAPITAL LETTER CHI'],
];
const CONFUSABLES = new Map(CONFUSABLE_ROWS.map(([c, latin, name]) => [c, { latin, name }]));

const DIGIT_NAMES = ['ZERO', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];

const cp = (char: string): number => char.codePointAt(0) ?? 0;

export const codePointLabel = (char: string): string => `U+${cp(char).toString(16).toUpperCase().padStart(4, '0')}`;

/** Names of ASCII letters and digits, derived rather than tabled. */
function asciiName(char: string): string | undefined {
  const code = char.length === 1 ? char.charCodeAt(0) : -1;
  if (code >= 0x61 && code <= 0x7a) return `LATIN SMALL LETTER ${char.toUpperCase()}`;
  if (code >= 0x41 && code <= 0x5a) return `LATIN CAPITAL LETTER ${char}`;
  if (code >= 0x30 && code <= 0x39) return `DIGIT ${DIGIT_NAMES[code - 0x30] ?? ''}`;
  return undefined;
}

/** U+0021..U+007E: shown as itself, in no table above, named only if a letter or digit. */
export function isPrintableAscii(char: string): boolean {
  const code = char.length === 1 ? char.charCodeAt(0) : -1;
  return code >= 0x21 && code <= 0x7e;
}

// Fullwidth forms U+FF01..U+FF5E are ASCII U+0021..U+007E shifted by a constant.
function fullwidthToAscii(char: string): string | undefined {
  const code = cp(char);
  return code >= 0xff01 && code <= 0xff5e ? String.fromCodePoint(code - 0xfee0) : undefined;
}

export function isNonBreakingSpace(char: string): boolean {
  return NON_BREAKING_SPACES.has(cp(char));
}

/** Renders as nothing at all: format characters and other default-ignorable code points. */
export function isInvisible(char: string): boolean {
  return INVISIBLE_NAMES.has(cp(char)) || /^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u.test(char);
}

/** White space in the ordinary sense; the non-breaking and invisible ones are their own kinds. */
export function isWhitespace(char: string): boolean {
  return /^\s$/u.test(char) && !isNonBreakingSpace(char) && !isInvisible(char);
}

// ASCII characters drawn alike in many fonts: `worker-l` typed for `worker-1`, `node-o1` for
// `node-01`. Only these pairs (not `L` and `1`, not `i` and `l`): each group is one shape.
const ASCII_LOOK_ALIKE_GROUPS: Record<string, number> = { '1': 1, l: 1, I: 1, '0': 2, O: 2, o: 2 };

/** 1 or 2 for an ASCII character drawn like others of its group (1, l, I; 0, O, o), else 0. */
export function asciiLookAlikeGroup(char: string): number {
  return ASCII_LOOK_ALIKE_GROUPS[char] ?? 0;
}

/** The ASCII character `char` is drawn like, when it is a known look-alike. */
export function lookAlikeOf(char: string): string | undefined {
  return CONFUSABLES.get(char)?.latin ?? fullwidthToAscii(char);
}

// Every column of every comparison describes its characters; there are few distinct ones.
// Results are shared, hence frozen.
const described = new Map<string, CodePointInfo>();

export function describeCodePoint(char: string): CodePointInfo {
  let info = described.get(char);
  if (!info) {
    if (described.size >= 4096) described.clear();
    info = Object.freeze(describeUncached(char));
    described.set(char, info);
  }
  return info;
}

function describeUncached(char: string): CodePointInfo {
  // The common character, without the Unicode property tests below (each a regular expression
  // compiled on first use, in a process that compares a few labels once).
  if (isPrintableAscii(char)) {
    const name = asciiName(char);
    return name === undefined ? { char, codePoint: codePointLabel(char), visible: true } : { char, codePoint: codePointLabel(char), name, visible: true };
  }
  const code = cp(char);
  const ascii = fullwidthToAscii(char);
  const fullwidthName = ascii === undefined ? undefined : asciiName(ascii)?.replace(/^(LATIN|DIGIT)/, 'FULLWIDTH $1');
  const name =
    INVISIBLE_NAMES.get(code) ?? NON_BREAKING_SPACES.get(code) ?? SPACE_NAMES.get(code) ?? CONFUSABLES.get(char)?.name ?? fullwidthName ?? asciiName(char);
  // Separators, controls, marks and format characters either show nothing or attach to the
  // previous column; they are printed as placeholders instead.
  const visible = !/^[\p{C}\p{Z}\p{M}]$/u.test(char) && !isInvisible(char);
  return name === undefined ? { char, codePoint: codePointLabel(char), visible } : { char, codePoint: codePointLabel(char), name, visible };
}
