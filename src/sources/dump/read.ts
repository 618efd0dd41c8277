// --from-dump: a file, a directory of files (including `kubectl cluster-info dump
// --output-directory`), or `-` for stdin, read into a snapshot. Files are read as streams, one
// object at a time (json-stream.ts, yaml-stream.ts), so that a dump of any size is read in
// memory bounded by what the snapshot keeps.
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { collectionNames, type CollectionName, type Gap, type Snapshot } from '../../snapshot/types.js';
import { collectionOfFile } from './captured.js';
import { InputError } from '../../errors.js';
import type { Source } from '../source.js';
import { Collector } from './collect.js';
import { JsonReader, JsonSplitter } from './json-stream.js';
import { ObjectReader } from './objects.js';
import { YamlReader, YamlSplitter } from './yaml-stream.js';
import { byText } from '../../engine/order.js';
import { manifestFile } from '../capture/manifest.js';
import { captureSnapshot, isManifestPath, manifestSnapshot } from '../capture/read.js';
import { isGzip, unpackTarGz, type ArchiveFile } from '../capture/tar.js';

const dumpExtensions = new Set(['.yaml', '.yml', '.json']);
/** Bytes read before deciding JSON or YAML, unless the input is shorter. */
const sniffBytes = 1024;

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => byText(a.name, b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesIn(full)));
    // cluster-info dump also writes logs.txt per pod: only manifests are read.
    else if (dumpExtensions.has(path.extname(entry.name).toLowerCase())) out.push(full);
  }
  return out;
}

function describeFsError(target: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new InputError(`reading dump ${target}: no such file or directory`);
  if (code === 'EACCES') return new InputError(`reading dump ${target}: permission denied`);
  if (code === 'EISDIR') return new InputError(`reading dump ${target}: is a directory`);
  return new InputError(`reading dump ${target}: ${(error as Error).message}`);
}

/**
 * JSON when the text opens an object whose first key is quoted (`{"`), or an array; YAML
 * otherwise, flow style (`{kind: Pod}`) included. Undefined: too little text to say yet.
 */
export function looksLikeJson(start: string, complete: boolean): boolean | undefined {
  const match = /^\uFEFF?[\s[]*/.exec(start);
  const rest = start.slice(match?.[0].length ?? 0);
  const opened = (match?.[0] ?? '').includes('[');
  if (rest === '') return complete ? opened : undefined;
  if (rest[0] !== '{') return opened && /^[\]"\d-]/.test(rest);
  const afterBrace = rest.slice(1).trimStart();
  if (afterBrace === '') return complete ? true : undefined;
  return afterBrace[0] === '"' || afterBrace[0] === '}';
}

interface Splitter {
  push(chunk: Uint8Array): void;
  end(): void;
}

/** Reports at most four times a second, and only once reading has taken a second. */
export function progressMeter(
  report: ((line: string) => void) | undefined,
  clock: () => number = () => performance.now(),
): (label: string, bytes: number, objects: number) => void {
  if (!report) return () => undefined;
  const start = clock();
  let last = Number.NEGATIVE_INFINITY;
  return (label, bytes, objects) => {
    const now = clock();
    if (now - start < 1000 || now - last < 250) return;
    last = now;
    report(`reading dump ${label}: ${Math.round(bytes / 1e6).toLocaleString('en-US')} MB, ${objects.toLocaleString('en-US')} objects so far`);
  };
}

async function readInput(
  chunks: AsyncIterable<unknown> | Iterable<unknown>,
  label: string,
  objects: ObjectReader,
  meter: ReturnType<typeof progressMeter>,
): Promise<void> {
  const shortLabel = label === '<stdin>' ? 'stdin' : path.basename(label);
  let splitter: Splitter | undefined;
  let held: Buffer[] = [];
  let bytes = 0;
  const choose = (complete: boolean): Splitter | undefined => {
    const json = looksLikeJson(Buffer.concat(held).subarray(0, 1 << 16).toString('utf8'), complete);
    if (json === undefined) return undefined;
    const chosen = json ? new JsonSplitter(new JsonReader(objects, label), label) : new YamlSplitter(new YamlReader(objects, label));
    for (const chunk of held) chosen.push(chunk);
    held = [];
    return chosen;
  };
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
    bytes += chunk.length;
    if (splitter) splitter.push(chunk);
    else {
      held.push(chunk);
      if (bytes >= sniffBytes) splitter = choose(bytes >= 1 << 16);
    }
    meter(shortLabel, bytes, objects.count);
  }
  splitter ??= choose(true);
  splitter?.end();
}

export interface ReadDumpOptions {
  /** Called with a line such as "reading dump case.yaml: 120 MB, 41,000 objects so far". */
  progress?: (line: string) => void;
}

/** The files of a dump: paths to stream from, or (a .tar.gz) entries already in memory. */
type DumpFile = string | ArchiveFile;

async function startsWithGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return isGzip(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** What `target` holds: its dump files, and the capture manifest's text when it has one. */
async function dumpFiles(target: string): Promise<{ files: DumpFile[]; manifest?: string }> {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    throw describeFsError(target, error);
  }
  if (info.isDirectory()) {
    const files = await filesIn(target);
    const manifest = files.find((f) => f === path.join(target, manifestFile));
    if (!manifest) return { files };
    return { files: files.filter((f) => f !== manifest), manifest: await readFile(manifest, 'utf8') };
  }
  if (!(await startsWithGzip(target))) return { files: [target] };
  return archiveFiles(createReadStream(target), target);
}

