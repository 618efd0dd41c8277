// The story of a pod that is bound to a node but not running: when the scheduler placed it,
// whether the node is Ready, whether its kubelet has said anything about the pod since, which
// containers wait and why, and the warnings that explain it. No clock: times are carried as data
// (ms since the epoch) with `asOf`, the newest time in the input, to measure ages against.
import type { V1ContainerStatus, V1NodeCondition, V1Pod } from '@kubernetes/client-node';
import { newestOf, toTime, type ClusterEvent, type NodeRecord, type Snapshot } from '../../snapshot/types.js';
import { groupByReason, type EventGroup } from './events.js';

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

function condition(c: V1NodeCondition): ConditionState {
  const since = toTime(c.lastTransitionTime);
  const heartbeat = toTime(c.lastHeartbeatTime);
  return {
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(heartbeat !== undefined ? { heartbeat } : {}),
  };
}

/** PodScheduled=True's transition (what `kubectl describe` shows as scheduled), else the Scheduled event. */
function scheduledAt(pod: V1Pod, podEvents: readonly ClusterEvent[]): number | undefined {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True');
  const fromCondition = toTime(scheduled?.lastTransitionTime);
  if (fromCondition !== undefined) return fromCondition;
  const event = podEvents.filter((e) => e.reason === 'Scheduled').pop();
  return event?.time;
}

/** Container statuses in the order the kubelet starts them: init containers first, each list in spec order. */
function orderedStatuses(pod: V1Pod): { status: V1ContainerStatus; init: boolean; restartable: boolean }[] {
  const order = (names: string[]) => (s: V1ContainerStatus) => {
    const index = names.indexOf(s.name);
    return index === -1 ? names.length : index;
  };
  const initSpecs = pod.spec?.initContainers ?? [];
  const initNames = initSpecs.map((c) => c.name);
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  const init = [...(pod.status?.initContainerStatuses ?? [])].sort((a, b) => order(initNames)(a) - order(initNames)(b));
  const regular = [...(pod.status?.containerStatuses ?? [])].sort((a, b) => order(names)(a) - order(names)(b));
  const restartable = (name: string) => initSpecs.some((c) => c.name === name && c.restartPolicy === 'Always');
  return [...init.map((status) => ({ status, init: true, restartable: restartable(status.name) })), ...regular.map((status) => ({ status, init: false, restartable: false }))];
}

function lastTermination(status: V1ContainerStatus): ContainerWait['lastTermination'] {
  const t = status.lastState?.terminated;
  if (!t) return undefined;
  const finishedAt = toTime(t.finishedAt);
  return { exitCode: t.exitCode, ...(t.reason ? { reason: t.reason } : {}), ...(t.message ? { message: t.message } : {}), ...(finishedAt !== undefined ? { finishedAt } : {}) };
}

export function containerWaits(pod: V1Pod): ContainerWait[] {
  const waits: ContainerWait[] = [];
  for (const { status, init } of orderedStatuses(pod)) {
    const waiting = status.state?.waiting;
    if (!waiting) continue;
    const last = lastTermination(status);
    waits.push({
      container: status.name,
      init,
      reason: waiting.reason ?? 'Waiting',
      ...(waiting.message ? { message: waiting.message } : {}),
      restartCount: status.restartCount,
      ...(last ? { lastTermination: last } : {}),
    });
  }
  return waits;
}

/**
 * An ordinary init container still running: the kubelet starts the next one, and the pod's
 * containers, only once it exits 0. Sidecars (restartPolicy Always) run on and hold nothing back.
 */
export function initRunning(pod: V1Pod): InitRunning | undefined {
  for (const { status, init, restartable } of orderedStatuses(pod)) {
    if (!init || restartable || !status.state?.running) continue;
    const startedAt = toTime(status.state.running.startedAt);
    return { container: status.name, restartCount: status.restartCount, ...(startedAt !== undefined ? { startedAt } : {}) };
  }
  return undefined;
}

/** The newest time the input holds: what ages are measured against, since the engine has no clock. */
export function newestTime(snapshot: Snapshot, pod: V1Pod, node: NodeRecord | undefined): number | undefined {
  const times: (number | undefined)[] = snapshot.objects.events.map((e) => e.time);
  for (const c of pod.status?.conditions ?? []) times.push(toTime(c.lastTransitionTime), toTime(c.lastProbeTime));
  for (const { status } of orderedStatuses(pod)) {
    times.push(toTime(status.state?.running?.startedAt), toTime(status.state?.terminated?.finishedAt), toTime(status.lastState?.terminated?.finishedAt));
  }
  for (const c of node?.status?.conditions ?? []) times.push(toTime(c.lastHeartbeatTime), toTime(c.lastTransitionTime));
  return newestOf(times);
}

export function boundStory(snapshot: Snapshot, pod: V1Pod, node: NodeRecord | undefined, podEvents: readonly ClusterEvent[]): BoundStory {
  const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
  const scheduled = scheduledAt(pod, podEvents);
  const startTime = toTime(pod.status?.startTime);
  const running = initRunning(pod);
  const asOf = newestTime(snapshot, pod, node);
  return {
    ...(scheduled !== undefined ? { scheduledAt: scheduled } : {}),
    ...(ready ? { nodeReadyCondition: condition(ready) } : {}),
    containerStatusesReported: (pod.status?.initContainerStatuses?.length ?? 0) + (pod.status?.containerStatuses?.length ?? 0) > 0,
    ...(startTime !== undefined ? { kubeletStartTime: startTime } : {}),
    waiting: containerWaits(pod),
    ...(running ? { initRunning: running } : {}),
    warnings: groupByReason(podEvents.filter((e) => e.type === 'Warning')),
    ...(asOf !== undefined ? { asOf } : {}),
  };
}
