// A pod of a gang (a PodGroup): the scheduler said the group cannot be placed together, or it
// says nothing while the group waits for its members: silence is the stage here.
import { gangOf, groupUnschedulable } from '../story/gang.js';
import { schedulingReasons, type StageRecogniser } from './recogniser.js';

export const gang: StageRecogniser<'GangUnschedulable' | 'WaitingForGang'> = {
  stages: ['GangUnschedulable', 'WaitingForGang'],
  recognise: ({ snapshot, pod, podEvents }) => {
    const found = gangOf(snapshot, pod);
    if (!found) return undefined;
    const condition = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    if (groupUnschedulable(found, condition?.message)) return { stage: 'GangUnschedulable', ...found };
    const silent = !condition && !pod.status?.nominatedNodeName && !podEvents.some((e) => schedulingReasons.includes(e.reason));
    return silent ? { stage: 'WaitingForGang', ...found } : undefined;
  },
};