/** A capture written as .tar.gz, or any folder of dump files tarred and gzipped: its files, in memory. */
async function archiveFiles(stream: NodeJS.ReadableStream, label: string): Promise<{ files: DumpFile[]; manifest?: string }> {
  const entries = (await unpackTarGz(stream, label)).filter((e) => dumpExtensions.has(path.extname(e.path).toLowerCase()));
  const top = entries.filter((e) => isManifestPath(e.path) && e.path.split('/').length <= 2);
  if (top.length > 1) throw new InputError(`reading capture ${label}: it holds ${top.length} manifests; one capture per archive`);
  const manifest = top[0];
  return { files: entries.filter((e) => e !== manifest), ...(manifest ? { manifest: manifest.bytes.toString('utf8') } : {}) };
}

/** Standard input as a stream again after its first chunk was looked at. */
function replayed(first: Buffer, rest: AsyncIterator<unknown>): NodeJS.ReadableStream {
  return Readable.from(
    (async function* () {
      yield first;
      for (let next = await rest.next(); !next.done; next = await rest.next()) yield typeof next.value === 'string' ? Buffer.from(next.value) : (next.value as Buffer);
    })(),
  );
}

/** Standard input: a dump (JSON or YAML) read as a stream, or a .tar.gz capture (its gzip magic). */
async function stdinFiles(stdin: NodeJS.ReadableStream): Promise<{ files: DumpFile[]; manifest?: string } | NodeJS.ReadableStream> {
  const chunks = (stdin as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const head = await chunks.next();
  if (head.done) return Readable.from([]);
  const first = typeof head.value === 'string' ? Buffer.from(head.value) : (head.value as Buffer);
  const stream = replayed(first, chunks);
  return isGzip(first) ? archiveFiles(stream, 'stdin') : stream;
}

export async function readDump(target: string, stdin: NodeJS.ReadableStream, options: ReadDumpOptions = {}): Promise<Snapshot> {
  const collector = new Collector();
  const captured = new Set<CollectionName>();
  const objects = new ObjectReader((found) => collector.add(found));
  const meter = progressMeter(options.progress);
  const label = target === '-' ? 'stdin' : target;
  let manifest: string | undefined;
  const fromStdin = target === '-' ? await stdinFiles(stdin) : undefined;
  if (fromStdin && !('files' in fromStdin)) {
    await readInput(fromStdin as AsyncIterable<unknown>, '<stdin>', objects, meter);
  } else {
    const found = fromStdin ?? (await dumpFiles(target));
    manifest = found.manifest;
    if (found.files.length === 0 && manifest === undefined) {
      throw new InputError(`reading dump ${label}: ${target !== '-' && path.extname(target) === '' ? 'the directory' : 'the archive'} holds no .yaml, .yml or .json file`);
    }
    for (const file of found.files) {
      const where = typeof file === 'string' ? file : `${label}: ${file.path}`;
      try {
        await readInput(typeof file === 'string' ? createReadStream(file, { highWaterMark: 1 << 20 }) : [file.bytes], where, objects, meter);
        const named = collectionOfFile(typeof file === 'string' ? file : file.path);
        if (named) captured.add(named);
      } catch (error) {
        if (error instanceof InputError) throw error;
        if ((error as NodeJS.ErrnoException).code === undefined) throw error;
        throw describeFsError(where, error);
      }
    }
  }
  if (manifest !== undefined) {
    // A capture: its manifest says what was read; an empty collection there is known empty.
    const read = manifestSnapshot(manifest, label);
    const { collections, notes } = collector.finish();
    return captureSnapshot(label, collections, notes, read);
  }
  if (objects.count === 0) throw new InputError(`reading dump ${target}: it holds no Kubernetes objects`);
  const { collections, notes } = collector.finish();
  // Every kind the dump does not hold, and shows no sign of having captured, is a gap; the
  // engine tells which matter for the pod.
  for (const c of objects.listed) captured.add(c);
  const gaps: Gap[] = collectionNames.filter((c) => collections[c].length === 0 && !captured.has(c)).map((collection) => ({ collection, cause: 'absentFromDump' }));
  // Without `kubectl version` output in the dump, the cluster's version is unknown (no `cluster`).
  const cluster = objects.serverVersion !== undefined ? { cluster: { version: objects.serverVersion } } : {};
  return { source: { kind: 'dump', description: label }, objects: collections, gaps, notes, ...cluster };
}

/** `--from-dump target` as a source: the whole dump is read, whatever the query. */
export function dumpSource(target: string, stdin: NodeJS.ReadableStream, namespace: string | undefined): Source {
  const label = target === '-' ? 'stdin' : target;
  return {
    namespace: namespace ?? 'default',
    read: (_query, progress) => {
      progress(`reading dump ${label}`);
      return readDump(target, stdin, { progress });
    },
    readTriage: (_scope, progress) => {
      progress(`reading dump ${label}`);
      return readDump(target, stdin, { progress });
    },
  };
}
