// A pod with a node name is past the scheduler whatever its old events say: bound by the
// scheduler (its Scheduled event or PodScheduled condition) and not started yet, or given a
// node by whoever wrote spec.nodeName, the scheduler bypassed (its node may not even exist).
import { boundStory } from '../story/bound.js';
import { nearNodes } from '../story/nodeName.js';
import type { StageRecogniser } from './recogniser.js';

export const bound: StageRecogniser<'NodeNameSet' | 'ScheduledNotRunning'> = {
  stages: ['NodeNameSet', 'ScheduledNotRunning'],
  recognise: ({ snapshot, pod, podEvents }) => {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) return undefined;
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
  },
};
