// Where a snapshot comes from: a dump (sources/dump) or a live cluster (sources/live). The CLI
// picks one; the engine never knows which.
import type { V1Pod } from '@kubernetes/client-node';
import type { Query } from '../engine/target.js';
import type { TriageScope } from '../engine/triage.js';
import type { Snapshot } from '../snapshot/types.js';
import type { WatchTarget, Watcher } from './live/watch.js';

export interface Source {
  /** The namespace a name is looked up in: -n, else the source's default. */
  readonly namespace: string;
  /** Reads what the engine needs to diagnose `query`; `progress` gets short lines on the way. */
  read(query: Query, progress: (line: string) => void): Promise<Snapshot>;
  /**
   * A source that reads in stages (live) can add the pods of nodes its first read skipped, when
   * a fix replayed there needs them (Diagnosis.podsToConfirmFixes). A dump holds all it has.
   */
  /** Reads, once for all, what diagnosing every pending pod of `scope` needs (a triage). */
  readTriage(scope: TriageScope, progress: (line: string) => void): Promise<Snapshot>;
  /** A live source can wait for a change (WATCH requests); a dump never changes. */
  watcher?(target: WatchTarget): Watcher;
  readPodsOn?(earlier: Snapshot, target: V1Pod, nodes: readonly string[], progress: (line: string) => void): Promise<Snapshot>;
  /** A live source: the API server's gitVersion (`/version`), for a capture's manifest; undefined when it cannot be read. */
  serverVersion?(): Promise<string | undefined>;
}
