// Words for what Karpenter's objects tell (engine/karpenter/): the NodeClaim a pod waits for and
// how far its launch has come, each NodePool's verdict from our own replay, and how that squares
// with Karpenter's refusal. Ages are counted back from the newest time in the input.
import type { KarpenterConditionState, KarpenterReconciliation, NodeClaimProgress, NodePoolCheck, NodePoolProblem } from '../engine/karpenter/index.js';
import { formatKarpenterRequirement, type RequirementSource } from '../engine/karpenter/requirements.js';
import { formatTaint, formatToleration } from '../engine/match/tolerations.js';
import type { TextDiff } from '../engine/nearmiss/index.js';
import { age } from './bound.js';
import { explainDiff } from './nearmiss.js';
import { list, plural } from './format.js';
import { byText } from '../engine/order.js';

const stepWords = { Launched: 'launched', Registered: 'registered', Initialized: 'initialized', Ready: 'ready' } as const;

function agoText(ms: number | undefined, asOf: number | undefined): string {
  return ms !== undefined && asOf !== undefined ? ` ${age(asOf - ms)} ago` : '';
}

function conditionText(c: KarpenterConditionState): string {
  // A reason that repeats the type (Launched=True, reason Launched) says nothing.
  const why = [c.reason === c.type ? undefined : c.reason, c.message].filter((x): x is string => x !== undefined && x !== '').join(': ');
  return `${c.type}=${c.status}${why ? ` (${why})` : ''}`;
}

/**
 * How far the NodeClaim has come, in a clause: "launched 40s ago, not registered yet",
 * "launch failing: LaunchFailed: ...", "ready 5s ago".
 */
function nodeClaimState(p: NodeClaimProgress, brief = false): string {
  if (!p.found) return 'not in the input (not read, or already deleted: Karpenter deletes a NodeClaim whose launch or registration fails)';
  if (p.launchFailing) return `launch failing: ${conditionText(p.launchFailing)}${agoText(p.launchFailing.since, p.asOf)}`;
  const done = p.conditions.filter((c) => c.status === 'True');
  const last = done[done.length - 1];
  const lastWords = last ? `${stepWords[last.type as keyof typeof stepWords] ?? last.type}${agoText(last.since, p.asOf)}` : `created${agoText(p.createdAt, p.asOf)}`;
  if (!p.waitingFor) return lastWords;
  const waiting = p.conditions.find((c) => c.type === p.waitingFor);
  const detail = !brief && waiting?.reason && waiting.reason !== 'AwaitingReconciliation' ? `: ${waiting.message || waiting.reason}` : '';
  return `${lastWords}; not ${stepWords[p.waitingFor]} yet${detail}`;
}

/**
 * "NodeClaim default-x7k2q of NodePool default (launched 40s ago; not registered yet)", for a
 * headline: why a step is not done yet is in nodeClaimLines; a failing launch is said here too.
 */
export function nodeClaimPhrase(p: NodeClaimProgress): string {
  return `NodeClaim ${p.name}${p.nodePool ? ` of NodePool ${p.nodePool}` : ''} (${nodeClaimState(p, true)})`;
}

/** One line per step of the NodeClaim: type, status, reason, message and since when. */
export function nodeClaimLines(p: NodeClaimProgress): string[] {
  if (!p.found) return [`NodeClaim ${p.name}: ${nodeClaimState(p)}`];
  const head = `NodeClaim ${p.name}${p.nodePool ? ` (NodePool ${p.nodePool})` : ''}${p.createdAt !== undefined ? `, created${agoText(p.createdAt, p.asOf)}` : ''}${p.nodeName ? `, node ${p.nodeName}` : ''}`;
  const steps = p.conditions.map((c) => `  ${conditionText(c)}${agoText(c.since, p.asOf)}`);
  return [head, ...(steps.length > 0 ? steps : ['  no conditions yet: Karpenter has not launched it'])];
}

function sourceText(source: RequirementSource): string {
  return source.kind === 'nodeSelector' ? "the pod's nodeSelector" : `the pod's required node affinity term ${source.index + 1}`;
}

export function nodePoolProblemText(p: NodePoolProblem): string {
  switch (p.kind) {
    case 'notReady': {
      // The conditions that are not True say why; Ready itself only when none does.
      const causes = p.failing.length > 0 ? list(p.failing.map(conditionText)) : p.ready ? conditionText(p.ready) : 'no Ready condition yet';
      return `not ready: ${causes}; Karpenter launches nothing from it, and leaves it out of its message`;
    }
    case 'limitReached':
      return p.podAsks
        ? `limit ${p.resource} ${p.limit} with ${p.used} in use leaves too little for a node for the pod, which asks ${p.podAsks}`
        : `limit ${p.resource} ${p.limit} reached: ${p.used} in use`;
    case 'untoleratedTaint': {
      const near = p.nearest ? ` (nearest toleration #${p.nearest.index + 1}: ${formatToleration(p.nearest.toleration)})` : '';
      return `its nodes carry taint ${formatTaint(p.taint)}, which the pod does not tolerate${near}`;
    }
    case 'undefinedLabel':
      return `${sourceText(p.source)} asks for ${formatKarpenterRequirement(p.requirement)}, a label the NodePool does not define${p.closest ? ` (it defines ${p.closest.key})` : ''}`;
    case 'noCommonValue':
      return `${sourceText(p.source)} asks for ${formatKarpenterRequirement(p.requirement)}; the NodePool offers ${p.nodePool.map(formatKarpenterRequirement).join(' and ')}`;
  }
}

