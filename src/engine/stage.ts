// Which one of the stages a pod that exists is in. The order of the checks matters: a bound
// pod is past the scheduler whatever its old events say; gates hold a pod before any
// scheduler sees it; a scheduler that never wrote anything about the pod may not exist. A pod
// the scheduler judged is Unschedulable, or in an autoscaler's stage (WaitingForScaleUp,
// ScaleUpNotPossible) when a node autoscaler's word answers its last failure (story/scaleUp.ts).
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterEvent, Snapshot } from '../snapshot/types.js';
import { boundStory } from './story/bound.js';
import { gangOf, groupUnschedulable, type Gang } from './story/gang.js';
import { deviceBindingStory, type DeviceBindingStory } from './story/deviceBinding.js';
import type { GangPlacement } from './gangReplay.js';
import { nearNodes } from './story/nodeName.js';
import { neverPreempts, preemptionStory } from './story/preemption.js';
import { scaleUpStage } from './story/scaleUp.js';
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
 * How each is recognised is `decideStage` below, whose checks go in this order.
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

const schedulingReasons = ['Scheduled', 'FailedScheduling', 'Preempted', 'NotTriggerScaleUp', 'TriggeredScaleUp', 'Nominated'];

export function decideStage(snapshot: Snapshot, pod: V1Pod, podEvents: ClusterEvent[]): StageDetail {
  const phase = pod.status?.phase ?? 'Pending';
  if (phase !== 'Pending') {
    return { stage: 'NotPending', phase, ...(pod.status?.reason ? { reason: pod.status.reason } : {}), ...(pod.status?.message ? { message: pod.status.message } : {}) };
  }
  const nodeName = pod.spec?.nodeName;
  const schedulerName = pod.spec?.schedulerName || 'default-scheduler';
  if (nodeName) {
    const node = snapshot.objects.nodes.find((n) => n.metadata?.name === nodeName);
    const nodesKnown = snapshot.gaps.every((g) => g.collection !== 'nodes');
    const nodeExists = node ? true : nodesKnown ? false : undefined;
    const boundByScheduler = podEvents.some((e) => e.reason === 'Scheduled') || pod.status?.conditions?.some((c) => c.type === 'PodScheduled');
    if (!boundByScheduler) {
      const near = nodeExists === false ? nearNodes(snapshot.objects.nodes, nodeName) : [];
      return { stage: 'NodeNameSet', nodeName, nodeExists, ...(near.length > 0 ? { nearNodes: near } : {}) };
    }
    const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
    return {
      stage: 'ScheduledNotRunning',
      nodeName,
      nodeExists,
      nodeReady: ready ? ready.status === 'True' : undefined,
      events: podEvents.filter((e) => e.type === 'Warning' || e.reason === 'Pulling'),
      ...boundStory(snapshot, pod, node, podEvents),
    };
  }
  const gates = (pod.spec?.schedulingGates ?? []).map((g) => g.name);
  if (gates.length > 0) return { stage: 'SchedulingGated', gates };
  const gang = gangOf(snapshot, pod);
  if (gang) {
    const condition = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    if (groupUnschedulable(gang, condition?.message)) return { stage: 'GangUnschedulable', ...gang };
    // A gang's pods get no word from the scheduler while they wait: silence is the stage here.
    if (!condition && !pod.status?.nominatedNodeName && !podEvents.some((e) => schedulingReasons.includes(e.reason))) return { stage: 'WaitingForGang', ...gang };
  }
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    // Nominated while its devices are made ready is not preemption: the scheduler chose the node.
    const binding = deviceBindingStory(snapshot, pod, nominated, podEvents);
    if (binding) return { stage: 'WaitingForDeviceBinding', ...binding };
    return { stage: 'PreemptionPending', nominatedNodeName: nominated, ...preemptionStory(snapshot, pod, nominated) };
  }
  const judged =
    podEvents.some((e) => schedulingReasons.includes(e.reason)) ||
    pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
  if (judged) {
    const never = neverPreempts(snapshot, pod);
    const neverField = never ? { neverPreempts: never } : {};
    const scaleUp = scaleUpStage(snapshot, pod, podEvents);
    // The replay's side of the reconciliation is added once the nodes are judged (diagnose.ts).
    const empty = { fitsNow: [], reasons: [], replay: {}, agreeOn: [], autoscalerOnly: [], replayOnly: [] };
    if (scaleUp?.stage === 'ScaleUpNotPossible') return { ...scaleUp, reconciliation: empty, ...neverField };
    if (scaleUp) return { ...scaleUp, ...neverField };
    return { stage: 'Unschedulable', ...neverField };
  }
  const schedulerSeenElsewhere = snapshot.objects.events.some((e) => e.reporter === schedulerName && schedulingReasons.includes(e.reason));
  const eventsCaptured = !snapshot.gaps.some((g) => g.collection === 'events');
  return { stage: 'NoScheduler', schedulerName, schedulerSeenElsewhere, eventsCaptured };
}
