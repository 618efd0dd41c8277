// Parses one piece of a dump (a list item, a list's head, a whole document) into plain values,
// and names the file's line and column when the piece is not valid.
//
// YAML goes first through js-yaml, which builds plain objects straight from the text, an order
// of magnitude faster than the `yaml` package on kubectl's output (minutes saved on a large
// dump; BENCHMARKS.md). Both read YAML 1.2's core schema the same way. Any
// piece js-yaml refuses (a tag it does not know, an anchor set in an earlier piece, a fault)
// is parsed again by `yaml`, which the reader used before: its values and its error messages
// are the reference.
import { loadAll } from 'js-yaml';
import { parseAllDocuments, visit, type Document } from 'yaml';
import { maxNesting } from './limits.js';
import { InputError } from '../../errors.js';
import { locateJsonFault } from './json-errors.js';
import { positionInLines, positionInText, type LineSegment, type TextSegment } from './position.js';

export function parseJsonPiece(piece: { text: string; segments: readonly TextSegment[] }, fileLabel: string): unknown {
  try {
    return JSON.parse(piece.text) as unknown;
  } catch (error) {
    const fault = locateJsonFault(piece.text);
    const offset = fault?.offset ?? Number(/position (\d+)/.exec(String(error))?.[1] ?? 0);
    const { line, column } = positionInText(piece.text, piece.segments, offset);
    throw new InputError(`${fileLabel}: line ${line}, column ${column}: not valid JSON: ${fault?.message ?? firstLine(error)}`);
  }
}

/**
 * Anchors (`&id001`) set in the pieces of one document read so far, by name, as values. A
 * document split into pieces may set an anchor in one list item and use it (`*id001`) in a
 * later one: some YAML writers share repeated values this way.
 */
export type Anchors = Map<string, unknown>;

function borrowAnchors(doc: Document.Parsed, anchors: Anchors): void {
  visit(doc, {
    Alias(_, alias) {
      if (alias.resolve(doc) === undefined && anchors.has(alias.source)) return doc.createNode(anchors.get(alias.source));
      return undefined;
    },
  });
}

function lendAnchors(doc: Document.Parsed, anchors: Anchors): void {
  visit(doc, {
    Value(_, node) {
      if (node.anchor) anchors.set(node.anchor, node.toJS(doc, { maxAliasCount: 100 }));
    },
  });
}

/** An anchor set (`&a`) or used (`*a`) as YAML writes them, not an `&` inside a string. */
const anchorOrAlias = /(?:^|[\s,[{])[&*][^\s,[\]{}]/;

function fastYaml(text: string): unknown[] | undefined {
  try {
    return loadAll(text, { json: true, maxDepth: 1000 }).filter((value) => value !== null && value !== undefined);
  } catch {
    return undefined;
  }
}

/** Every non-empty document of a piece of YAML; `anchors` carries anchors from piece to piece. */
export function parseYamlPiece(piece: { text: string; lines: readonly LineSegment[] }, fileLabel: string, anchors?: Anchors): unknown[] {
  // Anchors are followed from piece to piece by the `yaml` package only; a %YAML directive may
  // ask for YAML 1.1, which only it honours here.
  const deep = flowNestingPast(piece.text, maxNesting);
  if (deep !== undefined) {
    const at = positionInLines(piece.lines, deep.line, deep.column);
    throw new InputError(`${fileLabel}: line ${at.line}, column ${at.column}: nested deeper than ${maxNesting.toLocaleString('en-US')} levels: no Kubernetes object is; the file is damaged or not a dump`);
  }
  const fast = anchorOrAlias.test(piece.text) || /^%/m.test(piece.text) ? undefined : fastYaml(piece.text);
  if (fast) return fast;
  const documents = parseAllDocuments(piece.text, { uniqueKeys: false, intAsBigInt: false });
  const out: unknown[] = [];
  for (const doc of Array.isArray(documents) ? documents : [documents]) {
    const problem = doc.errors[0];
    if (problem) {
      const pos = problem.linePos?.[0];
      // A fault found at the end of the piece is at the start of the file's next line.
      const pieceLines = piece.text.endsWith('\n') ? piece.text.split('\n').length - 1 : piece.text.split('\n').length;
      const at = !pos ? undefined : pos.line > pieceLines ? { line: positionInLines(piece.lines, pos.line, 1).line, column: 1 } : positionInLines(piece.lines, pos.line, pos.col);
      const where = at ? `line ${at.line}, column ${at.column}` : 'somewhere';
      // The message ends with the position in the piece, not in the file: said once, above.
      const reason = (problem.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw new InputError(`${fileLabel}: ${where}: not valid YAML: ${reason}`);
    }
    let value: unknown;
    try {
      if (anchors && piece.text.includes('*')) borrowAnchors(doc, anchors);
      value = doc.toJS({ maxAliasCount: 100 });
      if (anchors && piece.text.includes('&')) lendAnchors(doc, anchors);
    } catch (error) {
      const line = positionInLines(piece.lines, 1, 1).line;
      throw new InputError(`${fileLabel}: in the document from line ${line}: not valid YAML: ${firstLine(error)}`);
    }
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/**
 * Where YAML's flow collections (`[`, `{`) first nest deeper than `limit`, outside quoted
 * scalars and comments; undefined when they never do. The parser follows nesting by recursion,
 * and a stack overflow is no message for a user.
 */
function flowNestingPast(text: string, limit: number): { line: number; column: number } | undefined {
  if (text.length < limit) return undefined;
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      lineStart = i + 1;
    } else if (c === '[' || c === '{') {
      if (++depth > limit) return { line, column: i - lineStart + 1 };
    } else if (c === ']' || c === '}') {
      depth = Math.max(0, depth - 1);
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === '"' || c === "'") {
      // A quoted scalar: a doubled quote inside single quotes, a backslash escape inside double.
      for (i++; i < text.length; i++) {
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        if (c === '"' && text[i] === '\\') i++;
        else if (text[i] === c) {
          if (c === "'" && text[i + 1] === "'") i++;
          else break;
        }
      }
    }
  }
  return undefined;
}

function firstLine(error: unknown): string {
  // Node quotes the surrounding text after the reason; the position already says where.
  return ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').replace(/, ".*$/, '');
}
