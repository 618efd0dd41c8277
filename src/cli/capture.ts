// --save and `kubectl why-pending capture`: the snapshot a run read, written as a capture
// (sources/capture/write.ts), and the lines that say what was written and how to read it.
import { writeCapture, captureFiles } from '../sources/capture/write.js';
import type { CaptureSelection, ListLike, SentLike } from '../sources/capture/manifest.js';
import type { Source } from '../sources/source.js';
import type { Snapshot } from '../snapshot/types.js';
import { UsageError } from '../errors.js';
import { toolVersion } from '../version.js';

/** What a live source's transports logged: every request, every completed LIST. */
export interface ReadLog {
  sent: SentLike[];
  lists: ListLike[];
}

export interface CaptureTarget {
  /** A new folder, FILE.tar.gz, or `-` for standard output (`stdout`). */
  path: string;
  redactNames: boolean;
  selection: CaptureSelection;
  stdout?: { isTTY: boolean; write: (bytes: Buffer) => Promise<void> };
}

function size(bytes: number): string {
  return bytes < 10_000 ? `${bytes.toLocaleString('en-US')} bytes` : bytes < 10_000_000 ? `${Math.round(bytes / 1000).toLocaleString('en-US')} KB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The command that diagnoses the capture, with the selection as the capture names it. */
function readBack(selection: CaptureSelection, path: string): string {
  const where = selection.allNamespaces ? ['-A'] : selection.namespace !== undefined ? ['-n', selection.namespace] : [];
  const picks = selection.selector !== undefined ? ['-l', `'${selection.selector}'`] : [];
  return ['kubectl why-pending', ...(selection.name !== undefined ? [selection.name] : []), ...where, ...picks, '--from-dump', path].join(' ');
}

/** Writes the capture of `snapshot` to `target.path`; the lines to print. */
export async function saveCapture(target: CaptureTarget, snapshot: Snapshot, source: Source, logs: readonly ReadLog[]): Promise<string[]> {
  if (target.path === '-' && target.stdout?.isTTY) throw new UsageError('-f - writes a .tar.gz to standard output, which is a terminal: redirect it (> case.tar.gz) or give a path');
  const capturedAt = new Date();
  const serverVersion = snapshot.cluster?.version ?? (await source.serverVersion?.()) ?? null;
  const { files, manifest, selection, names } = captureFiles({
    snapshot,
    selection: target.selection,
    toolVersion,
    serverVersion,
    capturedAt,
    sent: logs.flatMap((l) => l.sent),
    lists: logs.flatMap((l) => l.lists),
    redactNames: target.redactNames,
  });
  const bytes = await writeCapture(target.path, files, capturedAt, target.stdout?.write);
  const records = Object.entries(manifest.collections);
  const objects = records.reduce((sum, [, r]) => sum + r.objects, 0);
  const held = records.filter(([, r]) => r.objects > 0).length;
  const refused = records.filter(([, r]) => r.state === 'refused' || r.state === 'failed');
  const requests = logs.reduce((sum, l) => sum + l.sent.length, 0);
  const from = snapshot.source.kind === 'live' ? `from ${requests} request${requests === 1 ? '' : 's'}` : `from ${snapshot.source.description}`;
  const lines = [
    `wrote capture ${target.path === '-' ? 'to standard output' : target.path}: ${objects.toLocaleString('en-US')} objects of ${held} kinds, ${size(bytes)}, ${from}; fields the diagnosis does not read left out${names ? `, ${names.count()} names replaced` : ''}`,
  ];
  for (const [collection, r] of refused) {
    lines.push(r.permission ? `  ${collection}: refused (needs "${r.permission.verb} ${r.permission.resource}" ${r.permission.scope === 'cluster' ? 'at cluster scope' : `in ${r.permission.scope}`}); the capture says so` : `  ${collection}: failed (${r.error ?? 'unknown'}); the capture says so`);
  }
  lines.push(`read it anywhere with: ${readBack(selection, target.path === '-' ? 'FILE' : target.path)}`);
  return lines;
}
