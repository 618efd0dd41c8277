// YAML dumps read line by line. The `yaml` package builds a tree of the whole document (about
// 65 times the size of the text), and kubectl writes a List as ONE document:
//
//   apiVersion: v1
//   items:
//   - apiVersion: v1
//     kind: Node
//     ...
//   kind: List
//   metadata: ...
//
// so documents are split at `---` and `...` lines, and inside a document whose top-level
// `items:` is a block sequence, at each entry: a line whose indentation is the first entry's
// `- ` indentation (kubectl writes 0, other tools 2). Each entry is parsed on its own, and the
// rest of the document (apiVersion, kind, metadata) as a small document of its own. A document
// without such a sequence (one object, `items: [...]` in flow style) is parsed whole.
//
// Why a line at or left of the entries' indentation ends an entry: in YAML the content of an
// entry (block scalars and multi-line quoted strings included) is indented further; only blank
// lines and comments may sit further left, and those do not end anything.
import { StringDecoder } from 'node:string_decoder';
import type { DocumentSink } from './objects.js';
import { parseYamlPiece, type Anchors } from './parse.js';
import type { LineSegment } from './position.js';

/** A piece of the file to parse alone, and where its lines lie in the file. */
export interface YamlPiece {
  text: string;
  lines: LineSegment[];
}

export interface YamlSplitSink {
  /** A document read whole. */
  document(piece: YamlPiece): void;
  /** A document's `items:` sequence begins; `head` is the document up to it. */
  listStart(head: YamlPiece): void;
  /** One entry of the sequence, still with its `- `, moved left to column 1. */
  item(piece: YamlPiece): void;
  /** The document ends; `head` is all of it but the entries. */
  listEnd(head: YamlPiece): void;
}

const itemsKey = /^items:[ \t]*(?:#.*)?$/;
const entryStart = /^( *)-(?:[ \t]|$)/;

function isMarker(line: string, marker: '---' | '...'): boolean {
  return line.startsWith(marker) && (line.length === 3 || line[3] === ' ' || line[3] === '\t');
}

function spacesBefore(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

export class YamlSplitter {
  private readonly decoder = new StringDecoder('utf8');
  /** The input's last line, while it is not yet complete. */
  private partial = '';
  private lineNo = 0;
  /** The input's last line has no newline: pieces that end with it must not gain one. */
  private unterminated = false;

  // The current document: its lines (all of them, or all but the entries of its items).
  private doc: string[] = [];
  private docLines: LineSegment[] = [];
  private lastDocLine = 0;
  /** Something other than comments, blank lines and directives: a `---` now starts a new document. */
  private docHasContent = false;
  private itemsSeen = false;
  /** The document's items were split into entries. */
  private split = false;
  private state: 'document' | 'afterItemsKey' | 'entries' = 'document';
  /** The `items:` line and the blank or comment lines after it, until an entry or else shows. */
  private pending: { text: string; line: number }[] = [];

  // The current entry.
  private indent = 0;
  private entry: string[] = [];
  private entryLine = 0;

  constructor(private readonly sink: YamlSplitSink) {}

  push(chunk: Uint8Array): void {
    const text = this.partial + this.decoder.write(chunk as Buffer);
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.take(line);
  }

  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest !== '') {
      this.take(rest);
      this.unterminated = true;
    }
    this.endDocument();
  }

  private take(raw: string): void {
    this.lineNo++;
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.lineNo === 1 && line.startsWith('\uFEFF')) line = line.slice(1);
    if (isMarker(line, '---')) {
      if (this.docHasContent || this.state !== 'document') this.endDocument();
      this.addToDocument(line);
      const after = line.slice(3).trim();
      if (after !== '' && !after.startsWith('#')) this.docHasContent = true;
      return;
    }
    if (isMarker(line, '...')) {
      this.endDocument();
      return;
    }
    if (this.state === 'entries') this.inEntries(line);
    else if (this.state === 'afterItemsKey') this.afterItemsKey(line);
    else this.inDocument(line);
  }

  private inDocument(line: string): void {
    if (!this.itemsSeen && itemsKey.test(line)) {
      this.itemsSeen = true;
      this.docHasContent = true;
      this.state = 'afterItemsKey';
      this.pending = [{ text: line, line: this.lineNo }];
      return;
    }
    this.addToDocument(line);
    if (!this.docHasContent) {
      const trimmed = line.trim();
      if (trimmed !== '' && !trimmed.startsWith('#') && !line.startsWith('%')) this.docHasContent = true;
    }
  }

  private afterItemsKey(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      this.pending.push({ text: line, line: this.lineNo });
      return;
    }
    const entry = entryStart.exec(line);
    const itemsLine = this.pending[0];
    if (!entry || !itemsLine) {
      // `items:` holds something else (a mapping, or nothing): the document is read whole.
      this.flushPending();
      this.state = 'document';
      this.inDocument(line);
      return;
    }
    this.addToDocument(itemsLine.text, itemsLine.line);
    this.pending = [];
    this.sink.listStart(this.documentPiece());
    this.split = true;
    this.state = 'entries';
    this.indent = (entry[1] ?? '').length;
    this.entry = [line];
    this.entryLine = this.lineNo;
  }

  private inEntries(line: string): void {
    const spaces = spacesBefore(line);
    if (spaces > this.indent) {
      this.entry.push(line);
      return;
    }
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) {
      this.entry.push(line);
      return;
    }
    if (spaces === this.indent && entryStart.test(line)) {
      this.flushEntry();
      this.entry = [line];
      this.entryLine = this.lineNo;
      return;
    }
    // Left of the entries, or level with them but not `- `: the sequence is over.
    this.flushEntry();
    this.state = 'document';
    this.addToDocument(line);
  }

  private flushEntry(): void {
    const indent = this.indent;
    const lines = indent === 0 ? this.entry : this.entry.map((l) => l.slice(Math.min(indent, spacesBefore(l))));
    this.entry = [];
    this.sink.item({ text: this.joined(lines), lines: [{ from: 1, line: this.entryLine, shift: indent }] });
  }

  private flushPending(): void {
    for (const { text, line } of this.pending) this.addToDocument(text, line);
    this.pending = [];
  }

  private addToDocument(text: string, line = this.lineNo): void {
    if (this.doc.length === 0 || line !== this.lastDocLine + 1) this.docLines.push({ from: this.doc.length + 1, line, shift: 0 });
    this.doc.push(text);
    this.lastDocLine = line;
  }

  private documentPiece(): YamlPiece {
    return { text: this.joined(this.doc), lines: this.docLines };
  }

  /** Lines as the text they were: each ended by a newline (kept trailing lines of a `|+` count). */
  private joined(lines: string[]): string {
    const text = lines.join('\n');
    return this.unterminated || lines.length === 0 ? text : `${text}\n`;
  }

  private endDocument(): void {
    if (this.state === 'afterItemsKey') this.flushPending();
    if (this.state === 'entries') this.flushEntry();
    const piece = this.documentPiece();
    if (this.split) this.sink.listEnd(piece);
    else if (this.docHasContent) this.sink.document(piece);
    this.doc = [];
    this.docLines = [];
    this.docHasContent = false;
    this.itemsSeen = false;
    this.split = false;
    this.state = 'document';
  }
}

