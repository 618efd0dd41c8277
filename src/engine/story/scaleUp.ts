// Whether a pod the scheduler could not place is waiting for a scale-up, or will get none, from
// what the autoscaler said (its pod events, story/autoscaler.ts) and, for cluster-autoscaler,
// its status ConfigMap (story/autoscalerStatus.ts). The rules, and why:
// - An autoscaler answers a scheduling failure: cluster-autoscaler acts on pods the scheduler
//   marked unschedulable (PodScheduled=False/Unschedulable, its unschedulable pod lister), and
//   Karpenter on pods the scheduler failed. So a verdict counts only when it is as new as the
//   scheduler's last FailedScheduling (or the condition's transition): an older one answered an
//   earlier failure, maybe on other nodes, and is told as history in the Unschedulable stage.
// - The newest verdict wins (autoscalerStory): a TriggeredScaleUp followed by a
//   NotTriggerScaleUp is no longer a wait.
// - cluster-autoscaler writes TriggeredScaleUp once, when it scales up; while the nodes come up it
//   counts the pod as helped by the upcoming nodes and writes nothing more for it, while the
//   scheduler keeps failing the pod. Its status ConfigMap then tells: a group it scales up that
//   is InProgress in a status written after the scheduler's last failure confirms the wait; a
//   group in Backoff (a failed scale-up: clusterstate.go buildScaleUpStatusNodeGroup, with the
//   cloud provider's errorCode and errorMessage since CA 1.30) or Unhealthy is a scale-up that
//   is not coming. A status older than the TriggeredScaleUp says nothing about it.
import type { V1Pod } from '@kubernetes/client-node';
import { isGap, newestOf, toTime, type ClusterEvent, type Snapshot } from '../../snapshot/types.js';
import { apiResources } from '../../snapshot/types.js';
import { autoscalerStory, isAutoscalerEvent, type AutoscalerStory } from './autoscaler.js';
import { parseAutoscalerStatus, type AutoscalerGroupStatus } from './autoscalerStatus.js';

export type ScaleUpTriggered = Extract<AutoscalerStory, { state: 'scaleUpTriggered' }>;
export type ScaleUpRefused = Extract<AutoscalerStory, { state: 'scaleUpNotPossible' }>;

/** What cluster-autoscaler's status ConfigMap says that bears on this pod. */
export type AutoscalerStatusView =
  /** Read and not there: CA writes none (--write-status-configmap=false), or runs with another name or namespace. */
  | { configMap: { namespace: string; name: string }; read: 'absent' }
  /** There, but its `status` is in neither format CA has written. */
  | { configMap: { namespace: string; name: string }; read: 'unreadable' }
  | {
      configMap: { namespace: string; name: string };
      read: 'found';
      format: 'yaml' | 'text';
      /** When CA wrote it. */
      time?: number;
      /** Running | Initializing. */
      autoscalerStatus?: string;
      /** Healthy | Unhealthy: an unhealthy cluster gets no scale-up at all. */
      clusterHealth?: string;
      clusterHealthSince?: number;
      /** The node groups the TriggeredScaleUp names, or every group backed off or unhealthy. */
      groups: AutoscalerGroupStatus[];
    };

export type ScaleUpStage =
  | { stage: 'WaitingForScaleUp'; autoscaler: ScaleUpTriggered; confirmedBy: 'event' | 'statusConfigMap' | 'nodeClaim'; autoscalerStatus?: AutoscalerStatusView }
  | { stage: 'ScaleUpNotPossible'; cause: 'noScaleUp'; autoscaler: ScaleUpRefused; autoscalerStatus?: AutoscalerStatusView }
  /** The scale-up the pod triggered failed: every group it named is backed off (or unhealthy) now. */
  | { stage: 'ScaleUpNotPossible'; cause: 'backoff'; autoscaler: ScaleUpTriggered; backedOff: AutoscalerGroupStatus[]; autoscalerStatus: AutoscalerStatusView }
  /** An autoscaler spoke, but about an earlier failure than the scheduler's last. */
  | { stage: 'Unschedulable'; autoscaler: AutoscalerStory; autoscalerStatus?: AutoscalerStatusView };

