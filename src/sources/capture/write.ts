// Writes a capture: the snapshot a diagnosis (or triage) read, redacted (redact.ts), optionally
// with names replaced (pseudonyms.ts), as one JSON List per collection plus the manifest
// (manifest.ts), into a new folder or one .tar.gz. Written beside the destination under a
// temporary name and renamed into place: a capture interrupted leaves nothing half-written.
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, UsageError } from '../../errors.js';
import { parseQuery } from '../../engine/target.js';
import { apiResources, collectionNames, type ClusterEvent, type CollectionName, type Gap, type Snapshot } from '../../snapshot/types.js';
import { captureApiVersion, describeCollections, manifestFile, type CaptureManifest, type CaptureSelection, type CollectionRecord, type ListLike, type SentLike } from './manifest.js';
import { ephemeralClaims, Pseudonyms, renameInvolved, renameObject, renameTexts } from './pseudonyms.js';
import { redactObject } from './redact.js';
import { packTarGz, sizeOfPieces, type FileToWrite } from './tar.js';

type Json = Record<string, unknown>;

export interface CaptureInput {
  snapshot: Snapshot;
  selection: CaptureSelection;
  toolVersion: string;
  /** `/version`'s gitVersion; null when it could not be read. */
  serverVersion: string | null;
  capturedAt: Date;
  /** The transport's log of requests and completed LISTs (empty for a snapshot not read live). */
  sent: readonly SentLike[];
  lists: readonly ListLike[];
  redactNames: boolean;
}

export interface CaptureFiles {
  files: FileToWrite[];
  manifest: CaptureManifest;
  /** The selection as the capture names it (pseudonyms with --redact-names): how to diagnose it. */
  selection: CaptureSelection;
  /** With --redact-names, the names replaced (said to whoever captured, never written). */
  names?: Pseudonyms;
}

/** A .tar.gz (or .tgz) destination, and the folder its files go in: its name without the suffix. */
const archiveSuffix = /\.(tar\.gz|tgz)$/i;

function apiVersionOf(collection: CollectionName): string {
  const r = apiResources[collection];
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** A ClusterEvent written back as a core/v1 Event that reads back as the same ClusterEvent. */
function eventObject(e: ClusterEvent, index: number): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `event-${index + 1}`, namespace: e.involved.namespace },
    involvedObject: { kind: e.involved.kind, namespace: e.involved.namespace, name: e.involved.name, ...(e.involved.uid ? { uid: e.involved.uid } : {}) },
    type: e.type,
    reason: e.reason,
    message: e.message,
    count: e.count,
    reportingComponent: e.reporter,
    ...(e.time !== undefined ? { lastTimestamp: new Date(e.time).toISOString() } : {}),
  };
}

// A piece of a file is encoded once this many characters are waiting.
const pieceChars = 1 << 20;

/**
 * One file per collection: a List, one object per line, so that a reader can diff two captures.
 * Each object is written as it comes and encoded a megabyte at a time: the pods of a large
 * cluster are 100 MB of JSON and more, which held as one string, then one buffer, then copied
 * into one archive cost the capture most of its time and memory (BENCHMARKS.md, "Live: 5000
 * nodes, 100000 bound pods").
 */
function listFile(items: Iterable<Json>): Buffer[] {
  const pieces: Buffer[] = [];
  let waiting: string[] = ['{"apiVersion":"v1","kind":"List","items":[\n'];
  let chars = 0;
  let first = true;
  for (const item of items) {
    const line = JSON.stringify(item);
    waiting.push(first ? line : `,\n${line}`);
    first = false;
    chars += line.length;
    if (chars >= pieceChars) {
      pieces.push(Buffer.from(waiting.join('')));
      waiting = [];
      chars = 0;
    }
  }
  waiting.push('\n]}\n');
  pieces.push(Buffer.from(waiting.join('')));
  return pieces;
}

function* mapped<T, U>(items: readonly T[], f: (item: T) => U): Iterable<U> {
  for (const item of items) yield f(item);
}

