// Pending, unbound, ungated, and no scheduler has said a word about the pod: the scheduler it
// names may not exist. Asked last: it always answers. Whether that scheduler wrote anything
// anywhere, and whether events were read at all (silence is no evidence without them).
import type { StageRecogniser } from './recogniser.js';
import { schedulingReasons } from './recogniser.js';

export const noScheduler: StageRecogniser<'NoScheduler'> = {
  stages: ['NoScheduler'],
  recognise: ({ snapshot, pod }) => {
    const schedulerName = pod.spec?.schedulerName || 'default-scheduler';
    const schedulerSeenElsewhere = snapshot.objects.events.some((e) => e.reporter === schedulerName && schedulingReasons.includes(e.reason));
    const eventsCaptured = !snapshot.gaps.some((g) => g.collection === 'events');
    return { stage: 'NoScheduler', schedulerName, schedulerSeenElsewhere, eventsCaptured };
  },
};
