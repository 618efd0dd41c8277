// What would make the pod fit: candidate changes proposed from the judgement, each replayed
// through the engine's own filters on a patched copy of the snapshot, and kept only when the
// replay makes at least one node fit. A change that clears its own cause but leaves its nodes
// blocked by another plugin is tried once more with a second change for what still blocks
// them, replayed as one fix; alone it is not offered.
import type { ObjectRef } from '../events.js';
import { positionsIn, type Judgement } from '../judge.js';
import type { RuleContext } from '../model.js';
import type { Reason, Rule } from '../reasons.js';
import type { PluginName } from '../names.js';
import { proposeRelaxedTerms } from './affinity.js';
import { cautionsOf, classOf, fixClasses } from './classes.js';
import { keepFirstNames } from './firstNames.js';
import { proposeLabels } from './label.js';
import { editsPodSpec } from './patch.js';
import { mayPreempt, proposePreemptions } from './preemption.js';
import { proposeRelabels } from './relabel.js';
import { replay, type Replay } from './replay.js';
import { firstUnreadFits } from './unread.js';
import { cuttable, proposeRequests } from './request.js';
import { proposeSelectorFixes } from './selector.js';
import { proposeSpreadPolicies } from './spread.js';
import { proposeTolerations } from './toleration.js';
import { proposeDeviceTolerations } from './deviceToleration.js';
import { proposeDeviceCapacities } from './deviceCapacity.js';
import type { Candidate, Change, Fix, FixInput, SpecTarget } from './types.js';
import { proposeUncordons } from './uncordon.js';

export { editsPodSpec } from './patch.js';
export type { Change, Fix, FixCaution, FixClass, RequestPlace, SpecTarget } from './types.js';

/**
 * Every kind of candidate (classes.ts decides the order they are offered in), and the plugin
 * whose reasons its changes clear; preemption clears reasons of code Unschedulable, whichever
 * the plugin (preemption.ts). `frees`: on which nodes, when not on every node that plugin fails,
 * judged from the node's reasons.
 */
const generators: readonly { propose: (input: FixInput) => Candidate[]; clears: PluginName | 'preemptible'; frees?: (reasons: readonly Reason[]) => boolean }[] = [
  { propose: proposeRelabels, clears: 'NodeAffinity' },
  { propose: proposeTolerations, clears: 'TaintToleration' },
  { propose: proposeDeviceTolerations, clears: 'DynamicResources' },
  { propose: proposeSelectorFixes, clears: 'NodeAffinity' },
  { propose: proposeLabels, clears: 'NodeAffinity' },
  { propose: proposeRelaxedTerms, clears: 'NodeAffinity' },
  { propose: proposeSpreadPolicies, clears: 'PodTopologySpread' },
  { propose: proposeRequests, clears: 'NodeResourcesFit', frees: cuttable },
  { propose: proposeDeviceCapacities, clears: 'DynamicResources' },
  { propose: proposeUncordons, clears: 'NodeUnschedulable' },
  { propose: proposePreemptions, clears: 'preemptible' },
];

/** The plugins some generator's change clears a reason of. */
const cleared: ReadonlySet<PluginName | 'preemptible'> = new Set(generators.map((g) => g.clears));

/** Whether some generator's change clears `plugin`'s reasons on a node failing with `reasons`. */
function clearedOn(plugin: PluginName, reasons: readonly Reason[]): boolean {
  // Most held nodes fail a plugin no generator names (InterPodAffinity): one lookup, not a walk.
  return cleared.has(plugin) && generators.some((g) => g.clears === plugin && (g.frees?.(reasons) ?? true));
}

const maxFixes = 5;
/**
 * Replays are whole filter runs on the nodes a change targets, so a diagnosis makes a bounded
 * number: the candidates of each kind that target the most nodes, a few per kind.
 */
const perKind = 3;
const perKindSecond = 2;

function propose(input: FixInput, limit: number): Candidate[] {
  return generators.flatMap((g) => g.propose(input).sort((a, b) => b.nodes.length - a.nodes.length).slice(0, limit));
}