function renameSelection(selection: CaptureSelection, names: Pseudonyms): CaptureSelection {
  const out: CaptureSelection = { ...selection };
  if (selection.namespace !== undefined) out.namespace = names.name('namespace', selection.namespace);
  if (selection.name !== undefined) {
    const query = parseQuery(selection.name);
    out.name = query.kind === 'Pod' ? names.name('pod', query.name) : `${selection.name.slice(0, selection.name.indexOf('/'))}/${names.owner(query.kind, query.name)}`;
  }
  return out;
}

/** A permission's scope (`cluster`, `namespace <name>`) with the namespace renamed. */
function renameScope<P extends { scope: string }>(permission: P, names: Pseudonyms): P {
  const namespace = /^namespace (.*)$/.exec(permission.scope)?.[1];
  return namespace === undefined ? permission : { ...permission, scope: `namespace ${names.name('namespace', namespace)}` };
}

function renameGap(gap: Gap, names: Pseudonyms): Gap {
  if (gap.cause === 'error') return { ...gap, detail: names.text(gap.detail) };
  if (gap.cause === 'forbidden') return { ...gap, permission: renameScope(gap.permission, names) };
  return gap;
}

/** How a collection was read, with the names in it renamed: its namespace, object, node and field selector. */
function renameRecord(record: CollectionRecord, names: Pseudonyms): CollectionRecord {
  const reads = record.reads.map((r) => ({
    ...r,
    ...(r.namespace !== undefined ? { namespace: names.name('namespace', r.namespace) } : {}),
    ...(r.name !== undefined ? { name: names.text(r.name) } : {}),
    ...(r.node !== undefined ? { node: names.name('node', r.node) } : {}),
    ...(r.fieldSelector !== undefined ? { fieldSelector: names.text(r.fieldSelector) } : {}),
  }));
  return {
    ...record,
    reads,
    ...(record.permission ? { permission: renameScope(record.permission, names) } : {}),
    ...(record.error !== undefined ? { error: names.text(record.error) } : {}),
  };
}

/** The capture of `input.snapshot`: its files (relative paths) and its manifest. */
export function captureFiles(input: CaptureInput): CaptureFiles {
  const { snapshot } = input;
  const names = input.redactNames ? new Pseudonyms() : undefined;
  // Nodes first, then pods, then the rest.
  const order = ['nodes', 'pods', ...collectionNames.filter((c) => c !== 'nodes' && c !== 'pods' && c !== 'events')] as Exclude<CollectionName, 'events'>[];
  const redacted = (collection: Exclude<CollectionName, 'events'>) => {
    const kind = apiResources[collection].kind;
    const apiVersion = apiVersionOf(collection);
    return (o: Json): Json => ({ apiVersion, kind, ...redactObject(collection, kind, o) });
  };
  // Each collection's objects, redacted: as they are written, one by one, unless names are
  // replaced (that takes two passes over them all).
  const objects = new Map<CollectionName, Iterable<Json>>();
  for (const collection of order) {
    const items = snapshot.objects[collection] as unknown as Json[];
    objects.set(collection, names ? items.map(redacted(collection)) : mapped(items, redacted(collection)));
  }
  let events = snapshot.objects.events;
  let selection = input.selection;
  if (names) {
    // Twice: the first pass collects the names (on copies), the second renames.
    for (const pass of ['collect', 'rename'] as const) {
      if (pass === 'rename') names.freeze();
      const claims = new Map<string, string>();
      for (const pod of snapshot.objects.pods) for (const [from, to] of ephemeralClaims(pod as unknown as Json, names)) claims.set(from, to);
      selection = renameSelection(input.selection, names);
      for (const collection of order) {
        // Renamed in copies: a redacted object shares its values with the snapshot, which the
        // report of the same run still reads (--save).
        const items = structuredClone((objects.get(collection) ?? []) as Json[]);
        for (const item of items) renameObject(collection, String(item['kind']), item, names, claims);
        if (pass === 'rename') objects.set(collection, items);
      }
      events = snapshot.objects.events.map((e) => ({ ...e, involved: renameInvolved(e.involved, names) }));
      for (const node of snapshot.podsReadOn ?? []) names.name('node', node);
    }
    for (const items of objects.values()) for (const object of items) renameTexts(object, names);
    events = events.map((e) => ({ ...e, message: names.text(e.message) }));
  }
  objects.set('events', events.map(eventObject));

  const gaps = names ? snapshot.gaps.map((g) => renameGap(g, names)) : snapshot.gaps;
  const podsReadOn = snapshot.podsReadOn && names ? snapshot.podsReadOn.map((n) => names.name('node', n)) : snapshot.podsReadOn;
  const collections = describeCollections(snapshot, input.sent, input.lists);
  const files: FileToWrite[] = [];
  for (const collection of collectionNames) {
    const record = names ? renameRecord(collections[collection], names) : collections[collection];
    collections[collection] = record;
    if ((snapshot.objects[collection] as unknown[]).length === 0) continue;
    const file = `${apiResources[collection].plural}.json`;
    record.file = file;
    files.push({ path: file, pieces: listFile(objects.get(collection) ?? []) });
  }
  const manifest: CaptureManifest = {
    apiVersion: captureApiVersion,
    kind: 'Capture',
    tool: { name: 'kubectl-why-pending', version: input.toolVersion },
    source: snapshot.source.kind,
    server: { gitVersion: input.serverVersion },
    capturedAt: input.capturedAt.toISOString(),
    selection,
    redacted: { fields: true, names: names !== undefined },
    collections,
    snapshot: {
      gaps,
      ...(podsReadOn ? { podsReadOn } : {}),
      ...(snapshot.cluster ? { cluster: snapshot.cluster } : {}),
      ...(snapshot.notes && snapshot.notes.length > 0 ? { notes: snapshot.notes } : {}),
    },
  };
  files.unshift({ path: manifestFile, pieces: [Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)] });
  return { files, manifest, selection, ...(names ? { names } : {}) };
}

