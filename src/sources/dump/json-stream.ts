// JSON dumps read as a stream of bytes. A dump past 512 MiB cannot be one string at all, and one
// JSON.parse of a large dump holds the text and the whole tree at once (several times the file); so
// a small scanner follows strings (with their escapes) and brackets, cuts out each element of a
// List's `items` (or of a top-level array), and JSON.parse()s that element on its own: the
// scanner's memory is bounded by the largest object, not by the file. The rest (the List's
// apiVersion, kind, metadata; a top-level object that is not a list) is parsed whole. Several
// top-level values one after the other are read as several documents.
import { InputError } from '../../errors.js';
import type { DocumentSink } from './objects.js';
import { maxNesting } from './limits.js';
import { parseJsonPiece } from './parse.js';
import type { TextSegment } from './position.js';

/** A piece of the file to parse alone, and where its text lies in the file. */
export interface JsonPiece {
  text: string;
  segments: TextSegment[];
}

export interface JsonSplitSink {
  /** A top-level value that is not split (not a list): read whole. */
  value(piece: JsonPiece): void;
  /**
   * The `items` array of a top-level object begins. `head` is the object read so far, closed
   * as `"items": []}`, so that a kind written before the items (an API server's PodList) is known
   * early. A top-level array has no head.
   */
  listStart(head: JsonPiece | undefined): void;
  item(piece: JsonPiece): void;
  /** The list ends: `head` is the whole top-level object with its items cut out (`"items": []`). */
  listEnd(head: JsonPiece | undefined): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const RETURN = 0x0d;
const ITEMS = 'items';
const byteOrderMark = [0xef, 0xbb, 0xbf];

/** Bytes of one piece, gathered over as many chunks as it spans. */
class Capture {
  private readonly parts: Uint8Array[] = [];
  constructor(
    /** Where in the current chunk the capture (re)started. */
    public from: number,
    readonly line: number,
    readonly column: number,
  ) {}

  /** The current chunk's bytes up to `to` (exclusive) belong to the piece. */
  take(chunk: Uint8Array, to: number): void {
    if (to > this.from) this.parts.push(chunk.subarray(this.from, to));
    this.from = 0;
  }

  text(): string {
    const only = this.parts.length === 1 ? this.parts[0] : undefined;
    if (only) return Buffer.from(only.buffer, only.byteOffset, only.byteLength).toString('utf8');
    return Buffer.concat(this.parts).toString('utf8');
  }

  piece(): JsonPiece {
    return { text: this.text(), segments: [{ offset: 0, line: this.line, column: this.column }] };
  }
}

function shownByte(b: number): string {
  return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}

export class JsonSplitter {
  /** Absolute offset of the current chunk's first byte. */
  private offset = 0;
  private line = 1;
  /** Absolute offset of the current line's first byte. */
  private lineStart = 0;
  /** The closing byte each open object or array waits for. */
  private readonly open: number[] = [];
  private inString = false;
  private escaped = false;
  /** In the top-level object: a key is expected next (after `{` or `,`). */
  private expectKey = false;
  /** The bytes of the top-level object's key being read. */
  private keyBytes: number[] | undefined;
  private key = '';
  /** `"items":` was just read in the top-level object: an array here is split. */
  private itemsNext = false;
  /** Depth of the array whose elements are split (1: a top-level array, 2: a List's items); 0: none. */
  private splitDepth = 0;
  /** A `,` was read in the split array and no element has followed yet. */
  private afterComma = false;
  /** The top-level object, while it is read up to its items (or whole, when it has none). */
  private head: Capture | undefined;
  /** The top-level object up to its items, once they began. */
  private beforeItems: Capture | undefined;
  /** The top-level object after its items. */
  private tail: Capture | undefined;
  private element: Capture | undefined;
  /** How many bytes of a byte order mark opened the input. */
  private markBytes = 0;

  constructor(
    private readonly sink: JsonSplitSink,
    private readonly label: string,
  ) {}