/**
 * Whether a reason no fix clears holds the node named `name`: one of a plugin no generator's
 * change clears (InterPodAffinity, NodePorts, the volume plugins), or of NodeResourcesFit where
 * a request cut sized to the node would not free it (a request above its allocatable: the pod
 * asks for another size of node), which preemption cannot resolve either (its code is
 * UnschedulableAndUnresolvable, or the pod cannot preempt). A candidate is a change and at most
 * one more from the generators, and none reads what such a reason depends on: a toleration, a
 * request, an uncordon or a device's claim leaves a pod's anti-affinity where it was, and a
 * node's labels are changed only where NodeAffinity alone fails. A request cut is sized to a
 * node of the candidate it completes, which a cut frees (request.ts), so a candidate whose
 * every node is held has none to size it to. Such a node is freed by no fix, with a second
 * change or without. Unlike a node the pod is pinned away from by name (nodes.ts), which no
 * generator is shown at all, a held node stays in a candidate that frees others, and in its
 * fix's list of nodes still blocked.
 */
export function heldNodes(ctx: RuleContext, judgement: Judgement): (name: string) => boolean {
  // Whether the pod may preempt walks every node's pods' priorities: asked only of a reason that needs it.
  let preempts: boolean | undefined;
  const resolvable = (code: string) => code === 'Unschedulable' && (preempts ??= cleared.has('preemptible') && mayPreempt(ctx));
  // Nodes of one class share their list of reasons: each list is looked at once.
  const byReasons = new Map<readonly Reason[], boolean>();
  return (name) => {
    const i = positionsIn(ctx.nodes)?.get(name);
    const verdict = i === undefined ? undefined : judgement.nodes[i];
    // The judgement holds the context's nodes in their order; where it does not, nothing is assumed.
    if (verdict?.name !== name) return false;
    let held = byReasons.get(verdict.reasons);
    if (held === undefined) {
      const reasons = verdict.reasons;
      held = reasons.some((r) => !clearedOn(r.plugin, reasons) && !resolvable(r.code));
      byReasons.set(verdict.reasons, held);
    }
    return held;
  };
}

