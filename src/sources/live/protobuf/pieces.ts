// A page of the apiserver's protobuf answer as it came off the wire: in pieces (gunzip's output
// chunks, or the socket's reads), read from start to end without joining them (envelope.ts).
import { ProtobufError, Reader, WireType } from './wire.js';

/**
 * A page's bytes: whole, or in the pieces they came in (gunzip's output chunks). Read in pieces,
 * a page is never joined: only an item that straddles two pieces is copied. Joining every page
 * copied each byte of a read of every pod once more (216 ms of 4.5 s at 150,000 pods, a profile)
 * and held each page twice while it was decoded.
 */
export type PageBytes = Buffer | readonly Buffer[];

/** Reads a page's pieces by offset from the page's start, a byte at a time: only the envelope's few header bytes. */
export class Pieces {
  private readonly pieces: readonly Buffer[];
  private readonly starts: number[] = [];
  readonly length: number;
  pos = 0;
  private at = 0;

  constructor(bytes: PageBytes) {
    this.pieces = Buffer.isBuffer(bytes) ? [bytes] : bytes;
    let start = 0;
    for (const piece of this.pieces) {
      this.starts.push(start);
      start += piece.length;
    }
    this.length = start;
  }

  /** Moves to the piece that holds `pos`: forward only, as a page is read from its start to its end. */
  private seek(pos: number): void {
    while (this.at < this.pieces.length - 1 && pos >= (this.starts[this.at + 1] as number)) this.at++;
  }

  byte(): number {
    if (this.pos >= this.length) throw new ProtobufError('a field runs past the end of its message');
    this.seek(this.pos);
    const byte = (this.pieces[this.at] as Buffer)[this.pos - (this.starts[this.at] as number)] as number;
    this.pos++;
    return byte;
  }

  varint(): number {
    let result = 0;
    let multiplier = 1;
    for (let i = 0; i < 10; i++) {
      const byte = this.byte();
      result += (byte & 0x7f) * multiplier;
      if (byte < 0x80) return result;
      multiplier *= 128;
    }
    throw new ProtobufError('a varint is longer than 10 bytes');
  }

  key(): { field: number; wire: WireType } {
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: (key % 8) as WireType };
  }

  /** The next length-delimited field as a Reader of its bytes: a view of one piece, or a copy across two or more. */
  message(): Reader {
    const length = this.varint();
    const start = this.pos;
    const end = start + length;
    if (end > this.length) throw new ProtobufError('a field runs past the end of its message');
    this.pos = end;
    this.seek(start);
    const piece = this.pieces[this.at] as Buffer;
    const offset = start - (this.starts[this.at] as number);
    if (offset + length <= piece.length) return new Reader(piece, offset, offset + length);
    const copy = Buffer.allocUnsafe(length);
    for (let copied = 0, i = this.at; copied < length; i++) {
      const from = this.pieces[i] as Buffer;
      copied += from.copy(copy, copied, i === this.at ? offset : 0, Math.min(from.length, (i === this.at ? offset : 0) + length - copied));
    }
    return new Reader(copy);
  }

  skip(wire: WireType): void {
    if (wire === WireType.Varint) this.varint();
    else if (wire === WireType.LengthDelimited) {
      const length = this.varint();
      this.pos += length;
    }
    else if (wire === WireType.Fixed64) this.pos += 8;
    else if (wire === WireType.Fixed32) this.pos += 4;
    else throw new ProtobufError(`unsupported wire type ${String(wire)}`);
    if (this.pos > this.length) throw new ProtobufError('a field runs past the end of its message');
  }
}
