// A pod the scheduler judged and found no node for: Unschedulable, or in an autoscaler's stage
// (WaitingForScaleUp, ScaleUpNotPossible) when a node autoscaler's word answers its last
// failure (story/scaleUp.ts). The replay's side of an autoscaler's reconciliation is added once
// the nodes are judged (diagnose.ts).
import { neverPreempts } from '../story/preemption.js';
import { scaleUpStage } from '../story/scaleUp.js';
import { schedulingReasons, type StageRecogniser } from './recogniser.js';

export const judged: StageRecogniser<'Unschedulable' | 'WaitingForScaleUp' | 'ScaleUpNotPossible'> = {
  stages: ['Unschedulable', 'WaitingForScaleUp', 'ScaleUpNotPossible'],
  recognise: ({ snapshot, pod, podEvents }) => {
    const said =
      podEvents.some((e) => schedulingReasons.includes(e.reason)) ||
      pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
    if (!said) return undefined;
    const never = neverPreempts(snapshot, pod);
    const neverField = never ? { neverPreempts: never } : {};
    const scaleUp = scaleUpStage(snapshot, pod, podEvents);
    const empty = { fitsNow: [], reasons: [], replay: {}, agreeOn: [], autoscalerOnly: [], replayOnly: [] };
    if (scaleUp?.stage === 'ScaleUpNotPossible') return { ...scaleUp, reconciliation: empty, ...neverField };
    if (scaleUp) return { ...scaleUp, ...neverField };
    return { stage: 'Unschedulable', ...neverField };
  },
};
