// A capture as one .tar.gz: POSIX ustar, written and read in memory. Reading never writes a
// file: each entry becomes a buffer, so an archive cannot put anything outside a folder. An
// archive someone else made is refused, in one line, when an entry is a link, a device, a FIFO,
// has an absolute path or `..`, goes deeper than the folders a capture uses, or when the archive
// holds more entries or bytes than limits.ts allows. Only what `tar` writes for plain files is
// understood beside ustar: a folder entry, GNU's long-name entry and pax's `path` record.
// (node-tar reads in memory too, with its own entry model; ARCHITECTURE.md, "Hand-written where a
// library exists", has the two side by side.)
import { gzipSync, createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { InputError } from '../../errors.js';
import { maxArchiveBytes, maxArchiveEntries, maxArchivePathDepth } from '../dump/limits.js';

export interface ArchiveFile {
  /** A relative path with `/` between folders: `case/pods.json`. */
  path: string;
  bytes: Buffer;
}

/**
 * A file to write, its bytes in pieces: a capture of every pod is a file of 100 MB, never held
 * as one buffer (nor copied into one archive buffer before it is compressed).
 */
export interface FileToWrite {
  path: string;
  pieces: readonly Buffer[];
}

export function sizeOfPieces(pieces: readonly Buffer[]): number {
  let size = 0;
  for (const piece of pieces) size += piece.length;
  return size;
}

const block = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(path: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(block);
  h.write(path, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write(' '.repeat(8), 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

// Compressed a megabyte at a time, each batch a gzip member of its own: a gzip file is a series
// of members (RFC 1952, 2.2), which gunzip, tar and every reader here read as one stream. Deflate
// looks back 32 KB, so a member of 1 MB loses almost nothing to starting afresh.
const batchBytes = 1 << 20;

/** The files as a gzipped ustar archive. Paths must fit ustar's 100 bytes (a capture's do). */
export function packTarGz(files: readonly FileToWrite[], mtime: Date): Buffer {
  const members: Buffer[] = [];
  let batch: Buffer[] = [];
  let batched = 0;
  const flush = () => {
    // Level 3: much faster than zlib's default 6 on a capture's JSON, for few more bytes.
    if (batched > 0) members.push(gzipSync(batch.length === 1 ? (batch[0] as Buffer) : Buffer.concat(batch, batched), { level: 3 }));
    batch = [];
    batched = 0;
  };
  const add = (bytes: Buffer) => {
    batch.push(bytes);
    batched += bytes.length;
    if (batched >= batchBytes) flush();
  };
  const seconds = Math.floor(mtime.getTime() / 1000);
  for (const file of files) {
    if (Buffer.byteLength(file.path) > 100) throw new Error(`archive path longer than 100 bytes: ${file.path}`);
    const size = sizeOfPieces(file.pieces);
    add(header(file.path, size, seconds));
    for (const piece of file.pieces) add(piece);
    const pad = (block - (size % block)) % block;
    if (pad > 0) add(Buffer.alloc(pad));
  }
  add(Buffer.alloc(block * 2));
  flush();
  return Buffer.concat(members);
}

/** The archive uncompressed, refused past maxArchiveBytes before it is all in memory. */
async function gunzipBounded(stream: NodeJS.ReadableStream, label: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  // Large output chunks: zlib's default hands a capture's megabytes over in thousands of callbacks.
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  try {
    for await (const chunk of (stream as Readable).pipe(gunzip)) {
      total += (chunk as Buffer).length;
      if (total > maxArchiveBytes) {
        gunzip.destroy();
        throw new InputError(`${label}: more than ${maxArchiveBytes / 2 ** 30} GiB once uncompressed: not a capture (its limit; see the README)`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${label}: not a gzip file (${(error as Error).message}); a capture is written by kubectl why-pending capture -f FILE.tar.gz`);
  }
  return Buffer.concat(chunks);
}

function text(h: Buffer, from: number, length: number): string {
  const raw = h.subarray(from, from + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

function sizeOf(h: Buffer, label: string): number {
  const raw = text(h, 124, 12).trim();
  if (!/^[0-7]+$/.test(raw)) throw new InputError(`${label}: a damaged tar header (size "${raw}")`);
  return parseInt(raw, 8);
}

function checksumOk(h: Buffer): boolean {
  const stored = parseInt(text(h, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < block; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] as number);
  return stored === sum;
}

/** pax extended header records (`<len> path=<value>\n`): the path, when one is given. */
function paxPath(body: Buffer): string | undefined {
  let at = 0;
  let path: string | undefined;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    if (space < 0) break;
    const length = parseInt(body.subarray(at, space).toString('ascii'), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    at += length;
  }
  return path;
}

const typeWords: Readonly<Record<string, string>> = { '1': 'a hard link', '2': 'a symbolic link', '3': 'a character device', '4': 'a block device', '6': 'a FIFO' };

/** A path an entry may have: relative, without `..`, at most maxArchivePathDepth folders down. */
function checkedPath(path: string, label: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) throw new InputError(`${label}: entry "${path}" has an absolute path; a capture's entries are relative`);
  if (parts.includes('..')) throw new InputError(`${label}: entry "${path}" climbs out with ".."; refused`);
  if (parts.length - 1 > maxArchivePathDepth) throw new InputError(`${label}: entry "${path}" is more than ${maxArchivePathDepth} folders deep; not a capture`);
  return parts.join('/');
}

/**
 * The regular files of a .tar.gz, in memory, or one line saying why the archive is refused. Each
 * file's bytes are a view of the archive's one buffer, not a copy: the reader parses them all.
 */
export async function unpackTarGz(stream: NodeJS.ReadableStream, label: string): Promise<ArchiveFile[]> {
  const tar = await gunzipBounded(stream, label);
  const files: ArchiveFile[] = [];
  let entries = 0;
  let longName: string | undefined;
  for (let at = 0; at + block <= tar.length; ) {
    const h = tar.subarray(at, at + block);
    if (h.every((b) => b === 0)) break;
    if (!checksumOk(h)) throw new InputError(`${label}: not a tar archive, or a damaged one (bad header checksum at byte ${at})`);
    if (++entries > maxArchiveEntries) throw new InputError(`${label}: more than ${maxArchiveEntries.toLocaleString('en-US')} entries: not a capture (its limit; see the README)`);
    const size = sizeOf(h, label);
    const body = tar.subarray(at + block, at + block + size);
    if (body.length < size) throw new InputError(`${label}: the archive ends inside an entry (truncated?)`);
    at += block + Math.ceil(size / block) * block;
    const type = text(h, 156, 1) || '0';
    const prefix = text(h, 345, 155);
    const named = longName ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
    longName = undefined;
    const refused = typeWords[type];
    if (refused) throw new InputError(`${label}: entry "${named}" is ${refused}; a capture holds plain files only`);
    if (type === 'L') longName = body.toString('utf8').replace(/\0+$/, '');
    else if (type === 'x') longName = paxPath(body);
    else if (type === 'g' || type === '5') checkedPath(named, label);
    else if (type === '0' || type === '7') files.push({ path: checkedPath(named, label), bytes: body });
    else throw new InputError(`${label}: entry "${named}" has tar type "${type}", which a capture never holds`);
  }
  return files;
}

/** Whether a file's first bytes are gzip's magic number: a .tar.gz (or .tgz) capture. */
export function isGzip(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}