  private fail(at: number, message: string): never {
    throw new InputError(`${this.label}: line ${this.line}, column ${this.offset + at - this.lineStart + 1}: not valid JSON: ${message}`);
  }

  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    for (; i < n; i++) {
      if (this.inString) {
        // The hot loop: most of a Kubernetes object is strings.
        let escaped = this.escaped;
        const key = this.keyBytes;
        for (; i < n; i++) {
          const c = chunk[i] as number;
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) break;
          if (key !== undefined && key.length <= ITEMS.length) key.push(c);
        }
        this.escaped = escaped;
        if (i === n) break;
        this.inString = false;
        if (key) {
          this.key = String.fromCharCode(...key);
          this.keyBytes = undefined;
        }
        continue;
      }
      const b = chunk[i] as number;
      if (b === SPACE || b === TAB || b === RETURN) continue;
      if (b === NEWLINE) {
        this.line++;
        this.lineStart = this.offset + i + 1;
        // Pretty-printed JSON is largely indentation: skip it in one tight loop.
        while (i + 1 < n && chunk[i + 1] === SPACE) i++;
        continue;
      }
      const depth = this.open.length;
      if (depth === 0) {
        this.topLevel(b, i);
        continue;
      }
      if (this.splitDepth !== 0 && depth === this.splitDepth) {
        if (b === COMMA || b === CLOSE_BRACKET) {
          if (this.element) {
            this.element.take(chunk, i);
            this.sink.item(this.element.piece());
            this.element = undefined;
          } else if (b === COMMA || this.afterComma) this.fail(i, `unexpected ${shownByte(b)}: a value is missing`);
          if (b === COMMA) {
            this.afterComma = true;
            continue;
          }
          this.open.pop();
          this.afterComma = false;
          this.splitDepth = 0;
          if (this.open.length === 0) this.sink.listEnd(undefined);
          else this.tail = new Capture(i + 1, this.line, this.offset + i + 1 - this.lineStart + 1);
          continue;
        }
        if (!this.element) {
          this.element = new Capture(i, this.line, this.offset + i - this.lineStart + 1);
          this.afterComma = false;
        }
      }
      switch (b) {
        case QUOTE:
          this.inString = true;
          if (depth === 1 && this.expectKey) this.keyBytes = [];
          else if (depth === 1) this.itemsNext = false;
          break;
        case OPEN_BRACE:
        case OPEN_BRACKET:
          if (depth === 1 && this.itemsNext && b === OPEN_BRACKET && this.head) {
            this.beginItems(chunk, i);
            break;
          }
          if (depth === 1) this.itemsNext = false;
          if (depth >= maxNesting) this.fail(i, `nested deeper than ${maxNesting.toLocaleString('en-US')} levels: no Kubernetes object is; the file is damaged or not a dump`);
          this.open.push(b === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET);
          break;
        case CLOSE_BRACE:
        case CLOSE_BRACKET: {
          const wanted = this.open.pop();
          if (wanted !== b) this.fail(i, `expected ${shownByte(wanted ?? 0)}, found ${shownByte(b)}`);
          if (this.open.length === 0) this.endTopObject(chunk, i);
          break;
        }
        case COLON:
          if (depth === 1) {
            this.expectKey = false;
            this.itemsNext = this.key === ITEMS;
          }
          break;
        case COMMA:
          if (depth === 1) {
            this.expectKey = true;
            this.itemsNext = false;
          }
          break;
        default:
          if (depth === 1) this.itemsNext = false;
      }
    }
    this.head?.take(chunk, n);
    this.tail?.take(chunk, n);
    this.element?.take(chunk, n);
    this.offset += n;
  }

  private topLevel(b: number, i: number): void {
    // A byte order mark, however the chunks cut it.
    const at = this.offset + i;
    if (at < byteOrderMark.length && at === this.markBytes && b === byteOrderMark[at]) {
      this.markBytes++;
      return;
    }
    const column = this.offset + i - this.lineStart + 1;
    if (b === OPEN_BRACE) {
      this.open.push(CLOSE_BRACE);
      this.expectKey = true;
      this.itemsNext = false;
      this.head = new Capture(i, this.line, column);
      this.beforeItems = undefined;
      this.tail = undefined;
      return;
    }
    if (b === OPEN_BRACKET) {
      this.open.push(CLOSE_BRACKET);
      this.splitDepth = 1;
      this.afterComma = false;
      this.expectKey = false;
      this.sink.listStart(undefined);
      return;
    }
    this.fail(i, `expected '{' or '[', found ${shownByte(b)}`);
  }

  private beginItems(chunk: Uint8Array, i: number): void {
    const head = this.head as Capture;
    head.take(chunk, i);
    this.beforeItems = head;
    this.head = undefined;
    this.open.push(CLOSE_BRACKET);
    this.splitDepth = 2;
    this.afterComma = false;
    this.itemsNext = false;
    this.sink.listStart({ text: `${head.text()}[]}`, segments: [{ offset: 0, line: head.line, column: head.column }] });
  }

  private endTopObject(chunk: Uint8Array, i: number): void {
    const { head, beforeItems, tail } = this;
    this.head = this.beforeItems = this.tail = undefined;
    if (head) {
      head.take(chunk, i + 1);
      this.sink.value(head.piece());
      return;
    }
    if (!beforeItems || !tail) return;
    tail.take(chunk, i + 1);
    const before = beforeItems.text();
    this.sink.listEnd({
      text: `${before}[]${tail.text()}`,
      segments: [
        { offset: 0, line: beforeItems.line, column: beforeItems.column },
        { offset: before.length + 2, line: tail.line, column: tail.column },
      ],
    });
  }

  end(): void {
    if (this.inString || this.open.length > 0) {
      this.fail(0, `the input ends inside ${this.inString ? 'a string' : this.open.at(-1) === CLOSE_BRACE ? 'an object' : 'an array'}: the file is cut short`);
    }
  }
}

/** Parses each piece as it comes, and hands documents, lists and their items to the sink. */
export class JsonReader implements JsonSplitSink {
  private documents = 0;
  private items = 0;
  private inArray = false;

  constructor(
    private readonly sink: DocumentSink,
    private readonly label: string,
  ) {}

  private where(): string {
    return this.documents > 1 ? `${this.label}, document ${this.documents}` : this.label;
  }

  value(piece: JsonPiece): void {
    this.documents++;
    this.sink.document(parseJsonPiece(piece, this.label), this.where());
  }

  listStart(head: JsonPiece | undefined): void {
    this.documents++;
    this.items = 0;
    this.inArray = head === undefined;
    if (head === undefined) return;
    let kind: unknown;
    try {
      kind = (JSON.parse(head.text) as Record<string, unknown>)['kind'];
    } catch {
      // The whole head is parsed again at the end of the list, which reports its faults.
    }
    this.sink.listStart(typeof kind === 'string' ? kind : undefined);
  }

  item(piece: JsonPiece): void {
    this.items++;
    const value = parseJsonPiece(piece, this.label);
    const where = `${this.where()}, item ${this.items}`;
    // A top-level array is a plain list of documents, as flatten() reads an array.
    if (this.inArray) this.sink.document(value, where);
    else this.sink.listItem(value, where);
  }

  listEnd(head: JsonPiece | undefined): void {
    if (head) this.sink.listEnd(parseJsonPiece(head, this.label));
    this.inArray = false;
  }
}
