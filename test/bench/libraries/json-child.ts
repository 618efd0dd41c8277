// One side of "JSON dump streaming", in a process of its own (measure.ts): the items of a
// List dump, each parsed into an object and counted, read from the file in 1 MiB chunks as
// readDump reads it. `ours` is src/sources/dump/json-stream.ts (the splitter, JSON.parse per
// item); `stream-json` is its documented pipeline for one array of a large document: parser,
// pick('items'), streamArray, with only packed values (streamValues: false, its faster mode).
// Plain node (type stripping): the build's JavaScript and the cached library, by path.
//   node json-child.ts ours|stream-json FILE DIST LIBRARIES
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentSink } from '../../../src/sources/dump/objects.js';
import type * as JsonStream from '../../../src/sources/dump/json-stream.js';
import type * as ChildStats from './child-stats.js';

// Plain node runs this file (type stripping): a sibling .ts module is loaded by its URL.
const { runSide } = (await import(new URL('./child-stats.ts', import.meta.url).href)) as typeof ChildStats;
const [side, file, dist, libraries] = process.argv.slice(2);
if (!file || !dist || !libraries) throw new Error('usage: json-child.ts ours|stream-json FILE DIST LIBRARIES');
const chunks = () => createReadStream(file, { highWaterMark: 1 << 20 });

interface StreamJson {
  chain(stages: unknown[]): AsyncIterable<{ key: number; value: unknown }>;
  parser(options: { streamValues: boolean }): unknown;
  pick(options: { filter: string; once: boolean }): unknown;
  streamArray(): unknown;
}

async function load(): Promise<() => Promise<number>> {
  if (side === 'ours') {
    const { JsonReader, JsonSplitter } = (await import(pathToFileURL(path.join(dist as string, 'sources/dump/json-stream.js')).href)) as typeof JsonStream;
    return async () => {
      let items = 0;
      const sink: DocumentSink = { document: () => undefined, listStart: () => undefined, listItem: () => void items++, listEnd: () => undefined };
      const splitter = new JsonSplitter(new JsonReader(sink, file as string), file as string);
      for await (const chunk of chunks()) splitter.push(chunk as Buffer);
      splitter.end();
      return items;
    };
  }
  if (side === 'stream-json') {
    const fromCache = createRequire(libraries as string);
    const lib: StreamJson = {
      chain: (fromCache('stream-chain') as { chain: StreamJson['chain'] }).chain,
      parser: (fromCache('stream-json') as { parser: StreamJson['parser'] }).parser,
      pick: (fromCache('stream-json/filters/pick.js') as { pick: StreamJson['pick'] }).pick,
      streamArray: (fromCache('stream-json/streamers/stream-array.js') as { streamArray: StreamJson['streamArray'] }).streamArray,
    };
    return async () => {
      let items = 0;
      const pipeline = lib.chain([chunks(), lib.parser({ streamValues: false }), lib.pick({ filter: 'items', once: true }), lib.streamArray()]);
      for await (const { value } of pipeline) if (value && typeof value === 'object') items++;
      return items;
    };
  }
  throw new Error(`unknown side ${side}`);
}

await runSide(load, (items) => ({ items }));
