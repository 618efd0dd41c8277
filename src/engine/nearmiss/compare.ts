// Aligns what the pod wants with what the node has, code point by code point, and names the
// kind of every difference. Users stare at `dedicated=gpu` vs `dedicated=gpu` for an hour;
// the point here is to say "the second one ends in U+00A0" instead.
import { describeCodePoint, isInvisible, isNonBreakingSpace, isWhitespace, lookAlikeOf, type CodePointInfo } from './unicode.js';

export type DiffKind =
  | 'case'
  | 'leadingWhitespace'
  | 'trailingWhitespace'
  | 'invisibleCharacter'
  | 'nonBreakingSpace'
  | 'lookAlike'
  | 'unicodeNormalization'
  | 'other';

/** `missing`: the pod's character has no counterpart on the node; `extra`: the node's has none in the pod's. */
export interface AlignedOp {
  op: 'same' | 'changed' | 'missing' | 'extra';
  wanted?: CodePointInfo;
  actual?: CodePointInfo;
}

export interface TextDiff {
  equal: boolean;
  /** Sorted, unique. */
  kinds: DiffKind[];
  ops: AlignedOp[];
}

type Edge = 'leading' | 'trailing' | undefined;

/** One aligned column with what it means: 1-based positions in each string and its kinds. */
export interface ClassifiedOp extends AlignedOp {
  kinds: DiffKind[];
  wantedPos?: number;
  actualPos?: number;
  wantedEdge?: Edge;
  actualEdge?: Edge;
}

interface Char {
  char: string;
  edge: Edge;
}

const isBlank = (c: string) => isWhitespace(c) || isNonBreakingSpace(c) || isInvisible(c);

// Leading/trailing white space is only "leading" when nothing but blanks precedes it; an
// invisible character or NBSP next to a trailing space must not turn the space into a typo.
function withEdges(chars: string[]): Char[] {
  let lead = 0;
  while (lead < chars.length && isBlank(chars[lead] ?? '')) lead++;
  let trail = chars.length;
  while (trail > 0 && isBlank(chars[trail - 1] ?? '')) trail--;
  return chars.map((char, i) => ({ char, edge: i >= trail ? 'trailing' : i < lead ? 'leading' : undefined }));
}

/** The kind of a character that appears on one side only. */
export function unmatchedKind(char: string, edge: Edge): DiffKind {
  if (isInvisible(char)) return 'invisibleCharacter';
  if (isNonBreakingSpace(char)) return 'nonBreakingSpace';
  if (isWhitespace(char) && edge) return edge === 'leading' ? 'leadingWhitespace' : 'trailingWhitespace';
  return 'other';
}

const sortUnique = (kinds: Iterable<DiffKind>): DiffKind[] => [...new Set(kinds)].sort();

function pairKinds(w: Char, a: Char): DiffKind[] {
  const x = w.char;
  const y = a.char;
  if (x.toLowerCase() === y.toLowerCase() || x.toUpperCase() === y.toUpperCase()) return ['case'];
  const spaceLike = (c: string) => isWhitespace(c) || isNonBreakingSpace(c);
  if ((isNonBreakingSpace(x) || isNonBreakingSpace(y)) && spaceLike(x) && spaceLike(y)) return ['nonBreakingSpace'];
  const lx = lookAlikeOf(x);
  const ly = lookAlikeOf(y);
  if (lx !== undefined || ly !== undefined) {
    const sx = lx ?? x;
    const sy = ly ?? y;
    if (sx === sy) return ['lookAlike'];
    if (sx.toLowerCase() === sy.toLowerCase()) return ['case', 'lookAlike'];
  }
  // Only non-ASCII text can change under normalization; skipping ASCII keeps the DP cheap.
  if ((x.codePointAt(0) ?? 0) > 0x7f || (y.codePointAt(0) ?? 0) > 0x7f) {
    if (x.normalize('NFKC') === y.normalize('NFKC')) return ['unicodeNormalization'];
  }
  return sortUnique([unmatchedKind(x, w.edge), unmatchedKind(y, a.edge)]);
}

// Cosmetic differences cost half a typo, so the alignment pairs `G` with `g` rather than
// inserting around it. A typo costs a hair over 1 so that, between equally long alignments,
// the one explaining everything cosmetically wins (` a` vs `A  `: case plus spaces, not a typo).
// Every cost is a multiple of 2^-10, so sums stay exact in binary and === is safe.
const TYPO = 1 + 2 ** -10;
const cost = (kinds: readonly DiffKind[]) => (kinds.includes('other') ? TYPO : 0.5);