async function exists(target: string): Promise<'no' | 'emptyDir' | 'yes'> {
  try {
    const info = await stat(target);
    if (info.isDirectory() && (await readdir(target)).length === 0) return 'emptyDir';
    return 'yes';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'no';
    throw error;
  }
}

function describeWriteError(target: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOENT' ? 'its folder does not exist' : code === 'ENOSPC' ? 'no space left on the device' : (error as Error).message;
  return new InputError(`writing capture ${target}: ${why}`);
}

/**
 * Writes the files to `target`: a .tar.gz (or .tgz) holding them in one folder named after
 * it, else a new folder; `-`, a .tar.gz given to `stdout`. An existing file, or a folder that is
 * not empty, is never overwritten. Returns the bytes written.
 */
export async function writeCapture(target: string, files: readonly FileToWrite[], capturedAt: Date, stdout?: (bytes: Buffer) => Promise<void>): Promise<number> {
  if (target === '-') {
    // `-f -`: the .tar.gz on standard output, its files in a folder named `capture`.
    if (!stdout) throw new UsageError('-f -: no standard output to write the capture to');
    const archive = packTarGz(files.map((f) => ({ path: `capture/${f.path}`, pieces: f.pieces })), capturedAt);
    await stdout(archive);
    return archive.length;
  }
  const state = await exists(target);
  if (state === 'yes') throw new UsageError(`${target} already exists: give -f a new path (a capture never overwrites anything)`);
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`);
  try {
    if (archiveSuffix.test(target)) {
      const folder = path.basename(target).replace(archiveSuffix, '');
      const archive = packTarGz(files.map((f) => ({ path: `${folder}/${f.path}`, pieces: f.pieces })), capturedAt);
      await writeFile(temporary, archive, { flag: 'wx' });
      await rename(temporary, target);
      return archive.length;
    }
    await mkdir(temporary);
    for (const file of files) await writeFile(path.join(temporary, file.path), file.pieces, { flag: 'wx' });
    if (state === 'emptyDir') await rmdir(target);
    await rename(temporary, target);
    return files.reduce((sum, f) => sum + sizeOfPieces(f.pieces), 0);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw describeWriteError(target, error);
  }
}
