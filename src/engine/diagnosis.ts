// The diagnosis: the engine's whole answer, and (with English added by the reporter) the
// documented JSON/YAML output. Amounts are bigint in the scheduler's units.
import type { ClusterEvent, Gap, SourceNote } from '../snapshot/types.js';
import type { ObjectRef } from './events.js';
import type { PluginName } from './names.js';
import type { Reason } from './reasons.js';
import type { PodRequestsWithOrigins } from './resources/requests.js';
import type { Agreement } from './agreement.js';
import type { Fix } from './fixes/index.js';
import type { ClusterRelease } from './release.js';
import type { Stage, StageDetail } from './stage.js';
import type { NodeVerdict, NotChecked } from './judge.js';

/** The pod; when no Pod object exists (admission rejected it), only its namespace and owners. */
export interface PodSummary {
  namespace: string;
  name?: string;
  uid?: string;
  phase?: string;
  nodeName?: string;
  nominatedNodeName?: string;
  schedulerName?: string;
  priority?: number;
  owners: ObjectRef[];
}

/** A source note (see SourceNote) as a note of the diagnosis: `data` is the source's note itself, `kind` included. */
type FromSource = { [K in SourceNote['kind']]: { kind: K; data: Extract<SourceNote, { kind: K }> } }[SourceNote['kind']];

/** Something the reader should know beside the verdicts, as data; the reporter words it. */
export type Note =
  /** The query named an owner (`deploy/web`); this is the pod it resolved to. */
  | { kind: 'resolvedFromOwner'; data: { owner: ObjectRef } }
  /** The owner has more pending pods than the one diagnosed (their names). */
  | { kind: 'otherPendingPods'; data: { pods: string[] } }
  /** Every node fails on a request above its whole allocatable: no preemption can help. */
  | { kind: 'requestExceedsEveryNode'; data: Record<string, never> }
  /** The nodes were read and there are none. */
  | { kind: 'noNodes'; data: Record<string, never> }
  | FromSource;

export interface Diagnosis {
  apiVersion: 'whypending/v1';
  kind: 'Diagnosis';
  pod: PodSummary;
  /** The cluster's version, and the release whose rules were replayed (release.ts). */
  cluster: ClusterRelease;
  stage: Stage;
  stageDetail: StageDetail;
  /** The pod's effective request and how it was made; absent when no Pod object exists. */
  requests?: PodRequestsWithOrigins;
  /** Pod-level failures the scheduler finds before looking at nodes (PreFilter). */
  preFilter: Reason[];
  nodes: NodeVerdict[];
  counts: { nodes: number; fitting: number; unproven: number; byFirstPlugin: Partial<Record<PluginName, number>> };
  /** Plugins not checked for this pod, and why; a node they would judge is at best `unproven`. */
  notChecked: NotChecked[];
  scheduler: Agreement;
  ownerEvents: ClusterEvent[];
  notes: Note[];
  gaps: Gap[];
  /** Changes that make the pod fit some node, each confirmed by replaying the filters (fixes/). */
  fixes: Fix[];
  /**
   * Not part of the documented output: nodes whose pods the input lacks where a fix would make
   * the pod fit. A source that reads in stages reads them and the pod is diagnosed again.
   */
  podsToConfirmFixes: string[];
}

/**
 * A diagnosis before its fixes: what a triage keeps of every pending pod, since it shows the
 * fixes of one pod per group and proposing them is most of a diagnosis's cost.
 */
export type Findings = Omit<Diagnosis, 'fixes' | 'podsToConfirmFixes'>;
