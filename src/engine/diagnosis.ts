// The diagnosis: the engine's whole answer, and (with English added by the reporter) the
// documented JSON/YAML output. Amounts are bigint in the scheduler's units.
import type { Gap } from '../snapshot/types.js';
import type { ClusterEvent } from '../snapshot/types.js';
import type { ObjectRef } from './events.js';
import type { PluginName } from './plugins.js';
import type { Reason } from './model.js';
import type { PodRequests } from './resources/requests.js';
import type { Agreement } from './agreement.js';

export const stages = [
  'AdmissionRejected',
  'SchedulingGated',
  'NoScheduler',
  'NodeNameSet',
  'Unschedulable',
  'PreemptionPending',
  'ScheduledNotRunning',
  'NotPending',
] as const;

export type Stage = (typeof stages)[number];

export interface ContainerWait {
  container: string;
  init: boolean;
  reason: string;
  message?: string;
}

export type StageDetail =
  | { stage: 'AdmissionRejected'; owner: ObjectRef; failures: ClusterEvent[] }
  | { stage: 'SchedulingGated'; gates: string[] }
  | { stage: 'NoScheduler'; schedulerName: string; schedulerSeenElsewhere: boolean }
  | { stage: 'NodeNameSet'; nodeName: string; nodeExists: boolean | undefined }
  | { stage: 'Unschedulable' }
  | { stage: 'PreemptionPending'; nominatedNodeName: string }
  | {
      stage: 'ScheduledNotRunning';
      nodeName: string;
      nodeExists: boolean | undefined;
      nodeReady: boolean | undefined;
      waiting: ContainerWait[];
      events: ClusterEvent[];
    }
  | { stage: 'NotPending'; phase: string; reason?: string; message?: string };

export interface NodeVerdict {
  name: string;
  fits: boolean;
  /** Non-terminal pods already bound to the node. */
  pods: number;
  /** Every failing reason, in the scheduler's filter order; the first is what the scheduler reports. */
  reasons: Reason[];
  /** Plugins whose input was partly missing (a gap), so a pass there is not proven. */
  unchecked: PluginName[];
}

export interface PodSummary {
  namespace: string;
  name: string;
  uid?: string;
  phase?: string;
  nodeName?: string;
  nominatedNodeName?: string;
  schedulerName: string;
  priority?: number;
  owners: ObjectRef[];
}

export interface Note {
  kind:
    | 'requestExceedsEveryNode'
    | 'resolvedFromOwner'
    | 'otherPendingPods'
    | 'noNodes'
    | 'waitingForScheduler'
    | 'ownerEvents';
  data: Record<string, unknown>;
}

export interface Diagnosis {
  apiVersion: 'whypending/v1';
  kind: 'Diagnosis';
  pod: PodSummary;
  stage: Stage;
  stageDetail: StageDetail;
  /** The pod's effective request and how it was made; absent when no Pod object exists. */
  requests?: PodRequests;
  /** Pod-level failures the scheduler finds before looking at nodes (PreFilter). */
  preFilter: Reason[];
  nodes: NodeVerdict[];
  counts: { nodes: number; fitting: number; byFirstPlugin: Partial<Record<PluginName, number>> };
  scheduler: Agreement;
  ownerEvents: ClusterEvent[];
  notes: Note[];
  gaps: Gap[];
}
