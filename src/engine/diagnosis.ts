// The diagnosis: the engine's whole answer, and (with English added by the reporter) the
// documented JSON/YAML output. Amounts are bigint in the scheduler's units.
import type { ClusterEvent, CollectionName, Gap, SourceNote } from '../snapshot/types.js';
import type { ObjectRef } from './events.js';
import type { PluginName } from './plugins.js';
import type { NodeNotChecked, NotEvaluated, Reason } from './model.js';
import type { NominatedPod } from './nominated.js';
import type { PodRequestsWithOrigins } from './resources/requests.js';
import type { Agreement } from './agreement.js';
import type { AdmissionStory } from './story/admission.js';
import type { AutoscalerStory } from './story/autoscaler.js';
import type { AutoscalerGroupStatus } from './story/autoscalerStatus.js';
import type { AutoscalerReconciliation } from './story/reconcile.js';
import type { AutoscalerStatusView, ScaleUpRefused, ScaleUpTriggered } from './story/scaleUp.js';
import type { NeverPreempts, PreemptionStory } from './story/preemption.js';
import type { NearNode } from './story/nodeName.js';
import type { Fix } from './fixes/index.js';
import type { ClusterRelease } from './release.js';

/** Where the pod is stuck, in the order a pod meets them (README, Stages). */
export type Stage =
  | 'AdmissionRejected'
  | 'SchedulingGated'
  | 'NoScheduler'
  | 'NodeNameSet'
  | 'Unschedulable'
  | 'WaitingForScaleUp'
  | 'ScaleUpNotPossible'
  | 'PreemptionPending'
  | 'ScheduledNotRunning'
  | 'NotPending';

/**
 * Stages in which the engine replays the filters on every node (a diagnosis in another stage
 * has no node verdicts): the scheduler has not placed the pod, or was bypassed (NodeNameSet).
 */
export const judgedStages: ReadonlySet<Stage> = new Set<Stage>(['Unschedulable', 'WaitingForScaleUp', 'ScaleUpNotPossible', 'PreemptionPending', 'NoScheduler', 'SchedulingGated', 'NodeNameSet']);

/** Stages in which the scheduler has judged the nodes (and said so): its words are compared with the replay. */
export const schedulerJudgedStages: ReadonlySet<Stage> = new Set<Stage>(['Unschedulable', 'WaitingForScaleUp', 'ScaleUpNotPossible', 'PreemptionPending']);

export interface ContainerWait {
  container: string;
  init: boolean;
  /** The kubelet's waiting reason (ImagePullBackOff, CreateContainerConfigError, CrashLoopBackOff, ...). */
  reason: string;
  message?: string;
  /** How many times the kubelet restarted it (absent when no status says). */
  restartCount?: number;
  /** How its previous run ended: an init container crash-looping shows its exit code here. */
  lastTermination?: { exitCode: number; reason?: string; message?: string; finishedAt?: number };
}

/** An ordinary init container still running: the next ones and the pod's containers wait for it to exit 0. */
export interface InitRunning {
  container: string;
  restartCount: number;
  startedAt?: number;
}

/** A node condition as data; times in ms since the epoch. */
export interface ConditionState {
  status: string;
  reason?: string;
  message?: string;
  /** lastTransitionTime: since when the status holds. */
  since?: number;
  /** lastHeartbeatTime: when the kubelet last reported it. */
  heartbeat?: number;
}

/** Events of one reason: counts summed, distinct messages newest first. */
export interface EventGroup {
  reason: string;
  /** Normal or Warning, as the newest event of the reason says. */
  type: string;
  count: number;
  /** The newest occurrence, ms since the epoch. */
  time?: number;
  /** Distinct messages, newest first, at most three. */
  messages: string[];
  /** Distinct messages beyond those kept. */
  moreMessages: number;
  reporter: string;
}

/** What happened to a pod since the scheduler bound it (engine/story/bound.ts). */
export interface BoundStory {
  /** When it was bound: PodScheduled=True's lastTransitionTime, else the Scheduled event. */
  scheduledAt?: number;
  /** The node's Ready condition, when the node and the condition are known. */
  nodeReadyCondition?: ConditionState;
  /** Whether the kubelet has reported any container status: none at all means it has not taken the pod up. */
  containerStatusesReported: boolean;
  /** status.startTime: when the kubelet acknowledged the pod. */
  kubeletStartTime?: number;
  /** Waiting containers, init containers first, each list in spec order. */
  waiting: ContainerWait[];
  initRunning?: InitRunning;
  /** The pod's Warning events by reason, newest first. */
  warnings: EventGroup[];
  /** The newest time in the input; ages are measured against it (the engine has no clock). */
  asOf?: number;
}

export type StageDetail =
  /** The refusal's arithmetic (quota, LimitRange) beside the events that report it. */
  | ({ stage: 'AdmissionRejected'; owner: ObjectRef; failures: ClusterEvent[] } & AdmissionStory)
  | { stage: 'SchedulingGated'; gates: string[] }
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

/**
 * `fits`: every filter was checked and passes. `fails`: at least one failure is proven.
 * `unproven`: nothing failed, but some filter could not be checked (a gap in the input, or a
 * feature not modelled), so the node is not called a fit.
 */
export type Verdict = 'fits' | 'fails' | 'unproven';

/** A plugin that was not checked for this pod, and why. */
export type NotChecked =
  | { plugin: PluginName; cause: 'gap'; collections: CollectionName[] }
  | ({ plugin: PluginName; cause: 'notModelled' } & NotEvaluated)
  /** Not decided on these nodes only (an expression or a device feature the replay does not model). */
  | ({ plugin: PluginName; cause: 'notModelledOnNodes'; nodes: string[] } & NodeNotChecked);

export interface NodeVerdict {
  name: string;
  /** True only when the verdict is `fits`. */
  fits: boolean;
  verdict: Verdict;
  /** Non-terminal pods already bound to the node. */
  pods: number;
  /** Every failing reason, in the scheduler's filter order; the first is what the scheduler reports. */
  reasons: Reason[];
  /** Plugins not checked on this node (see Diagnosis.notChecked), so a pass there is not proven. */
  unchecked: PluginName[];
  /**
   * Set when the pods nominated to this node (priority >= the pod's) add a failing reason: the
   * scheduler filters with them added first. `decides`: without them the node would pass.
   */
  nominated?: { pods: NominatedPod[]; decides: boolean };
  /**
   * Found to fit where the scheduler's message says no node does, with nothing in the input dated
   * after its attempt to explain it: `unproven` (unknown), not `fits`.
   */
  disputed?: true;
}

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