/** The scheduler's own last failure of the pod: its newest FailedScheduling, or the condition's transition. */
function lastSchedulerFailure(pod: V1Pod, podEvents: readonly ClusterEvent[]): number | undefined {
  const condition = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  const failures = podEvents.filter((e) => e.reason === 'FailedScheduling' && !isAutoscalerEvent(e)).map((e) => e.time);
  return newestOf([...failures, toTime(condition?.lastTransitionTime as Date | string | undefined)]);
}

const backedOff = (g: AutoscalerGroupStatus) => g.scaleUp === 'Backoff' || g.scaleUp === 'Unhealthy';

function statusView(snapshot: Snapshot, story: AutoscalerStory): AutoscalerStatusView | undefined {
  if (story.autoscaler !== 'cluster-autoscaler' || isGap(snapshot, 'clusterAutoscalerStatus')) return undefined;
  const only = apiResources.clusterAutoscalerStatus.only ?? { namespace: 'kube-system', name: 'cluster-autoscaler-status' };
  const configMap = { namespace: only.namespace, name: only.name };
  const object = snapshot.objects.clusterAutoscalerStatus.find((c) => c.metadata?.name === only.name && (c.metadata?.namespace ?? 'default') === only.namespace);
  if (!object) return { configMap, read: 'absent' };
  const status = parseAutoscalerStatus(object.data?.['status']);
  if (!status) return { configMap, read: 'unreadable' };
  const named = story.state === 'scaleUpTriggered' && 'groups' in story ? new Set(story.groups.map((g) => g.group)) : undefined;
  const groups = status.nodeGroups.filter((g) => (named ? named.has(g.name) : backedOff(g)));
  return {
    configMap,
    read: 'found',
    format: status.format,
    ...(status.time !== undefined ? { time: status.time } : {}),
    ...(status.autoscalerStatus ? { autoscalerStatus: status.autoscalerStatus } : {}),
    ...(status.clusterHealth ? { clusterHealth: status.clusterHealth } : {}),
    ...(status.clusterHealthSince !== undefined ? { clusterHealthSince: status.clusterHealthSince } : {}),
    groups,
  };
}

/** The autoscaler's stage for a pod the scheduler judged; undefined when no autoscaler spoke. */
export function scaleUpStage(snapshot: Snapshot, pod: V1Pod, podEvents: readonly ClusterEvent[]): ScaleUpStage | undefined {
  const story = autoscalerStory(podEvents);
  if (!story) return undefined;
  const view = statusView(snapshot, story);
  const withView = view ? { autoscalerStatus: view } : {};
  const lastFailure = lastSchedulerFailure(pod, podEvents);
  const answers = (t: number | undefined) => lastFailure === undefined || (t !== undefined && t >= lastFailure);
  if (story.state === 'scaleUpNotPossible') {
    return answers(story.since) ? { stage: 'ScaleUpNotPossible', cause: 'noScaleUp', autoscaler: story, ...withView } : { stage: 'Unschedulable', autoscaler: story, ...withView };
  }
  // A status written before the scale-up knows nothing of it.
  const status = view?.read === 'found' && (view.time === undefined || story.since === undefined || view.time >= story.since) ? view : undefined;
  if (status && status.groups.length > 0) {
    const failed = status.groups.filter(backedOff);
    if (failed.length === status.groups.length) return { stage: 'ScaleUpNotPossible', cause: 'backoff', autoscaler: story, backedOff: failed, autoscalerStatus: status };
    if (status.groups.some((g) => g.scaleUp === 'InProgress') && answers(status.time)) return { stage: 'WaitingForScaleUp', autoscaler: story, confirmedBy: 'statusConfigMap', autoscalerStatus: status };
  }
  return answers(story.since) ? { stage: 'WaitingForScaleUp', autoscaler: story, confirmedBy: 'event', ...withView } : { stage: 'Unschedulable', autoscaler: story, ...withView };
}
