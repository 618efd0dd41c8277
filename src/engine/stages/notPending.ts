// Past Pending (Running, Succeeded, Failed): nothing holds the pod, whatever its old events say.
import type { StageRecogniser } from './recogniser.js';

export const notPending: StageRecogniser<'NotPending'> = {
  stages: ['NotPending'],
  recognise: ({ pod }) => {
    const phase = pod.status?.phase ?? 'Pending';
    if (phase === 'Pending') return undefined;
    return { stage: 'NotPending', phase, ...(pod.status?.reason ? { reason: pod.status.reason } : {}), ...(pod.status?.message ? { message: pod.status.message } : {}) };
  },
};
