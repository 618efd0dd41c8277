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

/** Strings that repeat across thousands of objects (label keys and values, resource names) are kept once. */
export class Interner {
  private readonly seen = new Map<string, string>();
  of(s: string): string {
    const known = this.seen.get(s);
    if (known !== undefined) return known;
    this.seen.set(s, s);
    return s;
  }
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
    return (this.buf as Buffer & { utf8Slice(start: number, end: number): string }).utf8Slice(start, end);
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
