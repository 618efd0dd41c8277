// How a stage is recognised: one recogniser per file of this folder, asked in the order of
// index.ts. Each names the stages it can return, so a test holds them to the stage list.
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterEvent, Snapshot } from '../../snapshot/types.js';
import type { Stage, StageDetail } from '../stage.js';

export interface StageInput {
  snapshot: Snapshot;
  pod: V1Pod;
  /** The events about the pod itself. */
  podEvents: ClusterEvent[];
}

export interface StageRecogniser<S extends Stage> {
  /** The stages `recognise` returns. */
  stages: readonly S[];
  /** The pod's stage when this recogniser's evidence says so; undefined: ask the next. */
  recognise(input: StageInput): Extract<StageDetail, { stage: S }> | undefined;
}

/** A recogniser of any stages, as the ordered list holds them. */
export interface AnyStageRecogniser {
  stages: readonly Stage[];
  recognise(input: StageInput): StageDetail | undefined;
}

/** The reasons of the events a scheduler or a node autoscaler writes about a pod it has judged. */
export const schedulingReasons: readonly string[] = ['Scheduled', 'FailedScheduling', 'Preempted', 'NotTriggerScaleUp', 'TriggeredScaleUp', 'Nominated'];
