// A near miss in words: one short note per difference between what the pod wants and what the
// node has (letter case, white space, invisible and look-alike characters, typos).
import { classifyOps, normalizationForm, unmatchedKind, type ClassifiedOp, type TextDiff } from '../engine/nearmiss/compare.js';
import { lookAlikeOf, type CodePointInfo } from '../engine/nearmiss/unicode.js';

const named = (i: CodePointInfo) => (i.name ? `${i.codePoint} ${i.name}` : i.codePoint);
const shown = (i: CodePointInfo) => (i.visible ? `"${i.char}"` : named(i));
/** Whose the two strings are: the pod's and the node's, or a request's and a device's. */
export interface Sides {
  wanted: string;
  actual: string;
}

const podAndNode: Sides = { wanted: 'pod', actual: 'node' };
const WHITESPACE_WORDS: Record<string, string> = { ' ': 'space', '\t': 'tab', '\n': 'line feed', '\r': 'carriage return' };

// A no-break space where the other side has an ordinary space reads best as one pair note.
const nbspForSpace = (o: ClassifiedOp) => o.op === 'changed' && o.kinds.length === 1 && o.kinds[0] === 'nonBreakingSpace';

function at(o: ClassifiedOp, sides: Sides): string {
  return o.wantedPos === o.actualPos ? `at position ${o.wantedPos}` : `at position ${o.wantedPos} (${o.actualPos} on the ${sides.actual})`;
}

// One note per (column, side) for the kinds that belong to a single character.
function sideNotes(o: ClassifiedOp, side: 'wanted' | 'actual', sides: Sides): string[] {
  const whose = `${sides[side]}'s`;
  const other = `${sides[side === 'wanted' ? 'actual' : 'wanted']}'s`;
  const info = o[side];
  if (!info) return [];
  const pos = side === 'wanted' ? o.wantedPos : o.actualPos;
  const kind = unmatchedKind(info.char, side === 'wanted' ? o.wantedEdge : o.actualEdge);
  const notes: string[] = [];
  const latin = lookAlikeOf(info.char);
  if (o.kinds.includes('lookAlike') && latin !== undefined) {
    const script = /^[a-z]$/i.test(latin) ? 'Latin' : 'ASCII';
    notes.push(`"${info.char}" is ${named(info)}, looks like ${script} "${latin}" (${whose} side, position ${pos})`);
  }
  if (!o.kinds.includes(kind) || nbspForSpace(o)) return notes;
  if (kind === 'leadingWhitespace' || kind === 'trailingWhitespace') {
    const where = kind === 'leadingWhitespace' ? 'leading' : 'trailing';
    const word = WHITESPACE_WORDS[info.char];
    notes.push(`${where} ${word ? `${word} ${info.codePoint}` : `white space ${named(info)}`} on the ${whose} side`);
  } else if (kind === 'invisibleCharacter' || kind === 'nonBreakingSpace') {
    notes.push(`${named(info)} on the ${whose} side at position ${pos}`);
  } else if (kind === 'other' && o.op !== 'changed') {
    notes.push(`${shown(info)} is on the ${whose} side (position ${pos}) but not the ${other}`);
  }
  return notes;
}

function columnNotes(o: ClassifiedOp, sides: Sides): string[] {
  const notes = [...sideNotes(o, 'wanted', sides), ...sideNotes(o, 'actual', sides)];
  if (o.op !== 'changed' || !o.wanted || !o.actual) return notes;
  const pair = `${shown(o.wanted)} (wanted) vs ${shown(o.actual)} (${sides.actual}) ${at(o, sides)}`;
  if (o.kinds.includes('case')) notes.push(`letter case: ${pair}`);
  // Two ASCII characters drawn alike (`l` and `1`): neither is another script's letter.
  if (o.kinds.includes('lookAlike') && lookAlikeOf(o.wanted.char) === undefined && lookAlikeOf(o.actual.char) === undefined) {
    notes.push(`look-alike characters: "${o.wanted.char}" ${named(o.wanted)} (wanted) vs "${o.actual.char}" ${named(o.actual)} (${sides.actual}) ${at(o, sides)}`);
  }
  if (nbspForSpace(o)) notes.push(`non-breaking space: ${named(o.wanted)} (wanted) vs ${named(o.actual)} (${sides.actual}) ${at(o, sides)}`);
  if (o.kinds.includes('unicodeNormalization')) notes.push(`Unicode compatibility form: ${pair}`);
  if (o.kinds.includes('other')) notes.push(`different character: ${pair}`);
  return notes;
}

// A run of case-only changes or of plain extra characters reads better as one note:
// "GPU" vs "gpu" at positions 11-13 rather than three notes about single letters.
type RunKind = 'case' | 'missing' | 'extra';

function runKind(o: ClassifiedOp): RunKind | undefined {
  const plain = o.kinds.length === 1 && (o.wanted ?? o.actual)?.visible === true && (o.actual ?? o.wanted)?.visible === true;
  if (!plain || o.op === 'same') return undefined;
  if (o.op === 'changed') return o.kinds[0] === 'case' ? 'case' : undefined;
  return o.kinds[0] === 'other' ? o.op : undefined;
}

function runNote(kind: RunKind, run: ClassifiedOp[], sides: Sides): string {
  const first = run[0] as ClassifiedOp;
  const last = run[run.length - 1] as ClassifiedOp;
  const text = (side: 'wanted' | 'actual') => `"${run.map((o) => o[side]?.char ?? '').join('')}"`;
  const span = (a?: number, b?: number) => (a === b ? `${a}` : `${a}-${b}`);
  const plural = run.length > 1 ? 's' : '';
  if (kind === 'missing') return `${text('wanted')} is on the ${sides.wanted}'s side (position${plural} ${span(first.wantedPos, last.wantedPos)}) but not the ${sides.actual}'s`;
  if (kind === 'extra') return `${text('actual')} is on the ${sides.actual}'s side (position${plural} ${span(first.actualPos, last.actualPos)}) but not the ${sides.wanted}'s`;
  const wanted = span(first.wantedPos, last.wantedPos);
  const actual = span(first.actualPos, last.actualPos);
  return `letter case: ${text('wanted')} (wanted) vs ${text('actual')} (${sides.actual}) at position${plural} ${wanted}${wanted === actual ? '' : ` (${actual} on the ${sides.actual})`}`;
}

/** Short plain-English notes, one per difference; positions are 1-based code points. */
export function explainDiff(diff: TextDiff, sides: Sides = podAndNode): string[] {
  if (diff.equal) return [];
  const ops = classifyOps(diff.ops);
  const notes: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i] as ClassifiedOp;
    const kind = runKind(o);
    if (!kind) {
      notes.push(...columnNotes(o, sides));
      continue;
    }
    const run = [o];
    while (i + 1 < ops.length && runKind(ops[i + 1] as ClassifiedOp) === kind) run.push(ops[++i] as ClassifiedOp);
    notes.push(runNote(kind, run, sides));
  }
  const form = normalizationForm(diff.ops.map((o) => o.wanted?.char ?? '').join(''), diff.ops.map((o) => o.actual?.char ?? '').join(''));
  if (form) notes.push(`the two are equal after Unicode ${form} normalization`);
  return collapseRepeats(notes);
}

// Three trailing spaces should be one note, not three identical lines.
function collapseRepeats(notes: string[]): string[] {
  const out: string[] = [];
  let count = 0;
  notes.forEach((note, i) => {
    count++;
    if (notes[i + 1] === note) return;
    out.push(count > 1 ? `${note} (${count} times)` : note);
    count = 0;
  });
  return out;
}
