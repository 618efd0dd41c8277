// Ranks candidate strings so that the one the user most likely meant comes first. A value
// that only differs cosmetically (case, white space, invisible or look-alike characters) is
// almost certainly the intended one, so it must beat every candidate with a real typo.
import { moreTyposApart } from './apart.js';
import { classifyOps, compareText, type TextDiff } from './compare.js';

// Scores by diff: compareText hands out one diff per pair of strings, so a pair is scored once.
const scores = new WeakMap<TextDiff, number>();

function scoreOf(diff: TextDiff, a: string, b: string): number {
  const known = scores.get(diff);
  if (known !== undefined) return known;
  const score = scoreUncached(diff, a, b);
  scores.set(diff, score);
  return score;
}

function scoreUncached(diff: TextDiff, a: string, b: string): number {
  if (diff.equal) return 1;
  const cosmetic = !diff.kinds.includes('other');
  let distance = 0;
  for (const o of classifyOps(diff.ops)) {
    if (o.op !== 'same') distance += cosmetic || !o.kinds.includes('other') ? 0.5 : 1;
  }
  const longest = Math.max([...a].length, [...b].length);
  const ratio = Math.min(distance / longest, 1);
  // A typo scores 1 - distance/longest: at most 1 - 1/L against a wanted value of length L, or
  // 1 - 1/(L+1) when longer. Cosmetic distances are squeezed into [1 - 1/(2(L+1)), 1), above both.
  // Symmetric because the alignment's cost is, and its tie-break (fewest typos) fixes the counts.
  return cosmetic ? 1 - ratio / (2 * (longest + 1)) : 1 - ratio;
}

/** In [0, 1]; 1 only for identical strings. */
export function similarity(a: string, b: string): number {
  return scoreOf(compareText(a, b), a, b);
}

export interface Nearest<T> {
  item: T;
  diff: TextDiff;
  score: number;
}

/** The candidate most similar to `wanted`; the earliest one wins a tie. */
export function nearest<T>(wanted: string, candidates: readonly T[], key: (t: T) => string): Nearest<T> | undefined {
  let best: Nearest<T> | undefined;
  for (const item of candidates) {
    const actual = key(item);
    const diff = compareText(wanted, actual);
    const score = scoreOf(diff, wanted, actual);
    if (!best || score > best.score) best = { item, diff, score };
  }
  return best;
}

/**
 * The candidates that are near misses of `wanted` (isNearMiss), most similar first (equals in
 * their order), at most `limit`: a node name typed with `l` for `1`. Candidates plainly apart
 * (mayBeNearMiss) are not aligned, so thousands of node names cost little.
 */
export function nearMissesOf<T>(wanted: string, candidates: readonly T[], key: (t: T) => string, limit: number): Nearest<T>[] {
  const found: Nearest<T>[] = [];
  for (const item of candidates) {
    const actual = key(item);
    if (!mayBeNearMiss(wanted, actual)) continue;
    const diff = compareText(wanted, actual);
    if (isNearMiss(diff)) found.push({ item, diff, score: scoreOf(diff, wanted, actual) });
  }
  return found.sort((a, b) => b.score - a.score).slice(0, limit);
}

/**
 * A difference a person makes by accident, worth showing character by character: only
 * cosmetic differences (letter case, white space, invisible, look-alike or differently
 * normalized characters), or at most one typo per six characters of the longer string.
 * `ssd` vs `hdd` or `amd64` vs `arm64` are different values, not slips.
 */
export function isNearMiss(diff: TextDiff): boolean {
  let near = nearMisses.get(diff);
  if (near === undefined) {
    near = isNearMissUncached(diff);
    nearMisses.set(diff, near);
  }
  return near;
}

/**
 * False only when `isNearMiss(compareText(wanted, actual))` is certainly false, known without
 * aligning the two: more typos apart than a near miss allows (one per six characters).
 */
export function mayBeNearMiss(wanted: string, actual: string): boolean {
  return !moreTyposApart(wanted, actual, Math.floor(Math.max(wanted.length, actual.length) / 6));
}

/**
 * True only when `similarity(a, b) < threshold` is certain without aligning the two. Any typo
 * makes the diff more than cosmetic, so its score is at most 1 - typos / (the longer length),
 * and moreTyposApart bounds the typos from below (for printable ASCII; otherwise it decides
 * nothing and this is false).
 */
export function certainlyBelow(a: string, b: string, threshold: number): boolean {
  const longest = Math.max(a.length, b.length);
  let typos = Math.floor((1 - threshold) * longest);
  // In floating point (1 - 0.9) * 10 is 0.999...: the bound must hold as the score is computed.
  while (typos < longest && !(1 - (typos + 1) / longest < threshold)) typos++;
  return moreTyposApart(a, b, typos);
}

// By diff, as scores: the same few pairs are asked about on every node.
const nearMisses = new WeakMap<TextDiff, boolean>();

function isNearMissUncached(diff: TextDiff): boolean {
  if (diff.equal) return false;
  if (!diff.kinds.includes('other')) return true;
  let typos = 0;
  let wanted = 0;
  let actual = 0;
  for (const o of classifyOps(diff.ops)) {
    if (o.wanted) wanted++;
    if (o.actual) actual++;
    if (o.op !== 'same' && o.kinds.includes('other')) typos++;
  }
  return typos <= Math.floor(Math.max(wanted, actual) / 6);
}