function align(wanted: Char[], actual: Char[]): AlignedOp[] {
  const n = wanted.length;
  const m = actual.length;
  const width = m + 1;
  // Suffix table: d[i][j] is the distance between wanted[i..] and actual[j..]. Walking it
  // forwards from (0,0) puts matches first, so `gpuu` vs `gpu` reports the last `u` missing.
  const d = new Float64Array((n + 1) * width);
  const del = wanted.map((c) => cost([unmatchedKind(c.char, c.edge)]));
  const ins = actual.map((c) => cost([unmatchedKind(c.char, c.edge)]));
  const subs = new Map<number, number>();
  const sub = (i: number, j: number): number => {
    const w = wanted[i] as Char;
    const a = actual[j] as Char;
    if (w.char === a.char) return 0;
    const key = i * width + j;
    let c = subs.get(key);
    if (c === undefined) subs.set(key, (c = cost(pairKinds(w, a))));
    return c;
  };
  const at = (i: number, j: number) => d[i * width + j] ?? 0;
  for (let i = n; i >= 0; i--) {
    for (let j = m; j >= 0; j--) {
      if (i === n && j === m) continue;
      let best = Infinity;
      if (i < n && j < m) best = sub(i, j) + at(i + 1, j + 1);
      if (i < n) best = Math.min(best, (del[i] ?? TYPO) + at(i + 1, j));
      if (j < m) best = Math.min(best, (ins[j] ?? TYPO) + at(i, j + 1));
      d[i * width + j] = best;
    }
  }
  const ops: AlignedOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const here = at(i, j);
    const w = wanted[i];
    const a = actual[j];
    if (w && a && here === sub(i, j) + at(i + 1, j + 1)) {
      ops.push({ op: w.char === a.char ? 'same' : 'changed', wanted: describeCodePoint(w.char), actual: describeCodePoint(a.char) });
      i++;
      j++;
    } else if (w && here === (del[i] ?? TYPO) + at(i + 1, j)) {
      ops.push({ op: 'missing', wanted: describeCodePoint(w.char) });
      i++;
    } else if (a) {
      ops.push({ op: 'extra', actual: describeCodePoint(a.char) });
      j++;
    } else {
      throw new Error('nearmiss: alignment backtrace lost its path');
    }
  }
  return ops;
}

/** Per-column kinds and positions; shared by compareText, similarity and the explanations. */
export function classifyOps(ops: readonly AlignedOp[]): ClassifiedOp[] {
  const wanted = withEdges(ops.flatMap((o) => (o.wanted ? [o.wanted.char] : [])));
  const actual = withEdges(ops.flatMap((o) => (o.actual ? [o.actual.char] : [])));
  let wi = 0;
  let ai = 0;
  return ops.map((o) => {
    const w = o.wanted ? wanted[wi++] : undefined;
    const a = o.actual ? actual[ai++] : undefined;
    let kinds: DiffKind[] = [];
    if (o.op === 'changed' && w && a) kinds = pairKinds(w, a);
    else if (o.op === 'missing' && w) kinds = [unmatchedKind(w.char, w.edge)];
    else if (o.op === 'extra' && a) kinds = [unmatchedKind(a.char, a.edge)];
    const out: ClassifiedOp = { ...o, kinds };
    if (w) Object.assign(out, { wantedPos: wi, wantedEdge: w.edge });
    if (a) Object.assign(out, { actualPos: ai, actualEdge: a.edge });
    return out;
  });
}

/** Which normalization form makes the two strings equal, if any. */
export function normalizationForm(wanted: string, actual: string): 'NFC' | 'NFKC' | undefined {
  if (wanted === actual) return undefined;
  if (wanted.normalize('NFC') === actual.normalize('NFC')) return 'NFC';
  if (wanted.normalize('NFKC') === actual.normalize('NFKC')) return 'NFKC';
  return undefined;
}

export function compareText(wanted: string, actual: string): TextDiff {
  const ops = align(withEdges([...wanted]), withEdges([...actual]));
  let kinds = classifyOps(ops).flatMap((o) => o.kinds);
  // `é` vs `e` + U+0301 aligns as a change plus an extra mark; both are "other" column by
  // column, yet the strings are canonically the same, so no column is a real typo.
  if (normalizationForm(wanted, actual)) kinds = [...kinds.filter((k) => k !== 'other'), 'unicodeNormalization'];
  return { equal: wanted === actual, kinds: sortUnique(kinds), ops };
}
