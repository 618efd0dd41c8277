// Two values that are plainly different words (`node-00417` against the `node-04999` a pod is
// pinned to) are told apart without aligning them: at 5,000 nodes a pod pinned to a hostname
// compares itself with 5,000 hostnames, and an alignment with every character described costs
// far more than the count of edits that already says "not a slip".
//
// Between two strings of printable ASCII, every column of any alignment (compare.ts) is the
// same character, a difference of letter case, an ASCII look-alike (`l`, `1`, `I`; `0`, `O`,
// `o`) or a typo: none of those characters is blank, invisible or changed by normalization. So
// the edit distance of the strings folded (lowercased, each look-alike group one letter) is a
// lower bound on the typos any alignment counts. Folding `i` with `l` (`I` lowercased) only
// lowers the bound. With any other character the bound is not known here, and nothing is decided.
const printableAscii = /^[\x21-\x7e]*$/;

/** Character code -> its folded code: lowercase, `1` and `i` as `l`, `0` as `o`. */
const fold = new Uint8Array(128);
for (let c = 0; c < 128; c++) fold[c] = String.fromCharCode(c).toLowerCase().replace(/[1i]/, 'l').replace('0', 'o').charCodeAt(0);

// Reused by every call: 15,000 calls for a pinned pod at 5,000 nodes, most of them in code V8
// has not compiled yet, where each allocation shows.
const counts = new Int32Array(128);
let previous = new Int32Array(64);
let current = new Int32Array(64);

/**
 * More than `typos` characters of one string have no counterpart in the other (as bags of
 * characters): an edit changes at most one character on each side, so as many edits at least.
 * Cheap, and enough for most unlike values (`node-00417` against `node-04999`: three 9s).
 */
function bagsApart(x: string, y: string, typos: number): boolean {
  for (let i = 0; i < x.length; i++) {
    const c = fold[x.charCodeAt(i)] as number;
    counts[c] = (counts[c] as number) + 1;
  }
  for (let j = 0; j < y.length; j++) {
    const c = fold[y.charCodeAt(j)] as number;
    counts[c] = (counts[c] as number) - 1;
  }
  let onlyX = 0;
  let onlyY = 0;
  // Each distinct character read once, then cleared for the next call: x's characters, then
  // y's, in one loop (no pair of strings to walk built for each of 15,000 calls).
  for (let k = 0; k < x.length + y.length; k++) {
    const c = fold[k < x.length ? x.charCodeAt(k) : y.charCodeAt(k - x.length)] as number;
    const n = counts[c] as number;
    if (n > 0) onlyX += n;
    else onlyY -= n;
    counts[c] = 0;
  }
  return Math.max(onlyX, onlyY) > typos;
}

/** Levenshtein distance in a band of `typos` around the diagonal, above `typos`: cells outside the band already are. */
function editsApart(x: string, y: string, typos: number): boolean {
  const m = y.length;
  if (previous.length < m + 1) {
    previous = new Int32Array(m + 1);
    current = new Int32Array(m + 1);
  }
  const above = typos + 1;
  previous.fill(above, 0, m + 1);
  for (let j = 0; j <= Math.min(m, typos); j++) previous[j] = j;
  for (let i = 1; i <= x.length; i++) {
    current.fill(above, 0, m + 1);
    if (i <= typos) current[0] = i;
    let least = current[0] as number;
    const to = Math.min(m, i + typos);
    for (let j = Math.max(1, i - typos); j <= to; j++) {
      const change = (previous[j - 1] as number) + (fold[x.charCodeAt(i - 1)] === fold[y.charCodeAt(j - 1)] ? 0 : 1);
      const cell = Math.min(change, (previous[j] as number) + 1, (current[j - 1] as number) + 1, above);
      current[j] = cell;
      if (cell < least) least = cell;
    }
    if (least > typos) return true;
    // Swapped through a variable: a destructuring swap walks an iterator in code not yet compiled.
    const row = previous;
    previous = current;
    current = row;
  }
  return (previous[m] as number) > typos;
}

/** Whether `a` and `b` are certainly more than `typos` typos apart (false: not known, or not). */
export function moreTyposApart(a: string, b: string, typos: number): boolean {
  if (!printableAscii.test(a) || !printableAscii.test(b)) return false;
  if (Math.abs(a.length - b.length) > typos) return true;
  return bagsApart(a, b, typos) || editsApart(a, b, typos);
}
