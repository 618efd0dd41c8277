// What Karpenter's objects add to what its events said (story/autoscaler.ts):
// - Nominated to a NodeClaim: that NodeClaim, its NodePool, and how far its launch has come
//   (Launched, Registered, Initialized, Ready: pkg/apis/v1/nodeclaim_status.go; the reasons from
//   pkg/controllers/nodeclaim/lifecycle/, e.g. Launched Unknown "LaunchFailed" while the cloud
//   provider refuses, Registered Unknown "NodeNotFound" until the node joins);
// - FailedScheduling: every NodePool judged by our own replay (nodepool.ts), reconciled with the
//   reasons Karpenter gave. Since v1.x the per-NodePool errors of
//   pkg/controllers/provisioning/scheduling/scheduler.go addToNewNodeClaim are joined by "; "
//   (multierr) and name the NodePool only for limits ("... (NodePool=x)"); a taint is named as
//   "did not tolerate taint (taint=key=value:Effect)" (pkg/scheduling/taints.go, serrors.Wrap
//   writing its values in parentheses); releases before wrote `incompatible with nodepool "x", ...`.
// All at sigs.k8s.io/karpenter v1.15.0.
import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import { isGap, newestOf, toTime } from '../../snapshot/types.js';
import type { StageDetail } from '../stage.js';
import { formatTaint } from '../match/tolerations.js';
import type { AutoscalerStory } from '../story/autoscaler.js';
import { checkNodePools, conditionState, type NodePoolCheck } from './nodepool.js';

export type { KarpenterConditionState, NodePoolCheck, NodePoolProblem } from './nodepool.js';
export type { KarpenterReconciliation, NodeClaimProgress } from './claims.js';
import { nodeClaimSteps, type KarpenterReconciliation, type NodeClaimProgress } from './claims.js';

// operatorpkg's first reason for a condition nobody has set yet: not a launch failure.
const notYet = new Set(['AwaitingReconciliation', '']);

function progress(snapshot: Snapshot, name: string, asOf: number | undefined): NodeClaimProgress {
  const claim = snapshot.objects.nodeClaims.find((c) => c.metadata?.name === name);
  const base = { name, ...(asOf !== undefined ? { asOf } : {}) };
  if (!claim) return { ...base, found: false, conditions: [] };
  const all = claim.status?.conditions ?? [];
  const conditions = nodeClaimSteps.flatMap((step) => {
    const c = all.find((x) => x.type === step);
    return c ? [conditionState(c)] : [];
  });
  const waitingFor = nodeClaimSteps.find((step) => conditions.find((c) => c.type === step)?.status !== 'True');
  const launched = conditions.find((c) => c.type === 'Launched');
  const failing = launched && launched.status !== 'True' && !notYet.has(launched.reason ?? '') ? launched : undefined;
  const nodePool = claim.metadata?.labels?.['karpenter.sh/nodepool'];
  const createdAt = toTime(claim.metadata?.creationTimestamp);
  return {
    ...base,
    found: true,
    ...(nodePool ? { nodePool } : {}),
    ...(createdAt !== undefined ? { createdAt } : {}),
    ...(claim.status?.nodeName ? { nodeName: claim.status.nodeName } : {}),
    conditions,
    ...(waitingFor ? { waitingFor } : {}),
    ...(failing ? { launchFailing: failing } : {}),
  };
}

const taintNamed = /did not tolerate taint \(taint=(.+?)\)/g;
const limitNamed = /(?:node limits have been exhausted|all available instance types exceed limits) for nodepool(?: \(NodePool=([^)]+)\)| "([^"]+)")/g;

function reconcile(reasons: readonly string[], checks: readonly NodePoolCheck[]): KarpenterReconciliation {
  const text = reasons.join('; ');
  const unexplained: string[] = [];
  for (const m of text.matchAll(taintNamed)) {
    const taint = m[1] ?? '';
    const found = checks.some((c) => c.problems.some((p) => p.kind === 'untoleratedTaint' && formatTaint(p.taint) === taint));
    if (!found && !unexplained.includes(`taint ${taint}`)) unexplained.push(`taint ${taint}`);
  }
  for (const m of text.matchAll(limitNamed)) {
    const pool = m[1] ?? m[2] ?? '';
    const found = checks.some((c) => c.nodePool === pool && c.problems.some((p) => p.kind === 'limitReached'));
    if (!found && !unexplained.includes(`limits of NodePool ${pool}`)) unexplained.push(`limits of NodePool ${pool}`);
  }
  const fittingNodePools = checks.filter((c) => c.fits).map((c) => c.nodePool);
  return { agrees: fittingNodePools.length === 0 && unexplained.length === 0, fittingNodePools, unexplained };
}

