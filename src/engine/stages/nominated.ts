// A pod nominated to a node: waiting for victims of its preemption to go, or, when the node's
// devices wait for their binding conditions, for the devices (the scheduler chose the node; this
// is not preemption).
import { deviceBindingStory } from '../story/deviceBinding.js';
import { preemptionStory } from '../story/preemption.js';
import type { StageRecogniser } from './recogniser.js';

export const nominated: StageRecogniser<'WaitingForDeviceBinding' | 'PreemptionPending'> = {
  stages: ['WaitingForDeviceBinding', 'PreemptionPending'],
  recognise: ({ snapshot, pod, podEvents }) => {
    const node = pod.status?.nominatedNodeName;
    if (!node) return undefined;
    const binding = deviceBindingStory(snapshot, pod, node, podEvents);
    if (binding) return { stage: 'WaitingForDeviceBinding', ...binding };
    return { stage: 'PreemptionPending', nominatedNodeName: node, ...preemptionStory(snapshot, pod, node) };
  },
};