/** Parses each piece as it comes, and hands documents, lists and their items to the sink. */
export class YamlReader implements YamlSplitSink {
  private documents = 0;
  private items = 0;
  private anchors: Anchors = new Map();

  constructor(
    private readonly sink: DocumentSink,
    private readonly label: string,
  ) {}

  private where(): string {
    return this.documents > 1 ? `${this.label}, document ${this.documents}` : this.label;
  }

  document(piece: YamlPiece): void {
    for (const value of parseYamlPiece(piece, this.label)) {
      this.documents++;
      this.sink.document(value, this.where());
    }
  }

  listStart(head: YamlPiece): void {
    this.documents++;
    this.items = 0;
    this.anchors = new Map();
    // kubectl writes `kind: List` after the items; an API server's typed list may put it first.
    let kind: unknown;
    if (/^kind:/m.test(head.text) || head.text.includes('&')) {
      try {
        const [value] = parseYamlPiece(head, this.label, this.anchors);
        kind = (value as Record<string, unknown> | undefined)?.['kind'];
      } catch {
        // The whole head is parsed again at the end of the list, which reports its faults.
      }
    }
    this.sink.listStart(typeof kind === 'string' ? kind : undefined);
  }

  item(piece: YamlPiece): void {
    this.items++;
    const where = `${this.where()}, item ${this.items}`;
    const [entries] = parseYamlPiece(piece, this.label, this.anchors);
    // The piece is `- ...`: a sequence of exactly this one entry.
    const value: unknown = Array.isArray(entries) ? entries[0] : entries;
    this.sink.listItem(value ?? null, where);
  }

  listEnd(head: YamlPiece): void {
    const [value] = parseYamlPiece(head, this.label, this.anchors);
    this.anchors = new Map();
    this.sink.listEnd(value);
  }
}
