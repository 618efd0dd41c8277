// Aligns what the pod wants with what the node has, code point by code point, and names the
// kind of every difference. Users stare at `dedicated=gpu` vs `dedicated=gpu` for an hour;
// the point here is to say "the second one ends in U+00A0" instead.
import { asciiLookAlikeGroup, describeCodePoint, isInvisible, isNonBreakingSpace, isPrintableAscii, isWhitespace, lookAlikeOf, type CodePointInfo } from './unicode.js';

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

// Everything the comparison asks about one character, computed once per distinct character:
// the alignment asks it for every cell of an n-by-m table.
interface Traits {
  lower: string;
  upper: string;
  invisible: boolean;
  nbsp: boolean;
  whitespace: boolean;
  lookAlike: string | undefined;
  /** NFKC form, only for non-ASCII characters (ASCII never changes under normalization). */
  nfkc: string | undefined;
  /** A printable ASCII character: against another one, only case, an ASCII look-alike or a typo is possible. */
  plain: boolean;
  /** asciiLookAlikeGroup: two characters of one group (`l` and `1`) are drawn alike. */
  group: number;
}

const traitCache = new Map<string, Traits>();

function traits(char: string): Traits {
  let t = traitCache.get(char);
  if (t) return t;
  if (traitCache.size >= 4096) traitCache.clear();
  // Printable ASCII (nearly every character of a label) is none of the special kinds: no
  // Unicode property test for it.
  if (isPrintableAscii(char)) {
    t = { lower: char.toLowerCase(), upper: char.toUpperCase(), invisible: false, nbsp: false, whitespace: false, lookAlike: undefined, nfkc: undefined, plain: true, group: asciiLookAlikeGroup(char) };
    traitCache.set(char, t);
    return t;
  }
  const ascii = (char.codePointAt(0) ?? 0) <= 0x7f;
  t = {
    lower: char.toLowerCase(),
    upper: char.toUpperCase(),
    invisible: isInvisible(char),
    nbsp: isNonBreakingSpace(char),
    whitespace: isWhitespace(char),
    lookAlike: lookAlikeOf(char),
    nfkc: ascii ? undefined : char.normalize('NFKC'),
    plain: ascii && /^[\x21-\x7e]$/.test(char),
    group: 0,
  };
  traitCache.set(char, t);
  return t;
}

interface Char {
  char: string;
  edge: Edge;
  t: Traits;
}

// Leading/trailing white space is only "leading" when nothing but blanks precedes it; an
// invisible character or NBSP next to a trailing space must not turn the space into a typo.
function withEdges(chars: string[]): Char[] {
  const all: Char[] = chars.map((char) => ({ char, edge: undefined, t: traits(char) }));
  const blank = (c: Char) => c.t.whitespace || c.t.nbsp || c.t.invisible;
  for (let i = all.length - 1; i >= 0 && blank(all[i] as Char); i--) (all[i] as Char).edge = 'trailing';
  for (let i = 0; i < all.length && blank(all[i] as Char) && !(all[i] as Char).edge; i++) (all[i] as Char).edge = 'leading';
  return all;
}

function kindOf(t: Traits, edge: Edge): DiffKind {
  if (t.invisible) return 'invisibleCharacter';
  if (t.nbsp) return 'nonBreakingSpace';
  if (t.whitespace && edge) return edge === 'leading' ? 'leadingWhitespace' : 'trailingWhitespace';
  return 'other';
}

/** The kind of a character that appears on one side only. */
export function unmatchedKind(char: string, edge: Edge): DiffKind {
  return kindOf(traits(char), edge);
}

const sortUnique = (kinds: Iterable<DiffKind>): DiffKind[] => [...new Set(kinds)].sort();

function pairKinds(w: Char, a: Char): DiffKind[] {
  const x = w.t;
  const y = a.t;
  if (x.lower === y.lower || x.upper === y.upper) return ['case'];
  if (x.group !== 0 && x.group === y.group) return ['lookAlike'];
  if ((x.nbsp || y.nbsp) && (x.whitespace || x.nbsp) && (y.whitespace || y.nbsp)) return ['nonBreakingSpace'];
  if (x.lookAlike !== undefined || y.lookAlike !== undefined) {
    const sx = x.lookAlike ?? w.char;
    const sy = y.lookAlike ?? a.char;
    if (sx === sy) return ['lookAlike'];
    if (sx.toLowerCase() === sy.toLowerCase()) return ['case', 'lookAlike'];
  }
  if ((x.nfkc ?? w.char) === (y.nfkc ?? a.char)) return ['unicodeNormalization'];
  const kx = kindOf(x, w.edge);
  const ky = kindOf(y, a.edge);
  return kx === ky ? [kx] : kx < ky ? [kx, ky] : [ky, kx];
}

