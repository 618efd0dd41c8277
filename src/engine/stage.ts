// Which one of the stages a pod that exists is in. The order of the checks matters: a bound
// pod is past the scheduler whatever its old events say; gates hold a pod before any
// scheduler sees it; a scheduler that never wrote anything about the pod may not exist. A pod
// the scheduler judged is Unschedulable, or in an autoscaler's stage (WaitingForScaleUp,
// ScaleUpNotPossible) when a node autoscaler's word answers its last failure (story/scaleUp.ts).
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterEvent, Snapshot } from '../snapshot/types.js';
import type { StageDetail } from './diagnosis.js';
import { boundStory } from './story/bound.js';
import { nearNodes } from './story/nodeName.js';
import { neverPreempts, preemptionStory } from './story/preemption.js';
import { scaleUpStage } from './story/scaleUp.js';

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
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) return { stage: 'PreemptionPending', nominatedNodeName: nominated, ...preemptionStory(snapshot, pod, nominated) };
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
