// What preemption would remove, as DefaultPreemption's SelectVictimsOnNode picks it
// (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go): only on nodes
// whose every failure preemption might resolve (code Unschedulable), and only when the pod may
// preempt (preemptionPolicy is not Never). Every pod of lower priority is removed and the node
// replayed; if the pod then fits, the victims are reprieved one by one, most important first
// (higher priority, then the earlier start), keeping each whose return still lets the pod fit.
// Pods whose removal would violate a PodDisruptionBudget are reprieved first, then the others
// (filterPodsWithPDBViolation); without the budgets in the input that order is unknown, and
// the fix says the scheduler may pick other victims.
import type { V1Pod } from '@kubernetes/client-node';
import { isTerminating, podKey, priorityOf } from '../facts.js';
import { toTime } from '../../snapshot/types.js';
import { violatingPods, type BudgetRef } from '../story/preemption.js';
import type { RuleContext } from '../model.js';
import { failing, failures, nodeNamed } from './nodes.js';
import { lowestPriority } from './lowestPriority.js';
import { replay } from './replay.js';
import type { Candidate, Change, FixInput } from './types.js';

/** Nodes with more lower-priority pods than this are not replayed pod by pod (cost). */
const maxVictimsReplayed = 24;
const maxNodes = 3;

// MoreImportantPod: higher priority first, then the one that started earlier.
function moreImportantFirst(a: V1Pod, b: V1Pod): number {
  const byPriority = priorityOf(b) - priorityOf(a);
  if (byPriority !== 0) return byPriority;
  return (toTime(a.status?.startTime) ?? Number.MAX_SAFE_INTEGER) - (toTime(b.status?.startTime) ?? Number.MAX_SAFE_INTEGER);
}

function victim(pod: V1Pod, budgets: ReadonlyMap<string, BudgetRef[]>): { namespace: string; name: string; priority: number; budgets?: string[]; terminating?: true } {
  const violated = budgets.get(podKey(pod))?.map((b) => b.name);
  return {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    priority: priorityOf(pod),
    ...(violated ? { budgets: violated } : {}),
    // Already being deleted: nobody need delete it again (no command names it).
    ...(isTerminating(pod) ? { terminating: true as const } : {}),
  };
}

/** Whether the pod may preempt some bound pod of the cluster: its policy allows it, and some pod ranks below it. */
export function mayPreempt(ctx: RuleContext): boolean {
  const pod = ctx.pod.pod;
  return pod.spec?.preemptionPolicy !== 'Never' && lowestPriority(ctx.nodes) < priorityOf(pod);
}

export function proposePreemptions({ rules, ctx, judgement }: FixInput): Candidate[] {
  const pod = ctx.pod.pod;
  const priority = priorityOf(pod);
  // The summary of failures is shared with the other generators: asked before walking the nodes.
  if (!failures(judgement).preemptible || !mayPreempt(ctx)) return [];
  const budgetsKnown = !ctx.snapshot.gaps.some((g) => g.collection === 'podDisruptionBudgets');
  const out: Candidate[] = [];
  for (const verdict of failing(judgement)) {
    if (out.length >= maxNodes) break;
    if (!verdict.reasons.every((r) => r.code === 'Unschedulable')) continue;
    const node = nodeNamed(ctx.nodes, verdict.name);
    // No pod below the pod's priority there (the index knows each node's lowest): nothing to preempt.
    if (!node || node.lowestPriority >= priority) continue;
    const lower = node.pods.filter((p) => priorityOf(p) < priority).sort(moreImportantFirst);
    if (lower.length === 0 || lower.length > maxVictimsReplayed) continue;
    const violating = violatingPods(lower, ctx.snapshot.objects.podDisruptionBudgets);
    const potential = [...lower.filter((p) => violating.has(podKey(p))), ...lower.filter((p) => !violating.has(podKey(p)))];
    const cause = verdict.reasons[0]?.plugin ?? 'NodeResourcesFit';
    const asChange = (pods: V1Pod[]): Change => ({ kind: 'preempt', cause, node: node.name, victims: pods.map((p) => victim(p, violating)), budgetsKnown });
    if (replay(rules, ctx, [asChange(potential)], [node.name]).fits.length === 0) continue;
    let victims = [...potential];
    for (const candidate of potential) {
      const without = victims.filter((p) => podKey(p) !== podKey(candidate));
      if (replay(rules, ctx, [asChange(without)], [node.name]).fits.length > 0) victims = without;
    }
    out.push({ changes: [asChange(victims)], nodes: [node.name] });
  }
  return out;
}
