// The stages a pod can be stuck in, what the engine does in each (`stageTraits`) and what it
// says of each (`StageDetail`). How each is recognised is a recogniser of stages/, asked in the
// order of stages/index.ts.
import type { ClusterEvent } from '../snapshot/types.js';
import type { Gang } from './story/gang.js';
import type { DeviceBindingStory } from './story/deviceBinding.js';
import type { GangPlacement } from './gangReplay.js';
import type { ObjectRef } from './events.js';
import type { AdmissionStory } from './story/admission.js';
import type { AutoscalerStory } from './story/autoscaler.js';
import type { AutoscalerGroupStatus } from './story/autoscalerStatus.js';
import type { AutoscalerReconciliation } from './story/reconcile.js';
import type { AutoscalerStatusView, ScaleUpRefused, ScaleUpTriggered } from './story/scaleUp.js';
import type { NeverPreempts, PreemptionStory } from './story/preemption.js';
import type { NearNode } from './story/nodeName.js';
import type { BoundStory } from './story/bound.js';

/** Where the pod is stuck, in the order a pod meets them (README, Stages). */
export type Stage =
  | 'AdmissionRejected'
  | 'SchedulingGated'
  | 'WaitingForGang'
  | 'NoScheduler'
  | 'NodeNameSet'
  | 'Unschedulable'
  | 'WaitingForScaleUp'
  | 'ScaleUpNotPossible'
  | 'PreemptionPending'
  | 'WaitingForDeviceBinding'
  | 'GangUnschedulable'
  | 'ScheduledNotRunning'
  | 'NotPending';

/**
 * What the engine does in each stage, one line per stage in the order a pod meets them (the
 * words of each are in messages/stages.ts, in the same order):
 * - `judged`: the filters are replayed on every node (a diagnosis in another stage has no node
 *   verdicts): the scheduler has not placed the pod, or was bypassed (NodeNameSet);
 * - `schedulerJudged`: the scheduler has judged the nodes and said so: its words are compared
 *   with the replay.
 * How each is recognised: stages/ (its own order, the order evidence decides in).
 */
export const stageTraits = {
  AdmissionRejected: { judged: false, schedulerJudged: false },
  SchedulingGated: { judged: true, schedulerJudged: false },
  WaitingForGang: { judged: true, schedulerJudged: false },
  NoScheduler: { judged: true, schedulerJudged: false },
  NodeNameSet: { judged: true, schedulerJudged: false },
  Unschedulable: { judged: true, schedulerJudged: true },
  WaitingForScaleUp: { judged: true, schedulerJudged: true },
  ScaleUpNotPossible: { judged: true, schedulerJudged: true },
  PreemptionPending: { judged: true, schedulerJudged: true },
  WaitingForDeviceBinding: { judged: false, schedulerJudged: false },
  GangUnschedulable: { judged: true, schedulerJudged: true },
  ScheduledNotRunning: { judged: false, schedulerJudged: false },
  NotPending: { judged: false, schedulerJudged: false },
} as const satisfies { readonly [S in Stage]: { judged: boolean; schedulerJudged: boolean } };

const stagesWhere = (trait: 'judged' | 'schedulerJudged'): ReadonlySet<Stage> => new Set((Object.keys(stageTraits) as Stage[]).filter((s) => stageTraits[s][trait]));

/** The stages whose nodes are judged (`stageTraits`). */
export const judgedStages = stagesWhere('judged');

/** The stages whose scheduler's words are compared with the replay (`stageTraits`). */
export const schedulerJudgedStages = stagesWhere('schedulerJudged');

export type StageDetail =
  /** The refusal's arithmetic (quota, LimitRange) beside the events that report it. */
  | ({ stage: 'AdmissionRejected'; owner: ObjectRef; failures: ClusterEvent[] } & AdmissionStory)
  | { stage: 'SchedulingGated'; gates: string[] }
  /** A pod of a gang whose group is incomplete or missing: the scheduler waits and says nothing (story/gang.ts). */
  | ({ stage: 'WaitingForGang' } & Gang)
  /**
   * A pod of a gang the scheduler could not place together. `placement`: the group replayed
   * member after member (gangReplay.ts), once the nodes are judged.
   */
  | ({ stage: 'GangUnschedulable'; placement?: GangPlacement } & Gang)
  /** `eventsCaptured` false: the input has no events, so silence is not evidence either way. */
  | { stage: 'NoScheduler'; schedulerName: string; schedulerSeenElsewhere: boolean; eventsCaptured: boolean }
  /** `nearNodes`: when no node has the name, the nodes whose names nearly are it (story/nodeName.ts). */
  | { stage: 'NodeNameSet'; nodeName: string; nodeExists: boolean | undefined; nearNodes?: NearNode[] }
  /** `neverPreempts`: the pod's preemptionPolicy is Never, so the scheduler will not preempt for it. */
  | {
      stage: 'Unschedulable';
      neverPreempts?: NeverPreempts;
      /**
       * What a node autoscaler (cluster-autoscaler, Karpenter) last said about the pod, when it
       * is older than the scheduler's last failure (so it answered an earlier one).
       */
      autoscaler?: AutoscalerStory;
      autoscalerStatus?: AutoscalerStatusView;
    }
  /**
   * An autoscaler is adding nodes for the pod (story/scaleUp.ts): cluster-autoscaler's node
   * groups (from->to, max) or Karpenter's NodeClaim, since the event's time; confirmed by the
   * event, as new as the scheduler's last failure, or by cluster-autoscaler's status ConfigMap
   * showing a group InProgress, or by Karpenter's NodeClaim still coming up (karpenter/index.ts
   * waitingForClaim). `fitsNow`: existing nodes where the replay finds the pod fits.
   */
  | {
      stage: 'WaitingForScaleUp';
      autoscaler: ScaleUpTriggered;
      confirmedBy: 'event' | 'statusConfigMap' | 'nodeClaim';
      autoscalerStatus?: AutoscalerStatusView;
      fitsNow?: string[];
      neverPreempts?: NeverPreempts;
    }
  /**
   * No new node is coming: the autoscaler's refusal (`noScaleUp`, its reasons), or the scale-up
   * the pod triggered is backed off (`backoff`, the groups with CA's error), with the replay of
   * the existing nodes beside the autoscaler's reasons (`reconciliation`).
   */
  | {
      stage: 'ScaleUpNotPossible';
      cause: 'noScaleUp';
      autoscaler: ScaleUpRefused;
      autoscalerStatus?: AutoscalerStatusView;
      reconciliation: AutoscalerReconciliation;
      neverPreempts?: NeverPreempts;
    }
  | {
      stage: 'ScaleUpNotPossible';
      cause: 'backoff';
      autoscaler: ScaleUpTriggered;
      backedOff: AutoscalerGroupStatus[];
      autoscalerStatus: AutoscalerStatusView;
      reconciliation: AutoscalerReconciliation;
      neverPreempts?: NeverPreempts;
    }
  /** Nominated to a node whose devices wait for binding conditions (story/deviceBinding.ts). */
  | ({ stage: 'WaitingForDeviceBinding' } & DeviceBindingStory)
  /** The nominated node's pods: the victims being waited for, and those preemption cannot touch. */
  | ({ stage: 'PreemptionPending'; nominatedNodeName: string } & PreemptionStory)
  | ({
      stage: 'ScheduledNotRunning';
      nodeName: string;
      nodeExists: boolean | undefined;
      nodeReady: boolean | undefined;
      events: ClusterEvent[];
    } & BoundStory)
  | { stage: 'NotPending'; phase: string; reason?: string; message?: string };
