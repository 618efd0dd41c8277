// One side of ".tar.gz capture reading", in a process of its own (measure.ts): every regular
// file of an archive read into memory from a file stream, once, as the CLI reads a capture. `ours` is src/sources/capture/tar.ts's unpackTarGz; `tar` is node-tar's
// entries() over the same stream, each body read with bytes(), an entry that is not a file or a
// folder refused as ours refuses it. Plain node (type stripping): the build's JavaScript and the
// cached library, by path.
//   node tar-child.ts ours|tar ARCHIVE DIST LIBRARIES
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Tar from '../../../src/sources/capture/tar.js';
import type * as ChildStats from './child-stats.js';

// Plain node runs this file (type stripping): a sibling .ts module is loaded by its URL.
const { runSide } = (await import(new URL('./child-stats.ts', import.meta.url).href)) as typeof ChildStats;
const [side, archive, dist, libraries] = process.argv.slice(2);
if (!archive || !dist || !libraries) throw new Error('usage: tar-child.ts ours|tar ARCHIVE DIST LIBRARIES');

interface TarEntry {
  path: string;
  type: string;
  bytes(): Promise<Uint8Array>;
}
type Unpack = () => Promise<{ path: string; bytes: Uint8Array }[]>;

async function load(): Promise<Unpack> {
  if (side === 'ours') {
    const { unpackTarGz } = (await import(pathToFileURL(path.join(dist as string, 'sources/capture/tar.js')).href)) as typeof Tar;
    return () => unpackTarGz(createReadStream(archive as string), archive as string);
  }
  if (side === 'tar') {
    const { entries } = createRequire(libraries as string)('tar') as { entries: (input: AsyncIterable<Uint8Array>) => AsyncIterable<TarEntry> };
    return async () => {
      const files: { path: string; bytes: Uint8Array }[] = [];
      for await (const entry of entries(createReadStream(archive as string))) {
        if (entry.type === 'Directory') continue;
        if (entry.type !== 'File') throw new Error(`${archive}: entry "${entry.path}" is a ${entry.type}; a capture holds plain files only`);
        files.push({ path: entry.path, bytes: await entry.bytes() });
      }
      return files;
    };
  }
  throw new Error(`unknown side ${side}`);
}

await runSide(load, (files) => ({ files: files.map((f) => `${f.path} ${f.bytes.length}`).sort() }));
