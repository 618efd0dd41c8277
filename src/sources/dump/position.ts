// Pieces of a dump are parsed apart from the file they came from (one list item, a list's
// head with its items cut out); these maps turn a position inside a piece back into the
// file's line and column, so that an error still points where the user must look.

/** JSON: from `offset` on (UTF-16 units into the piece), the text is the file's from `line`/`column`. */
export interface TextSegment {
  offset: number;
  line: number;
  column: number;
}

export function positionInText(text: string, segments: readonly TextSegment[], offset: number): { line: number; column: number } {
  let segment = segments[0] ?? { offset: 0, line: 1, column: 1 };
  for (const s of segments) if (s.offset <= offset) segment = s;
  let { line, column } = segment;
  for (let i = segment.offset; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

/** YAML: from piece line `from` on (1-based), lines are the file's from `line`, each shifted right by `shift` columns. */
export interface LineSegment {
  from: number;
  line: number;
  shift: number;
}

export function positionInLines(segments: readonly LineSegment[], line: number, column: number): { line: number; column: number } {
  let segment = segments[0] ?? { from: 1, line: 1, shift: 0 };
  for (const s of segments) if (s.from <= line) segment = s;
  return { line: segment.line + (line - segment.from), column: column + segment.shift };
}
