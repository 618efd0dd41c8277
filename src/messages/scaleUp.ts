// The autoscaler stages in words: the headline sentence and the detail lines (what the autoscaler
// said, what its status ConfigMap says, and how its reasons compare with the replay).
import type { StageDetail } from '../engine/stage.js';
import type { AutoscalerStory } from '../engine/story/autoscaler.js';
import type { AutoscalerGroupStatus } from '../engine/story/autoscalerStatus.js';
import type { AutoscalerOwnReason, AutoscalerReconciliation, MappedReason } from '../engine/story/reconcile.js';
import type { AutoscalerStatusView } from '../engine/story/scaleUp.js';
import { instant } from './bound.js';
import { list, plural } from './format.js';
import { nodeClaimPhrase, nodePoolBrief, nodePoolsByNearness } from './karpenter.js';
import { headlineLimit } from './limits.js';

type Waiting = Extract<StageDetail, { stage: 'WaitingForScaleUp' }>;
type NotPossible = Extract<StageDetail, { stage: 'ScaleUpNotPossible' }>;

const who = (a: AutoscalerStory) => (a.autoscaler === 'karpenter' ? 'Karpenter' : 'cluster-autoscaler');
const at = (t: number | undefined) => (t !== undefined ? ` since ${instant(t)}` : '');

function groupsText(a: AutoscalerStory): string[] {
  return 'groups' in a ? a.groups.map((g) => `${g.group} ${g.from}->${g.to} of max ${g.max}`) : [];
}

/** What the pod waits for: the NodeClaim, the node, or the node groups. */
function target(a: AutoscalerStory): string {
  if (a.autoscaler === 'karpenter') {
    const k = a as { nodeClaim?: string; node?: string };
    return k.nodeClaim ? `NodeClaim ${k.nodeClaim}` : k.node ? `node ${k.node}` : 'a new node';
  }
  const groups = groupsText(a);
  return `new nodes${groups.length > 0 ? ` (${list(groups)})` : ''}`;
}

function reasonsText(a: AutoscalerStory): string[] {
  return 'reasons' in a ? a.reasons.map((r) => (r.count !== undefined ? `${r.count} ${r.reason}` : r.reason)) : [];
}

/** As many of `items` as fit the headline after `lead`, then how many more. */
function fitting(lead: string, items: string[], tail = ''): string {
  for (let k = items.length; k >= 1; k--) {
    const more = items.length - k;
    const sentence = `${lead}: ${items.slice(0, k).join('; ')}${more > 0 ? `; ${more} more` : ''}.${tail}`;
    // Room left for a clause about the nodes.
    if (sentence.length <= headlineLimit - 80) return sentence;
  }
  return `${lead}.${tail}`;
}

function backoffText(g: AutoscalerGroupStatus): string {
  const error = g.backoff ? `: ${[g.backoff.errorCode, g.backoff.errorMessage].filter(Boolean).join(': ')}` : '';
  return `${g.name} ${g.scaleUp === 'Unhealthy' ? 'unhealthy' : 'backed off'}${at(g.scaleUpSince)}${error}`;
}

export function waitingSentence(pod: string, s: Waiting): string {
  const a = s.autoscaler;
  const claim = a.autoscaler === 'karpenter' && 'claim' in a ? a.claim : undefined;
  const lead = claim
    ? // The NodeClaim read: how far its launch has come (or that it is failing), in place of the event's time.
      `Pod ${pod} is waiting for Karpenter's ${nodeClaimPhrase(claim)}`
    : a.autoscaler === 'karpenter'
      ? `Pod ${pod} is waiting for ${target(a)}, which Karpenter is launching for it${a.since !== undefined ? ` (since ${instant(a.since)})` : ''}`
      : `Pod ${pod} is waiting for a scale-up: cluster-autoscaler is adding ${target(a)} for it${a.since !== undefined ? `, since ${instant(a.since)}` : ''}`;
  const fits = s.fitsNow && s.fitsNow.length > 0 ? `; yet it fits existing ${plural(s.fitsNow.length, 'node')} ${list(s.fitsNow.slice(0, 3))}${s.fitsNow.length > 3 ? ' …' : ''} now` : '';
  const sentence = `${lead}${fits}.`;
  return sentence.length <= headlineLimit ? sentence : `${lead}.`;
}

export function notPossibleSentence(pod: string, s: NotPossible): string {
  if (s.cause === 'backoff') {
    // The error's code in the headline; its message is in the details.
    const state = (g: AutoscalerGroupStatus) => `${g.name} is ${g.scaleUp === 'Unhealthy' ? 'unhealthy' : 'backed off'}`;
    const code = (g: AutoscalerGroupStatus) => (g.backoff?.errorCode ? ` (${g.backoff.errorCode})` : '');
    const lead = `Pod ${pod} cannot be scheduled: the scale-up ${who(s.autoscaler)} started for it failed`;
    const long = fitting(lead, s.backedOff.map((g) => `${state(g)}${at(g.scaleUpSince)}${code(g)}`));
    // Without the times when they do not fit.
    return long !== `${lead}.` ? long : fitting(lead, s.backedOff.map((g) => `${state(g)}${code(g)}`));
  }
  // Karpenter's NodePools replayed: one clause per NodePool, in our words, instead of its error chain.
  const a = s.autoscaler;
  const pools = 'nodePools' in a && a.nodePools && a.nodePools.length > 0 ? nodePoolsByNearness(a.nodePools).map(nodePoolBrief) : undefined;
  return fitting(`Pod ${pod} cannot be scheduled, and ${who(a)} will add no node for it`, pools ?? reasonsText(a));
}

