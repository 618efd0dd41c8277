// A near miss on a terminal: the pod's value above the node's, column by column, with a caret
// under each differing column; the pod's differing characters red, the node's green.
import type { TextDiff } from '../../engine/nearmiss/compare.js';
import type { CodePointInfo } from '../../engine/nearmiss/unicode.js';
import type { Palette } from '../color.js';

// East Asian wide/fullwidth blocks and emoji occupy two terminal columns; alignment must
// know, or every column after an emoji would drift by one.
const WIDE: [number, number][] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x3fffd],
];

/** Terminal columns taken by `text` (printable characters only). */
function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (/^\p{M}$/u.test(char)) continue;
    width += /^\p{Emoji_Presentation}$/u.test(char) || WIDE.some(([lo, hi]) => code >= lo && code <= hi) ? 2 : 1;
  }
  return width;
}

// Invisible characters get a placeholder so they take up columns; a plain space is only left
// raw where both sides have it, because a differing space would otherwise look like nothing.
function cell(info: CodePointInfo | undefined, same: boolean): string {
  if (!info) return '';
  return info.visible || (same && info.char === ' ') ? info.char : `⟨${info.codePoint}⟩`;
}

/** Three lines: the pod's value, the node's value, and `^` under each differing column. */
export function renderAligned(diff: TextDiff, colors: Palette): string[] {
  let wanted = '';
  let actual = '';
  let marks = '';
  for (const o of diff.ops) {
    const same = o.op === 'same';
    const w = cell(o.wanted, same);
    const a = cell(o.actual, same);
    const width = Math.max(displayWidth(w), displayWidth(a), 1);
    // Padding is computed on the bare text and added outside the colour codes.
    wanted += (!same && w ? colors.red(w) : w) + ' '.repeat(width - displayWidth(w));
    actual += (!same && a ? colors.green(a) : a) + ' '.repeat(width - displayWidth(a));
    marks += (same ? ' ' : '^').repeat(width);
  }
  return [wanted.trimEnd(), actual.trimEnd(), marks.trimEnd()];
}
