// Scheduling gates hold a pod before any scheduler sees it.
import type { StageRecogniser } from './recogniser.js';

export const schedulingGated: StageRecogniser<'SchedulingGated'> = {
  stages: ['SchedulingGated'],
  recognise: ({ pod }) => {
    const gates = (pod.spec?.schedulingGates ?? []).map((g) => g.name);
    return gates.length > 0 ? { stage: 'SchedulingGated', gates } : undefined;
  },
};
