// Where a snapshot comes from: a dump (sources/dump) or a live cluster (sources/live). The CLI
// picks one; the engine never knows which.
import type { Query } from '../engine/target.js';
import type { Snapshot } from '../snapshot/types.js';

export interface Source {
  /** The namespace a name is looked up in: -n, else the source's default. */
  readonly namespace: string;
  /** Reads what the engine needs to diagnose `query`; `progress` gets short lines on the way. */
  read(query: Query, progress: (line: string) => void): Promise<Snapshot>;
}
