// The kinds of difference between two strings (nearmiss/compare.ts), in words: a plain typo
// needs no label; the subtle kinds (case, spaces, look-alikes) do.
import { list } from './format.js';

const kindWords: Record<string, string> = {
  case: 'letter case',
  leadingWhitespace: 'leading white space',
  trailingWhitespace: 'trailing white space',
  invisibleCharacter: 'an invisible character',
  nonBreakingSpace: 'a non-breaking space',
  lookAlike: 'a look-alike character',
  unicodeNormalization: 'Unicode normalization',
  other: 'different characters',
};

/** " (differs by letter case)", or nothing for a plain typo. */
export function diffKinds(kinds: readonly string[]): string {
  const words = kindList(kinds);
  return words ? ` (differs by ${words})` : '';
}

/** " (letter case)": the same, briefly, for a clause that already says what differs. */
export function diffKindsBriefly(kinds: readonly string[]): string {
  const words = kindList(kinds);
  return words ? ` (${words})` : '';
}

/** The subtle kinds in words ("letter case and a non-breaking space"); empty for plain typos. */
function kindList(kinds: readonly string[]): string {
  return list(kinds.filter((k) => k !== 'other').map((k) => kindWords[k] ?? k));
}
