// Would a new node of this NodePool take the pod? Our own replay of what Karpenter checks for a
// NodePool before it launches a node for a pod (sigs.k8s.io/karpenter v1.15.0):
// - readiness: a NodePool whose Ready condition is not True is left out of scheduling
//   (pkg/controllers/provisioning/provisioner.go lists only ready NodePools; its conditions are
//   ValidationSucceeded, NodeClassReady, NodeRegistrationHealthy, pkg/apis/v1/nodepool_status.go);
// - limits: spec.limits against status.resources; a limit already reached, or too close for
//   the pod's own request, leaves no instance type (scheduler.go addToNewNodeClaim,
//   "all available instance types exceed limits for nodepool");
// - taints: every taint of spec.template.spec.taints must be tolerated, whatever its effect
//   (pkg/scheduling/taints.go Taints.ToleratesPod, called from NodeClaim.CanAdd);
//   spec.template.spec.startupTaints are not checked: they are expected to go away once the
//   node is up;
// - requirements: requirements.ts.
// Instance types, offerings and daemonset overhead are the cloud provider's and are not in the
// input: a NodePool that passes all of these may still be refused for them.
import type { V1Pod, V1Taint } from '@kubernetes/client-node';
import type { KarpenterCondition, KarpenterNodePool } from '../../snapshot/types.js';
import { toTime } from '../../snapshot/types.js';
import { tolerates } from '../match/tolerations.js';
import { formatResource } from '../quantity/format.js';
import { amountOf } from '../resources/amounts.js';
import { podRequestTotal } from '../resources/requests.js';
import { nearestToleration, type NearestToleration } from '../match/nearestToleration.js';
import { requirementMismatches, type RequirementMismatch } from './requirements.js';
import { byText } from '../order.js';

/** A Karpenter status condition as data; `since` is lastTransitionTime in ms since the epoch. */
export interface KarpenterConditionState {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  since?: number;
}

export type NodePoolProblem =
  /** Its Ready condition is not True (or it has none yet): Karpenter does not launch from it. */
  | { kind: 'notReady'; ready?: KarpenterConditionState; failing: KarpenterConditionState[] }
  /** A limit reached, or too close for the pod's request: `used` of `limit`, the pod asking `podAsks`. */
  | { kind: 'limitReached'; resource: string; limit: string; used: string; podAsks?: string }
  /** A taint of its template no toleration of the pod matches; `nearest` as TaintToleration finds it. */
  | { kind: 'untoleratedTaint'; taint: V1Taint; nearest?: NearestToleration }
  | RequirementMismatch;

export interface NodePoolCheck {
  nodePool: string;
  /** True when none of the checks above fails (the cloud provider's instance types may still refuse). */
  fits: boolean;
  problems: NodePoolProblem[];
  /** Its startup taints, which a pod need not tolerate (said, so that they are not mistaken for the cause). */
  startupTaints?: V1Taint[];
  weight?: number;
}

export function conditionState(c: KarpenterCondition): KarpenterConditionState {
  const since = toTime(c.lastTransitionTime);
  return { type: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}), ...(since !== undefined ? { since } : {}) };
}

function readiness(pool: KarpenterNodePool): NodePoolProblem[] {
  const conditions = pool.status?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return [];
  const failing = conditions.filter((c) => c.type !== 'Ready' && c.status !== 'True').map(conditionState);
  return [{ kind: 'notReady', ...(ready ? { ready: conditionState(ready) } : {}), failing }];
}

function amount(resource: string, quantity: string | number): bigint | undefined {
  try {
    return amountOf(resource, quantity);
  } catch {
    return undefined; // an unreadable limit is not a reason we can give
  }
}

/** What the pod asks in all; an unreadable request was reported by the replay already. */
function podAsks(pod: V1Pod): Record<string, bigint> {
  try {
    return podRequestTotal(pod);
  } catch {
    return {};
  }
}

function limits(pool: KarpenterNodePool, asks: Record<string, bigint>): NodePoolProblem[] {
  const used = pool.status?.resources ?? {};
  const out: NodePoolProblem[] = [];
  for (const [resource, limitText] of Object.entries(pool.spec?.limits ?? {})) {
    const limit = amount(resource, limitText);
    const usedText = used[resource] ?? 0;
    const usedAmount = amount(resource, usedText);
    if (limit === undefined || usedAmount === undefined) continue;
    // `nodes` counts whole nodes: a new one needs one more. Anything else: at least the pod's request.
    const needed = resource === 'nodes' ? 1n : (asks[resource] ?? 0n);
    if (usedAmount >= limit || (needed > 0n && usedAmount + needed > limit)) {
      const podAsks = resource !== 'nodes' && needed > 0n ? { podAsks: formatResource(resource, needed) } : {};
      out.push({ kind: 'limitReached', resource, limit: String(limitText), used: String(usedText), ...podAsks });
    }
  }
  return out;
}

function taints(pool: KarpenterNodePool, pod: V1Pod): NodePoolProblem[] {
  const tolerations = pod.spec?.tolerations ?? [];
  return (pool.spec?.template?.spec?.taints ?? [])
    .filter((taint) => !tolerations.some((t) => tolerates(t, taint)))
    .map((taint) => {
      const nearest = nearestToleration(tolerations, taint);
      return { kind: 'untoleratedTaint', taint, ...(nearest ? { nearest } : {}) };
    });
}

/** Every NodePool's verdict for the pod, by name. */
export function checkNodePools(pools: readonly KarpenterNodePool[], pod: V1Pod): NodePoolCheck[] {
  const asks = podAsks(pod);
  return pools
    .map((pool): NodePoolCheck => {
      const problems = [...readiness(pool), ...limits(pool, asks), ...taints(pool, pod), ...requirementMismatches(pool, pod)];
      const startup = pool.spec?.template?.spec?.startupTaints ?? [];
      const weight = pool.spec?.weight;
      return {
        nodePool: pool.metadata?.name ?? '',
        fits: problems.length === 0,
        problems,
        ...(startup.length > 0 ? { startupTaints: startup } : {}),
        ...(weight !== undefined ? { weight } : {}),
      };
    })
    .sort((a, b) => byText(a.nodePool, b.nodePool));
}