// Cosmetic differences cost half a typo, so the alignment pairs `G` with `g` rather than
// inserting around it. A typo costs a hair over 1 so that, between equally long alignments,
// the one explaining everything cosmetically wins (` a` vs `A  `: case plus spaces, not a typo).
// Every cost is a multiple of 2^-10, so sums stay exact in binary and === is safe.
const TYPO = 1 + 2 ** -10;
const cost = (kinds: readonly DiffKind[]) => (kinds.includes('other') ? TYPO : 0.5);

const same = (c: Char): AlignedOp => ({ op: 'same', wanted: describeCodePoint(c.char), actual: describeCodePoint(c.char) });

// Identical characters at either end are matched outright, as a reader would: without this,
// the table may find it a hair cheaper to pair a shared NBSP with a tab further in. It also
// keeps the table to the part that differs, which matters for keys like `node.kubernetes.io/…`.
// An all-cosmetic alignment survives it: a blank matched here stays in its string's edge run.
function align(wanted: Char[], actual: Char[]): AlignedOp[] {
  const n = wanted.length;
  const m = actual.length;
  const twins = (i: number, j: number) => wanted[i]?.char === actual[j]?.char;
  let head = 0;
  while (head < n && head < m && twins(head, head)) head++;
  let tail = 0;
  while (tail < n - head && tail < m - head && twins(n - 1 - tail, m - 1 - tail)) tail++;
  const middle = alignTable(wanted.slice(head, n - tail), actual.slice(head, m - tail));
  return [...wanted.slice(0, head).map(same), ...middle, ...wanted.slice(n - tail).map(same)];
}

function alignTable(wanted: Char[], actual: Char[]): AlignedOp[] {
  const n = wanted.length;
  const m = actual.length;
  const width = m + 1;
  // Suffix table: d[i][j] is the distance between wanted[i..] and actual[j..]. Walking it
  // forwards from (0,0) puts matches first, so `gpuu` vs `gpu` reports the last `u` missing.
  const d = new Float64Array((n + 1) * width);
  const del = wanted.map((c) => cost([kindOf(c.t, c.edge)]));
  const ins = actual.map((c) => cost([kindOf(c.t, c.edge)]));
  const sub = (i: number, j: number): number => {
    const w = wanted[i] as Char;
    const a = actual[j] as Char;
    if (w.char === a.char) return 0;
    // Most cells pair two ordinary ASCII characters; skip building a kinds array for them.
    if (w.t.plain && a.t.plain) return w.t.lower === a.t.lower || (w.t.group !== 0 && w.t.group === a.t.group) ? 0.5 : TYPO;
    return cost(pairKinds(w, a));
  };
  const at = (i: number, j: number) => d[i * width + j] as number;
  for (let j = m - 1; j >= 0; j--) d[n * width + j] = (ins[j] as number) + at(n, j + 1);
  for (let i = n - 1; i >= 0; i--) {
    const di = del[i] as number;
    d[i * width + m] = di + at(i + 1, m);
    for (let j = m - 1; j >= 0; j--) {
      d[i * width + j] = Math.min(sub(i, j) + at(i + 1, j + 1), di + at(i + 1, j), (ins[j] as number) + at(i, j + 1));
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
    } else if (w && here === (del[i] as number) + at(i + 1, j)) {
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
    else if (o.op === 'missing' && w) kinds = [kindOf(w.t, w.edge)];
    else if (o.op === 'extra' && a) kinds = [kindOf(a.t, a.edge)];
    // One object shape for every column: this runs for every candidate of every node.
    const out: ClassifiedOp = {
      op: o.op,
      wanted: o.wanted,
      actual: o.actual,
      kinds,
      wantedPos: w ? wi : undefined,
      actualPos: a ? ai : undefined,
      wantedEdge: w?.edge,
      actualEdge: a?.edge,
    };
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

// At 5,000 nodes the same few label and taint values are compared on every node (and again when
// fixes are replayed): each pair is aligned once. A diff is data nobody changes, so it is shared.
const diffs = new Map<string, TextDiff>();
const diffsKept = 20_000;

export function compareText(wanted: string, actual: string): TextDiff {
  const key = `${wanted}\u0000${actual}`;
  const known = diffs.get(key);
  if (known) return known;
  const diff = compareUncached(wanted, actual);
  if (diffs.size >= diffsKept) diffs.clear();
  diffs.set(key, diff);
  return diff;
}

function compareUncached(wanted: string, actual: string): TextDiff {
  const ops = align(withEdges([...wanted]), withEdges([...actual]));
  let kinds = classifyOps(ops).flatMap((o) => o.kinds);
  // `é` vs `e` + U+0301 aligns as a change plus an extra mark; both are "other" column by
  // column, yet the strings are canonically the same, so no column is a real typo.
  if (normalizationForm(wanted, actual)) kinds = [...kinds.filter((k) => k !== 'other'), 'unicodeNormalization'];
  return { equal: wanted === actual, kinds: sortUnique(kinds), ops };
}
