// Small drivers for the dump readers' tests: read a text the streaming way (in chunks of the
// given sizes, as a file or a pipe delivers it) or the old way (the whole text parsed at once),
// and say what came out.
import { parseAllDocuments } from 'yaml';
import { JsonReader, JsonSplitter, type JsonPiece } from '../../../src/sources/dump/json-stream.js';
import { flatten, ObjectReader, type Located } from '../../../src/sources/dump/objects.js';
import { YamlReader, YamlSplitter, type YamlPiece } from '../../../src/sources/dump/yaml-stream.js';

export interface Streamed {
  objects: Located[];
  /** List items parsed one by one (0: nothing was split). */
  items: number;
}

/** Cuts bytes into chunks whose sizes cycle through `sizes`. */
export function chunks(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (let k = 0; at < bytes.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length] ?? bytes.length);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

export function streamYaml(text: string, sizes: readonly number[] = [1 << 20], label = 'dump.yaml'): Streamed {
  const objects: Located[] = [];
  const reader = new YamlReader(
    new ObjectReader((found) => objects.push(found)),
    label,
  );
  let items = 0;
  const splitter = new YamlSplitter({
    document: (piece: YamlPiece) => reader.document(piece),
    listStart: (head: YamlPiece) => reader.listStart(head),
    item: (piece: YamlPiece) => {
      items++;
      reader.item(piece);
    },
    listEnd: (head: YamlPiece) => reader.listEnd(head),
  });
  for (const chunk of chunks(Buffer.from(text), sizes)) splitter.push(chunk);
  splitter.end();
  return { objects, items };
}

export function streamJson(text: string, sizes: readonly number[] = [1 << 20], label = 'dump.json'): Streamed {
  const objects: Located[] = [];
  const reader = new JsonReader(
    new ObjectReader((found) => objects.push(found)),
    label,
  );
  let items = 0;
  const splitter = new JsonSplitter(
    {
      value: (piece: JsonPiece) => reader.value(piece),
      listStart: (head: JsonPiece | undefined) => reader.listStart(head),
      item: (piece: JsonPiece) => {
        items++;
        reader.item(piece);
      },
      listEnd: (head: JsonPiece | undefined) => reader.listEnd(head),
    },
    label,
  );
  for (const chunk of chunks(Buffer.from(text), sizes)) splitter.push(chunk);
  splitter.end();
  return { objects, items };
}

/** The objects of a YAML text parsed whole, as the reader did before it streamed. */
export function wholeYaml(text: string): Record<string, unknown>[] {
  return parseAllDocuments(text, { uniqueKeys: false })
    .map((doc) => doc.toJS({ maxAliasCount: 100 }) as unknown)
    .filter((value) => value !== null && value !== undefined)
    // `kubectl version` output is the cluster's version, not an object (sources/dump/objects.ts).
    .filter((value) => !(typeof value === 'object' && value !== null && !('kind' in value) && ('serverVersion' in value || 'clientVersion' in value)))
    .flatMap((value) => flatten(value, 'whole'))
    .map((found) => found.object);
}

/** The objects of one JSON value parsed whole. */
export function wholeJson(text: string): Record<string, unknown>[] {
  return flatten(JSON.parse(text), 'whole').map((found) => found.object);
}