/** Owners whose pod template a change goes to, and where the template's pod spec is. */
const templatePaths: Record<string, readonly string[]> = {
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/** The top owner of an unbroken chain of known controllers (a ReplicaSet's Deployment), else the pod. */
export function specTarget(pod: { namespace: string; name: string }, owners: readonly ObjectRef[]): SpecTarget {
  let top: ObjectRef | undefined;
  for (const owner of owners) {
    if (!Object.hasOwn(templatePaths, owner.kind)) break;
    top = owner;
  }
  const path = top ? templatePaths[top.kind] : undefined;
  return top && path ? { kind: 'template', owner: top, path } : { kind: 'pod', pod };
}

function keyOf(changes: readonly Change[]): string {
  return changes
    .map((c) => JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
    .sort()
    .join('|');
}

function confirmed(changes: Change[], result: Replay, spec: SpecTarget, ctx: RuleContext, judgement: Judgement): Fix {
  const cautions = cautionsOf(changes, ctx, result.fits, judgement);
  return {
    class: classOf(changes, ctx),
    ...(cautions.length > 0 ? { cautions } : {}),
    cause: changes[0]?.cause ?? 'NodeResourcesFit',
    changes,
    ...(changes.some(editsPodSpec) ? { spec } : {}),
    makesFit: result.fits,
    unproven: result.unproven,
    stillBlockedBy: result.blocked,
  };
}

/** Whether the record has a key: a replay's blocked nodes may be 4,400, Object.keys would list them all. */
function hasAny(record: Record<string, unknown>): boolean {
  for (const _ in record) return true;
  return false;
}

function firstConfirmed(rules: readonly Rule[], ctx: RuleContext, candidate: Candidate, podsUnread: string[], whole: boolean): { changes: Change[]; result: Replay } | undefined {
  // None of its nodes' pods read: it can confirm nothing, only name nodes to read (unread.ts).
  const unread = whole ? undefined : firstUnreadFits(rules, ctx, candidate.changes, candidate.nodes, maxPodsToRead, true);
  if (unread && 'names' in unread) {
    keepFirstNames(podsUnread, unread.names, maxPodsToRead);
    return undefined;
  }
  const alone = replay(rules, ctx, candidate.changes, candidate.nodes, unread?.patched);
  keepFirstNames(podsUnread, alone.podsUnread, maxPodsToRead);
  if (alone.fits.length > 0) return { changes: candidate.changes, result: alone };
  if (!hasAny(alone.blocked)) return undefined;
  // The change cleared something; look for what still blocks those nodes, in the patched cluster.
  const next: FixInput = { rules, ctx: alone.ctx, judgement: alone.judgement };
  for (const second of propose(next, perKindSecond)) {
    const changes = [...candidate.changes, ...second.changes];
    const ofCandidate = new Set(candidate.nodes);
    const nodes = second.nodes.filter((n) => ofCandidate.has(n));
    const names = whole ? undefined : firstUnreadFits(rules, ctx, changes, nodes, maxPodsToRead, false);
    if (names && 'names' in names) {
      keepFirstNames(podsUnread, names.names, maxPodsToRead);
      continue;
    }
    const both = replay(rules, ctx, changes, nodes);
    keepFirstNames(podsUnread, both.podsUnread, maxPodsToRead);
    if (both.fits.length > 0) return { changes, result: both };
  }
  return undefined;
}

/**
 * The confirmed fixes for a pod judged unschedulable, at most a handful, those that free the
 * most nodes first. None when a node already fits or a PreFilter failure stops the pod.
 */
export interface Proposed {
  fixes: Fix[];
  /**
   * Nodes where a fix would make the pod fit but whose pods were never read (a live read in
   * stages skips nodes that node objects rule out): a source that reads them can confirm it.
   */
  podsToRead: string[];
}

/** How many nodes' pods a follow-up read is asked for, at most. */
const maxPodsToRead = 20;

/**
 * `wholeReplays`: replay every candidate whole, even where no node's pods were read (unread.ts);
 * `everyCandidate`: replay even a candidate whose every node a reason no fix clears holds
 * (heldNodes). What the tests hold the shortcuts to.
 */
export function proposeFixes(rules: readonly Rule[], ctx: RuleContext, judgement: Judgement, owners: readonly ObjectRef[], { wholeReplays = false, everyCandidate = false } = {}): Proposed {
  if (judgement.preFilter.length > 0 || judgement.nodes.some((n) => n.verdict === 'fits')) return { fixes: [], podsToRead: [] };
  const spec = specTarget({ namespace: ctx.pod.namespace, name: ctx.pod.name }, owners);
  const input: FixInput = { rules, ctx, judgement };
  const fixes = new Map<string, Fix>();
  const podsUnread: string[] = [];
  const held = heldNodes(ctx, judgement);
  for (const candidate of propose(input, perKind)) {
    // Every node of it held by a reason no fix clears: its replays would free none (a toleration
    // of a taint on 500 nodes, each also refused by the pod's anti-affinity, replayed twice).
    if (!everyCandidate && candidate.nodes.length > 0 && candidate.nodes.every(held)) continue;
    const found = firstConfirmed(rules, ctx, candidate, podsUnread, wholeReplays);
    if (!found) continue;
    const key = keyOf(found.changes);
    if (!fixes.has(key)) fixes.set(key, confirmed(found.changes, found.result, spec, ctx, judgement));
  }
  return { fixes: ordered([...fixes.values()]).slice(0, maxFixes), podsToRead: podsUnread };
}

/** Whether every change of the fix is to the pod (or its template): nothing other workloads share. */
function podSide(fix: Fix): boolean {
  return fix.changes.every(editsPodSpec);
}

/**
 * Safest class first; within a class, changes to the pod or its owner before changes to nodes,
 * which every other workload shares; then the most nodes freed, then the fewest changes.
 */
export function ordered(fixes: Fix[]): Fix[] {
  return fixes.sort(
    (a, b) =>
      fixClasses.indexOf(a.class) - fixClasses.indexOf(b.class) ||
      Number(podSide(b)) - Number(podSide(a)) ||
      b.makesFit.length - a.makesFit.length ||
      a.changes.length - b.changes.length,
  );
}
