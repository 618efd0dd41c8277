// Protocol Buffers' wire format, read: just what decoding the apiserver's answers needs
// (varints, length-delimited fields, skipping the rest). Fields are read in the order they
// come; a field this reader does not ask for is skipped by its wire type, never parsed.
// https://protobuf.dev/programming-guides/encoding/

export const enum WireType {
  Varint = 0,
  Fixed64 = 1,
  LengthDelimited = 2,
  // 3 and 4 are groups, deprecated and never written by the apiserver: skip() refuses them.
  Fixed32 = 5,
}

export class ProtobufError extends Error {}

type Slicing = Buffer & { utf8Slice(start: number, end: number): string; latin1Slice(start: number, end: number): string };

/**
 * Strings that repeat across thousands of objects (label keys and values, resource names, node
 * names, images) are kept once. They are looked up by their bytes before any string is made: at
 * 150,000 pods, making every such string and then hashing it again for a Map took a sixth of the
 * read's main thread (a profile), and each was garbage at once when it had been seen before.
 * ASCII strings (every name Kubernetes validates) are kept in an open-addressing table keyed by
 * an FNV-1a hash of their bytes; any other string is made and kept in a Map.
 */
export class Interner {
  private strings: (string | undefined)[] = new Array<string | undefined>(1024).fill(undefined);
  private hashes = new Int32Array(1024);
  private count = 0;
  private readonly unicode = new Map<string, string>();

  /** The next length-delimited field, a string, read and kept once. */
  read(r: Reader): string {
    const { start, end } = r.span();
    return this.slice(r.buf, start, end);
  }

  /** The string `buf[start, end)` holds in UTF-8, the one already kept if it was seen before. */
  slice(buf: Buffer, start: number, end: number): string {
    let hash = 0x811c9dc5 | 0;
    let high = 0;
    for (let i = start; i < end; i++) {
      const byte = buf[i] as number;
      high |= byte;
      hash = Math.imul(hash ^ byte, 0x01000193);
    }
    if (high >= 0x80) return this.unicodeOf((buf as Slicing).utf8Slice(start, end));
    const length = end - start;
    const mask = this.strings.length - 1;
    let slot = hash & mask;
    for (let known = this.strings[slot]; known !== undefined; known = this.strings[slot]) {
      if (this.hashes[slot] === hash && known.length === length && sameAscii(known, buf, start)) return known;
      slot = (slot + 1) & mask;
    }
    const made = (buf as Slicing).latin1Slice(start, end);
    this.strings[slot] = made;
    this.hashes[slot] = hash;
    if (++this.count * 2 > this.strings.length) this.grow();
    return made;
  }

  private unicodeOf(s: string): string {
    const known = this.unicode.get(s);
    if (known !== undefined) return known;
    this.unicode.set(s, s);
    return s;
  }

  private grow(): void {
    const strings = this.strings;
    const hashes = this.hashes;
    this.strings = new Array<string | undefined>(strings.length * 2).fill(undefined);
    this.hashes = new Int32Array(strings.length * 2);
    const mask = this.strings.length - 1;
    for (let i = 0; i < strings.length; i++) {
      if (strings[i] === undefined) continue;
      let slot = (hashes[i] as number) & mask;
      while (this.strings[slot] !== undefined) slot = (slot + 1) & mask;
      this.strings[slot] = strings[i];
      this.hashes[slot] = hashes[i] as number;
    }
  }
}

/** Whether the ASCII string `s` is the bytes from `start` on (its length already compared). */
function sameAscii(s: string, buf: Buffer, start: number): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[start + i]) return false;
  return true;
}

export class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  more(): boolean {
    return this.pos < this.end;
  }

  /** The next field's key: number and wire type. */
  key(): { field: number; wire: WireType } {
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: (key % 8) as WireType };
  }

  /** An unsigned varint up to 2^53, which covers every length, count and non-negative int64 here. */
  varint(): number {
    const buf = this.buf;
    let result = 0;
    let multiplier = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('a varint runs past the end');
      const byte = buf[this.pos++] as number;
      result += (byte & 0x7f) * multiplier;
      if (byte < 0x80) return result;
      multiplier *= 128;
    }
    throw new ProtobufError('a varint is longer than 10 bytes');
  }

  /** int32 and int64 fields: negative values are written as 10-byte two's complement varints. */
  signed(): number {
    const start = this.pos;
    const value = this.varint();
    if (this.pos - start < 10) return value;
    // Exact for every int64 in JavaScript's safe range, negative ones included.
    let big = 0n;
    for (let i = this.pos - 1; i >= start; i--) big = (big << 7n) | BigInt((this.buf[i] as number) & 0x7f);
    return Number(BigInt.asIntN(64, big));
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  /** The bounds of a length-delimited field, which the reader then skips. */
  span(): { start: number; end: number } {
    const length = this.varint();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw new ProtobufError('a field runs past the end of its message');
    this.pos = end;
    return { start, end };
  }

  /**
   * Enters the next length-delimited field (an embedded message): returns where it ends, and
   * the message is read while `within(end)`.
   */
  enter(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.end) throw new ProtobufError('a field runs past the end of its message');
    return end;
  }

  /** Whether a message that ends at `end` has more fields; one that ran past its end is refused. */
  within(end: number): boolean {
    if (this.pos > end) throw new ProtobufError('a field runs past the end of its message');
    return this.pos < end;
  }

  string(): string {
    const { start, end } = this.span();
    // Buffer's own UTF-8 decoder, without toString's checks of its arguments (a string per field).
    return (this.buf as Slicing).utf8Slice(start, end);
  }

  skip(wire: WireType): void {
    switch (wire) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.advance(8);
        return;
      case WireType.LengthDelimited:
        this.span();
        return;
      case WireType.Fixed32:
        this.advance(4);
        return;
      default:
        throw new ProtobufError(`unsupported wire type ${String(wire)}`);
    }
  }

  private advance(bytes: number): void {
    if (this.pos + bytes > this.end) throw new ProtobufError('a field runs past the end of its message');
    this.pos += bytes;
  }
}
