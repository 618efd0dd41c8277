// What a node autoscaler said about the pod, from its events: whether new nodes are on the way
// for it (then the pod is waiting for a scale-up, not stuck) or none will come (and why). The
// newest such event wins: an autoscaler writes one each time it looks at the pod.
//
// Formats, from the autoscalers' sources (the fixtures in test/unit/story/autoscaler.test.ts
// quote them):
// - cluster-autoscaler, kubernetes/autoscaler cluster-autoscaler/processors/status/
//   eventing_scale_up_processor.go (commit 16c271a3078a6f808270c4823207f97db9538437):
//   TriggeredScaleUp "pod triggered scale-up: %v" of ScaleUpInfos, each "{%v %v->%v (max: %v)}"
//   (group id, current size, new size, max size; processors/nodegroupset/
//   nodegroup_set_processor.go), e.g. `pod triggered scale-up: [{ng-1 1->3 (max: 10)}]`;
//   NotTriggerScaleUp "pod didn't trigger scale-up: %s", the reasons "%d %s" joined by ", "
//   (count of node groups per reason, in map order), or "max total nodes in cluster reached";
//   releases before 1.22 wrote "pod didn't trigger scale-up (it wouldn't fit if a new node is
//   added): %s".
// - Karpenter, kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/events.go
//   (karpenter.sh/v1, commit 5d71a5829459bd3486e43114906f544f1f30f597, unchanged at v1.15.0):
//   Nominated "Pod should schedule on: nodeclaim/%s[, node/%s]"; FailedScheduling "Failed to
//   schedule pod, %s" (the error: per NodePool, joined by "; "; before v1.x each began
//   "incompatible with nodepool \"x\", ...", at v1.15.0 they name no NodePool but for limits:
//   "did not tolerate taint (taint=k=v:Effect)", "incompatible requirements, ...";
//   engine/karpenter/ reconciles them with its replay of each NodePool).
import type { ClusterEvent } from '../../snapshot/types.js';
import type { KarpenterReconciliation, NodeClaimProgress } from '../karpenter/claims.js';
import type { NodePoolCheck } from '../karpenter/nodepool.js';

export interface ScaleUpGroup {
  group: string;
  from: number;
  to: number;
  max: number;
}

export type AutoscalerStory =
  /** New nodes are coming for the pod: it waits for them. `since`: the event's time. */
  | { autoscaler: 'cluster-autoscaler'; state: 'scaleUpTriggered'; groups: ScaleUpGroup[]; since?: number; message: string }
  /** `claim`: the NodeClaim named, as the input has it (engine/karpenter). */
  | { autoscaler: 'karpenter'; state: 'scaleUpTriggered'; nodeClaim?: string; node?: string; since?: number; message: string; claim?: NodeClaimProgress }
  /**
   * The autoscaler looked and will add no node for it: its reasons, as it wrote them. Karpenter's
   * only, when its NodePools were read: each judged by our own replay, and how that squares with
   * its reasons (engine/karpenter).
   */
  | {
      autoscaler: 'cluster-autoscaler' | 'karpenter';
      state: 'scaleUpNotPossible';
      reasons: { count?: number; reason: string }[];
      since?: number;
      message: string;
      nodePools?: NodePoolCheck[];
      reconciliation?: KarpenterReconciliation;
    };

const triggered = /^pod triggered scale-up: \[(.*)\]$/s;
const infoPattern = /\{(\S+) (\d+)->(\d+) \(max: (\d+)\)\}/g;
const notTriggered = /^pod didn't trigger scale-up(?: \(it wouldn't fit if a new node is added\))?:?\s*(.*)$/s;
const nominated = /^Pod should schedule on: (.*)$/s;
const karpenterFailed = /^Failed to schedule pod, (.*)$/s;

function caReasons(text: string): { count?: number; reason: string }[] {
  if (text.trim() === '') return [];
  // "%d %s" joined by ", ": split before each ", <count> " so a reason holding a comma stays whole.
  return text.split(/, (?=\d+ )/).map((part) => {
    const m = /^(\d+) (.*)$/s.exec(part.trim());
    return m ? { count: Number(m[1]), reason: m[2] ?? '' } : { reason: part.trim() };
  });
}

function storyOf(e: ClusterEvent): AutoscalerStory | undefined {
  const since = e.time !== undefined ? { since: e.time } : {};
  if (e.reason === 'TriggeredScaleUp') {
    const m = triggered.exec(e.message);
    if (!m) return undefined;
    const groups = [...(m[1] ?? '').matchAll(infoPattern)].map((g) => ({ group: g[1] ?? '', from: Number(g[2]), to: Number(g[3]), max: Number(g[4]) }));
    return { autoscaler: 'cluster-autoscaler', state: 'scaleUpTriggered', groups, ...since, message: e.message };
  }
  if (e.reason === 'NotTriggerScaleUp') {
    const m = notTriggered.exec(e.message);
    if (!m) return undefined;
    return { autoscaler: 'cluster-autoscaler', state: 'scaleUpNotPossible', reasons: caReasons(m[1] ?? ''), ...since, message: e.message };
  }
  if (e.reason === 'Nominated') {
    const m = nominated.exec(e.message);
    if (!m) return undefined;
    const parts = (m[1] ?? '').split(', ');
    const nodeClaim = parts.find((p) => p.startsWith('nodeclaim/'))?.slice('nodeclaim/'.length);
    const node = parts.find((p) => p.startsWith('node/'))?.slice('node/'.length);
    return { autoscaler: 'karpenter', state: 'scaleUpTriggered', ...(nodeClaim ? { nodeClaim } : {}), ...(node ? { node } : {}), ...since, message: e.message };
  }
  if (e.reason === 'FailedScheduling') {
    const m = karpenterFailed.exec(e.message);
    if (!m) return undefined;
    return { autoscaler: 'karpenter', state: 'scaleUpNotPossible', reasons: (m[1] ?? '').split('; ').map((reason) => ({ reason })), ...since, message: e.message };
  }
  return undefined;
}

/** Whether an autoscaler wrote the event (Karpenter's FailedScheduling shares the scheduler's reason). */
export function isAutoscalerEvent(e: ClusterEvent): boolean {
  return storyOf(e) !== undefined;
}

/** Whether cluster-autoscaler wrote the event (its status ConfigMap is then worth reading). */
export function isClusterAutoscalerEvent(e: ClusterEvent): boolean {
  return storyOf(e)?.autoscaler === 'cluster-autoscaler';
}

/** Whether Karpenter wrote the event (its NodePools and NodeClaims are then worth reading). */
export function isKarpenterEvent(e: ClusterEvent): boolean {
  return storyOf(e)?.autoscaler === 'karpenter';
}

/** The newest thing an autoscaler said about the pod, from its events; undefined when none did. */
export function autoscalerStory(podEvents: readonly ClusterEvent[]): AutoscalerStory | undefined {
  let newest: AutoscalerStory | undefined;
  for (const e of podEvents) {
    const story = storyOf(e);
    if (story && (newest === undefined || (story.since ?? 0) >= (newest.since ?? 0))) newest = story;
  }
  return newest;
}
