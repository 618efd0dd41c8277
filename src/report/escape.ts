// Terminal escaping, for the class of attack kubectl fixed in CVE-2021-25743: a string from the
// cluster or a dump (an event message, a label value, a condition message) must not be able to
// move the cursor, clear the screen, set the window title or reorder what is shown. kubectl
// replaces only ESC and CR; we also show the other C0 and C1 controls (line feed and tab
// included, so that one message stays one line and one table cell), DEL, the bidirectional
// controls (Trojan Source: U+202A-U+202E, U+2066-U+2069, and the marks U+061C, U+200E, U+200F)
// and the Unicode line and paragraph separators. Each becomes its code point in the notation
// the near-miss renderer uses for invisible characters: ESC is shown as ⟨U+001B⟩.
import { codePointLabel } from '../engine/nearmiss/unicode.js';

const unsafeSource = String.raw`\p{Cc}\p{Bidi_Control}\u2028\u2029`;
const unsafe = new RegExp(`[${unsafeSource}]`, 'gu');
const unsafeButNewline = new RegExp(`(?!\\n)[${unsafeSource}]`, 'gu');
const anyUnsafe = new RegExp(`[${unsafeSource}]`, 'u');

/** How an unsafe character is shown: `⟨U+001B⟩`. */
function visibleCodePoint(char: string): string {
  return `⟨${codePointLabel(char)}⟩`;
}

/** True when `text` holds a character that escapeTerminal would replace. */
export function hasTerminalControls(text: string): boolean {
  return anyUnsafe.test(text);
}

/** A cluster-derived string, made safe and single-line for a terminal. Not reversible. */
export function escapeTerminal(text: string): string {
  return text.replace(unsafe, visibleCodePoint);
}

/**
 * The last pass over a whole human report: every unsafe character is shown as its code point,
 * except the line feeds that separate our own lines and the exact colour sequences in `keep`
 * (the palette's, when colour is on). Whatever a formatter forgot to escape, no other control
 * sequence reaches the terminal.
 */
export function escapeTerminalKeeping(text: string, keep: readonly string[]): string {
  const kept = keep.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp([...kept, `(?!\\n)[${unsafeSource}]`].join('|'), 'gu');
  const allowed = new Set(keep);
  return text.replace(pattern, (match) => (allowed.has(match) ? match : visibleCodePoint(match)));
}

/**
 * For -o json and -o yaml: every unsafe character but the line feed written as a \uXXXX escape.
 * Applied to JSON.stringify's output (which escapes C0 itself, so a raw line feed there is
 * layout) and to YAML whose strings with such characters are double-quoted, it leaves the data
 * exactly as it was: the same strings parse back.
 */
export function unicodeEscapeControls(text: string): string {
  return text.replace(unsafeButNewline, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