/** The newest time in the input: events, and the Karpenter objects' conditions. */
function newestTime(snapshot: Snapshot): number | undefined {
  const times: (number | undefined)[] = snapshot.objects.events.map((e) => e.time);
  for (const o of [...snapshot.objects.nodeClaims, ...snapshot.objects.nodePools]) {
    for (const c of o.status?.conditions ?? []) times.push(toTime(c.lastTransitionTime));
  }
  return newestOf(times);
}

/** Karpenter's story with what its objects tell; other autoscalers' as they are. */
// Generic so that a stage's narrower story (a scale-up on its way, a refusal) keeps its type.
function withKarpenterObjects<S extends AutoscalerStory>(snapshot: Snapshot, pod: V1Pod, story: S): S {
  const s: AutoscalerStory = story;
  if (s.autoscaler !== 'karpenter') return story;
  if (s.state === 'scaleUpTriggered') {
    // Unread NodeClaims (a dump without them, a refused read) say nothing about this one.
    if (!s.nodeClaim || isGap(snapshot, 'nodeClaims')) return story;
    return { ...story, claim: progress(snapshot, s.nodeClaim, newestTime(snapshot)) };
  }
  if (snapshot.objects.nodePools.length === 0) return story;
  const nodePools = checkNodePools(snapshot.objects.nodePools, pod);
  return { ...story, nodePools, reconciliation: reconcile(s.reasons.map((r) => r.reason), nodePools) };
}

/** The stage detail with Karpenter's objects added to its autoscaler story, whatever the stage. */
export function withKarpenter(snapshot: Snapshot, pod: V1Pod, detail: StageDetail): StageDetail {
  if (!('autoscaler' in detail) || detail.autoscaler?.autoscaler !== 'karpenter') return detail;
  // The story keeps its state (withKarpenterObjects adds fields only), so it stays the stage's own kind.
  const enriched = { ...detail, autoscaler: withKarpenterObjects(snapshot, pod, detail.autoscaler) } as StageDetail;
  return waitingForClaim(enriched) ?? enriched;
}

/**
 * The pod is still waiting when the scheduler failed it after Karpenter's nomination but the
 * NodeClaim is still coming up: Karpenter's node registers tainted karpenter.sh/unregistered
 * (NoExecute) and stays unready until initialized, so the scheduler fails the pod on it (and
 * says so) until then, while Karpenter keeps the pod for that NodeClaim. A claim that is Ready,
 * gone, or failing its launch ends the wait.
 */
function waitingForClaim(detail: StageDetail): StageDetail | undefined {
  if (detail.stage !== 'Unschedulable' || detail.autoscaler?.autoscaler !== 'karpenter' || detail.autoscaler.state !== 'scaleUpTriggered') return undefined;
  const story = detail.autoscaler;
  const claim = story.claim;
  if (!claim?.found || !claim.waitingFor || claim.launchFailing) return undefined;
  return {
    stage: 'WaitingForScaleUp',
    autoscaler: story,
    confirmedBy: 'nodeClaim',
    ...(detail.neverPreempts ? { neverPreempts: detail.neverPreempts } : {}),
    ...(detail.autoscalerStatus ? { autoscalerStatus: detail.autoscalerStatus } : {}),
  };
}

/** The collections a Karpenter story reads: a dump without them leaves the story short. */
export function karpenterCollections(detail: StageDetail): ('nodePools' | 'nodeClaims')[] {
  if (!('autoscaler' in detail) || detail.autoscaler?.autoscaler !== 'karpenter') return [];
  return detail.autoscaler.state === 'scaleUpTriggered' ? ['nodeClaims'] : ['nodePools'];
}
