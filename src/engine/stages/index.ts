// The stages a pod that exists can be in, recognised in this order (the first recogniser with
// evidence decides): a pod past Pending, or bound, is past the scheduler whatever its old events
// say; gates hold a pod before any scheduler sees it; a gang's silence is its own; a nomination
// is a preemption or a device binding under way; a pod the scheduler judged is Unschedulable
// or in an autoscaler's stage; a scheduler that never wrote anything may not exist.
// AdmissionRejected is a pod that does not exist: the target's resolver says so (target.ts).
// A new stage: a recogniser here, its traits in stage.ts, its words in messages/stages.ts
// (test/unit/stages.test.ts holds the three to one list).
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterEvent, Snapshot } from '../../snapshot/types.js';
import type { StageDetail } from '../stage.js';
import { bound } from './bound.js';
import { gang } from './gang.js';
import { judged } from './judged.js';
import { noScheduler } from './noScheduler.js';
import { nominated } from './nominated.js';
import { notPending } from './notPending.js';
import type { AnyStageRecogniser } from './recogniser.js';
import { schedulingGated } from './schedulingGated.js';

export const stageRecognisers: readonly AnyStageRecogniser[] = [notPending, bound, schedulingGated, gang, nominated, judged, noScheduler];

export function decideStage(snapshot: Snapshot, pod: V1Pod, podEvents: ClusterEvent[]): StageDetail {
  const input = { snapshot, pod, podEvents };
  for (const recogniser of stageRecognisers) {
    const found = recogniser.recognise(input);
    if (found) return found;
  }
  throw new Error('no stage recognised: noScheduler answers every pod');
}
