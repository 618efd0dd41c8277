// Reading a capture: its manifest says what was read and how, so nothing is guessed from file
// names. The snapshot gets the manifest's gaps (a refused read names its permission), the nodes
// whose pods were read, and the cluster's version, exactly as the live read that wrote it had
// them: the diagnosis from the capture is the live one.
import { InputError } from '../../errors.js';
import { collectionNames, type Collections, type Gap, type Snapshot, type SourceNote } from '../../snapshot/types.js';
import { isObject } from '../object.js';
import { captureApiVersion, manifestFile } from './manifest.js';

const causes = new Set(['absentFromDump', 'onlyTarget', 'forbidden', 'error']);
const known = new Set<string>(collectionNames);

function isGap(value: unknown): value is Gap {
  if (!isObject(value) || typeof value['collection'] !== 'string' || !known.has(value['collection']) || !causes.has(String(value['cause']))) return false;
  if (value['cause'] === 'forbidden') {
    const p = value['permission'];
    return isObject(p) && typeof p['verb'] === 'string' && typeof p['resource'] === 'string' && typeof p['scope'] === 'string';
  }
  return value['cause'] !== 'error' || typeof value['detail'] === 'string';
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Whether a file of a capture is its manifest (at its root, or in the archive's one folder). */
export function isManifestPath(file: string): boolean {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] === manifestFile;
}

/** What the manifest says of the read, checked: one line naming the fault otherwise. */
export function manifestSnapshot(text: string, label: string): Pick<Snapshot, 'gaps' | 'podsReadOn' | 'cluster' | 'notes'> {
  const where = `${label}: ${manifestFile}`;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where}: not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(manifest) || manifest['kind'] !== 'Capture') throw new InputError(`${where}: not a capture manifest (kind is not Capture)`);
  if (manifest['apiVersion'] !== captureApiVersion) {
    throw new InputError(`${where}: apiVersion ${JSON.stringify(manifest['apiVersion'])} is not ${captureApiVersion}; read it with the why-pending release that wrote it (tool.version), or a newer one`);
  }
  const snapshot = manifest['snapshot'];
  if (!isObject(snapshot) || !Array.isArray(snapshot['gaps']) || !snapshot['gaps'].every(isGap)) throw new InputError(`${where}: snapshot.gaps is missing or malformed`);
  const podsReadOn = snapshot['podsReadOn'];
  if (podsReadOn !== undefined && !stringList(podsReadOn)) throw new InputError(`${where}: snapshot.podsReadOn must be a list of node names`);
  const cluster = snapshot['cluster'];
  if (cluster !== undefined && (!isObject(cluster) || (cluster['version'] !== undefined && typeof cluster['version'] !== 'string'))) throw new InputError(`${where}: snapshot.cluster.version must be a string`);
  const notes = snapshot['notes'];
  if (notes !== undefined && !(Array.isArray(notes) && notes.every((n) => isObject(n) && typeof n['kind'] === 'string'))) throw new InputError(`${where}: snapshot.notes must be a list of notes`);
  return {
    gaps: snapshot['gaps'],
    ...(notes !== undefined ? { notes: notes as SourceNote[] } : {}),
    ...(podsReadOn !== undefined ? { podsReadOn } : {}),
    ...(cluster !== undefined ? { cluster: cluster as Snapshot['cluster'] } : {}),
  };
}

/** The snapshot of a capture: its objects, and what its manifest says of how they were read. */
export function captureSnapshot(label: string, objects: Collections, notes: SourceNote[], manifest: Pick<Snapshot, 'gaps' | 'podsReadOn' | 'cluster' | 'notes'>): Snapshot {
  return { source: { kind: 'capture', description: label }, objects, ...manifest, notes: [...(manifest.notes ?? []), ...notes] };
}