/** Whether a problem is a slip worth showing character by character. */
function isNear(p: NodePoolProblem): boolean {
  if (p.kind === 'untoleratedTaint') return p.nearest !== undefined && p.nearest.mismatches.every((m) => (m.field !== 'key' && m.field !== 'value') || m.diff !== undefined);
  return (p.kind === 'undefinedLabel' || p.kind === 'noCommonValue') && p.closest !== undefined;
}

/**
 * NodePools in the order a reader should meet them: those the pod nearly fits first (a near
 * miss, then the fewest problems), so that a headline with room for one names the likely cause.
 */
export function nodePoolsByNearness(checks: readonly NodePoolCheck[]): NodePoolCheck[] {
  const near = (c: NodePoolCheck) => (c.problems.some(isNear) ? 0 : 1);
  // A NodePool whose labels the pod asks for is the one meant for it: its other problems matter most.
  const meant = (c: NodePoolCheck) => (c.problems.some((p) => p.kind === 'undefinedLabel' || p.kind === 'noCommonValue') ? 1 : 0);
  return [...checks].sort((a, b) => near(a) - near(b) || meant(a) - meant(b) || a.problems.length - b.problems.length || byText(a.nodePool, b.nodePool));
}

/** A short clause per NodePool for a headline: "NodePool gpu: taint dedicated=gpu:NoSchedule not tolerated". */
export function nodePoolBrief(c: NodePoolCheck): string {
  const first = c.problems[0];
  if (!first) return `NodePool ${c.nodePool} would take it`;
  const more = c.problems.length > 1 ? ` (+${c.problems.length - 1} more)` : '';
  switch (first.kind) {
    case 'notReady':
      return `NodePool ${c.nodePool} is not ready${more}`;
    case 'limitReached':
      return `NodePool ${c.nodePool} is at its ${first.resource} limit${more}`;
    case 'untoleratedTaint': {
      const miss = first.nearest && isNear(first) ? first.nearest.mismatches.find((m) => m.field === 'key' || m.field === 'value') : undefined;
      if (miss) return `NodePool ${c.nodePool}'s taint ${formatTaint(first.taint)} vs toleration ${miss.field} "${miss.wanted}"${more}`;
      return `NodePool ${c.nodePool}'s taint ${formatTaint(first.taint)} is not tolerated${more}`;
    }
    case 'undefinedLabel':
      return `NodePool ${c.nodePool} has no label ${first.requirement.key}${more}`;
    case 'noCommonValue':
      return `NodePool ${c.nodePool} offers no ${first.requirement.key} the pod asks for${more}`;
  }
}

export function reconciliationLine(r: KarpenterReconciliation): string {
  if (r.agrees) return 'Agrees: every NodePool fails our own checks too, and each taint or limit Karpenter named is among their problems.';
  const parts: string[] = [];
  if (r.fittingNodePools.length > 0) {
    parts.push(`our checks pass ${plural(r.fittingNodePools.length, 'NodePool')} ${list(r.fittingNodePools)} (instance types, offerings and daemonset overhead are the cloud provider's and not in the input: Karpenter's reason is there)`);
  }
  if (r.unexplained.length > 0) parts.push(`Karpenter named ${list(r.unexplained)}, which no NodePool's problems show (the NodePools read may be newer or older than its event)`);
  return `Differs: ${parts.join('; ')}.`;
}

/** explainDiff's notes, with the NodePool (its would-be nodes) where they say the node. */
export function explainNodePoolDiff(diff: TextDiff): string[] {
  return explainDiff(diff).map((note) => note.replace(/\(node\)/g, '(NodePool)').replace(/the node's/g, "the NodePool's").replace(/on the node\b/g, 'in the NodePool'));
}

/** When Karpenter nominated the pod, and its words: `nominated 40s ago: "Pod should schedule on: ..."`. */
export function nominatedLine(since: number | undefined, asOf: number | undefined, message: string): string {
  return `nominated${since !== undefined ? (asOf !== undefined ? ` ${age(asOf - since)} ago` : ` at ${new Date(since).toISOString().replace(/\.\d{3}Z$/, 'Z')}`) : ''}: "${message}"`;
}