/** An autoscaler's word older than the scheduler's last failure. */
export function staleSentence(pod: string, a: AutoscalerStory): string {
  const groups = groupsText(a);
  const said = a.state === 'scaleUpTriggered' ? `started a scale-up for it${groups.length > 0 ? ` (${list(groups)})` : a.autoscaler === 'karpenter' ? ` (${target(a)})` : ''}` : 'said it would add no node for it';
  return `Pod ${pod} cannot be scheduled; ${who(a)} last ${said}${a.since !== undefined ? ` at ${instant(a.since)}` : ''}, before the scheduler's last attempt.`;
}

const ownWords: Record<AutoscalerOwnReason, string> = {
  maxNodeGroupSize: 'the node group is at its maximum size',
  backoff: 'the node group is backed off after a failed scale-up',
  notReady: 'the node group is not ready for a scale-up',
  maxClusterResource: 'the cluster is at its resource limit',
  maxTotalNodes: 'the cluster is at its maximum node count',
};

function mappedLine(m: MappedReason, a: AutoscalerStory): string {
  const said = `${m.count !== undefined ? `${m.count} ` : ''}${m.reason}`;
  if (m.plugin) return `${said}  → ${m.plugin} on its ${a.autoscaler === 'karpenter' ? 'simulated nodes' : 'node-group templates'}`;
  if (m.own) return `${said}  → ${ownWords[m.own]}`;
  // Karpenter's reasons are its own, about its NodePools, not the scheduler's filter messages.
  return a.autoscaler === 'karpenter' ? said : `${said}  → (a wording not known: no plugin)`;
}

function replayLine(r: AutoscalerReconciliation): string {
  const entries = Object.entries(r.replay).map(([plugin, n]) => `${plugin} on ${plural(n, 'node')}`);
  return entries.length > 0 ? `Checked here, the existing nodes fail ${list(entries)}.` : 'Checked here, no plugin fails on the existing nodes.';
}

/** Existing nodes the replay finds the pod fits now, though an autoscaler is involved. */
export function fitsNowLines(fitsNow: readonly string[]): string[] {
  if (fitsNow.length === 0) return [];
  const names = `${list(fitsNow.slice(0, 5))}${fitsNow.length > 5 ? ' …' : ''}`;
  return [`Yet it fits ${plural(fitsNow.length, 'existing node')} now, checked here (${names}): the scheduler will likely place it on its next attempt, or the input lacks what keeps it off them.`];
}

/** The comparison, for the detail lines. */
export function reconciliationLines(s: NotPossible): string[] {
  const r = s.reconciliation;
  const out: string[] = [];
  if (s.cause === 'noScaleUp' && r.reasons.length > 0) {
    out.push(`${who(s.autoscaler)}'s reasons:`, ...r.reasons.map((m) => `  ${mappedLine(m, s.autoscaler)}`));
  }
  if (s.cause === 'backoff') {
    out.push(`The scale-up ${who(s.autoscaler)} started for it${s.autoscaler.since !== undefined ? ` at ${instant(s.autoscaler.since)}` : ''} failed:`, ...s.backedOff.map((g) => `  ${backoffText(g)}`));
  }
  out.push(replayLine(r));
  out.push(...fitsNowLines(r.fitsNow));
  if (s.cause === 'noScaleUp') {
    if (r.agreeOn.length > 0) out.push(`Both name ${list(r.agreeOn)}: the autoscaler's templates and the existing nodes fail alike.`);
    if (r.autoscalerOnly.length > 0) {
      out.push(`Only the autoscaler names ${list(r.autoscalerOnly)}: its node-group templates fail there, no existing node does${r.replayOnly.length > 0 ? `; the existing nodes fail on ${list(r.replayOnly)} instead` : ''}.`);
    }
  }
  return out;
}

/** `told`: groups whose state the lines before already gave (a backoff's groups). */
export function statusLines(v: AutoscalerStatusView | undefined, told: readonly AutoscalerGroupStatus[] = []): string[] {
  if (!v) return [];
  const name = `${v.configMap.namespace}/${v.configMap.name}`;
  if (v.read === 'absent') return [`cluster-autoscaler's status ConfigMap ${name} does not exist (written unless --write-status-configmap=false; --namespace and --status-config-map-name move it).`];
  if (v.read === 'unreadable') return [`cluster-autoscaler's status ConfigMap ${name} is in a format not known.`];
  const out = [`cluster-autoscaler's status (${name}${v.time !== undefined ? `, written ${instant(v.time)}` : ''}):`];
  // core/static_autoscaler.go RunOnce: "Cluster is not ready for autoscaling" while
  // IsClusterHealthy() is false: no scale-up at all, whatever the events said before.
  if (v.clusterHealth) out.push(`  cluster-wide: ${v.clusterHealth}${at(v.clusterHealthSince)}${v.clusterHealth === 'Unhealthy' ? ' (too many unready nodes: cluster-autoscaler makes no scale-up while so)' : ''}`);
  for (const g of v.groups.filter((g) => !told.some((t) => t.name === g.name))) {
    const size = g.maxSize !== undefined ? ` (size ${g.cloudProviderTarget ?? '?'} of ${g.minSize ?? '?'}..${g.maxSize})` : '';
    out.push(`  ${g.name}: scale-up ${g.scaleUp ?? 'unknown'}${at(g.scaleUpSince)}${size}${g.backoff ? `: ${[g.backoff.errorCode, g.backoff.errorMessage].filter(Boolean).join(': ')}` : ''}`);
  }
  return out;
}

export function waitingLines(s: Waiting): string[] {
  const a = s.autoscaler;
  const out = [`${who(a)} is adding ${target(a)}${at(a.since)}${s.confirmedBy === 'statusConfigMap' ? '; its status ConfigMap shows the scale-up in progress' : ''}.`];
  out.push(...fitsNowLines(s.fitsNow ?? []));
  return out;
}
