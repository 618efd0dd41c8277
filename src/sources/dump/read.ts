// --from-dump: a file, a directory of files (including `kubectl cluster-info dump
// --output-directory`), or `-` for stdin, read into a snapshot.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Gap, Snapshot } from '../../snapshot/types.js';
import { InputError } from '../../errors.js';
import { flatten, sortIntoCollections } from './objects.js';
import { parseDocuments } from './parse.js';

const dumpExtensions = new Set(['.yaml', '.yml', '.json']);

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesIn(full)));
    // cluster-info dump also writes logs.txt per pod: only manifests are read.
    else if (dumpExtensions.has(path.extname(entry.name).toLowerCase())) out.push(full);
  }
  return out;
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function describeFsError(target: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new InputError(`reading dump ${target}: no such file or directory`);
  if (code === 'EACCES') return new InputError(`reading dump ${target}: permission denied`);
  if (code === 'EISDIR') return new InputError(`reading dump ${target}: is a directory`);
  return new InputError(`reading dump ${target}: ${(error as Error).message}`);
}

export async function readDump(target: string, stdin: NodeJS.ReadableStream): Promise<Snapshot> {
  const texts: { label: string; text: string }[] = [];
  if (target === '-') {
    texts.push({ label: '<stdin>', text: await readStdin(stdin) });
  } else {
    let info;
    try {
      info = await stat(target);
    } catch (error) {
      throw describeFsError(target, error);
    }
    const files = info.isDirectory() ? await filesIn(target) : [target];
    if (files.length === 0) throw new InputError(`reading dump ${target}: the directory holds no .yaml, .yml or .json file`);
    for (const file of files) {
      try {
        texts.push({ label: file, text: await readFile(file, 'utf8') });
      } catch (error) {
        throw describeFsError(file, error);
      }
    }
  }
  const located = texts.flatMap(({ label, text }) =>
    parseDocuments(text, label).flatMap((doc, i, all) => flatten(doc, all.length > 1 ? `${label}, document ${i + 1}` : label)),
  );
  if (located.length === 0) throw new InputError(`reading dump ${target}: it holds no Kubernetes objects`);
  const { collections } = sortIntoCollections(located);
  const gaps: Gap[] = [];
  for (const collection of ['nodes', 'events'] as const) {
    if (collections[collection].length === 0) gaps.push({ collection, cause: 'absentFromDump' });
  }
  return { source: { kind: 'dump', description: target === '-' ? 'stdin' : target }, objects: collections, gaps };
}
