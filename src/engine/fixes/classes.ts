// What kind of decision a fix asks for, and what a person must weigh before making it. The
// safest class that makes a node fit is offered first: undoing a near miss changes nothing the
// cluster intends; waiting costs nothing; a request is the pod's own capacity decision; a
// toleration of a taint the pod never referenced, a label stating a fact of a node, a dropped
// requirement or an uncordon changes what the cluster's operators decided, for every workload.
import type { V1Pod, V1Taint } from '@kubernetes/client-node';
import { formatRequirement } from '../match/nodeSelector.js';
import { formatTaint } from '../match/tolerations.js';
import type { Judgement } from '../judge.js';
import type { RuleContext } from '../model.js';
import { isNearToleration, nearestToleration } from '../match/nearestToleration.js';
import { toResourceList } from '../resources/amounts.js';
import { failingOnlyOn, someNodeCarries } from './nodes.js';
import { podWith } from './patch.js';
import type { Change, FixCaution, FixClass } from './types.js';

/** The classes, safest first: the order fixes are offered in. */
export const fixClasses: readonly FixClass[] = ['correction', 'wait', 'capacity', 'policy'];

/** A cut of more than this share of a request is a capacity decision, worded as one. */
const largeCutPercent = 25;

/** The pod's toleration for the taint is a slip (a typo, a letter case, a wrong effect): it meant this taint. */
function nearMissFor(pod: V1Pod, taint: V1Taint): boolean {
  const nearest = nearestToleration(pod.spec?.tolerations ?? [], taint);
  return nearest !== undefined && isNearToleration(nearest);
}

function changeClass(change: Change, ctx: RuleContext): FixClass {
  switch (change.kind) {
    case 'tolerateTaint':
      // In place of a toleration that nearly matches: the pod meant this taint. Otherwise the
      // taint keeps workloads off its nodes and this pod never said it belongs there.
      return change.replaces && nearMissFor(ctx.pod.pod, change.taint) ? 'correction' : 'policy';
    case 'tolerateDeviceTaint':
      // In place of the request's toleration that nearly matches: the claim meant this taint.
      return change.replaces ? 'correction' : 'policy';
    case 'setNodeSelector':
      // The pod's spelling that no node carries is the odd one; one that nodes carry is a choice.
      return someNodeCarries(ctx.nodes, change.from.key, change.from.value) ? 'policy' : 'correction';
    case 'setAffinityExpression': {
      const key = change.from.key;
      const spelled = (change.from.values ?? []).some((v) => !(change.to.values ?? []).includes(v) && someNodeCarries(ctx.nodes, key, v));
      return spelled || (key !== change.to.key && ctx.nodes.some((n) => Object.hasOwn(n.labels, key))) ? 'policy' : 'correction';
    }
    case 'labelNodes':
      return change.overwrite && Object.keys(change.set).every((k) => Object.hasOwn(change.overwrite ?? {}, k)) ? 'correction' : 'policy';
    // The spread then counts only domains the pod can run in: nothing else changes where it may go.
    case 'honorTaintsInSpread':
      return 'correction';
    case 'removeAffinityExpressions':
    case 'uncordon':
      return 'policy';
    case 'setRequest':
    case 'setDeviceCapacity':
    case 'preempt':
      return 'capacity';
    case 'waitForVictims':
    case 'waitForScaleUp':
      return 'wait';
  }
}

/** A fix's class: the least safe of its changes' (a correction with a policy change is policy). */
export function classOf(changes: readonly Change[], ctx: RuleContext): FixClass {
  let worst = 0;
  for (const change of changes) worst = Math.max(worst, fixClasses.indexOf(changeClass(change, ctx)));
  return fixClasses[worst] ?? 'policy';
}

/** Kubernetes' QoS class of a pod (pkg/apis/core/helper/qos, GetPodQOS), from its containers' cpu and memory. */
export function qosClassOf(pod: V1Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const requests = toResourceList(c.resources?.requests);
    const limits = toResourceList(c.resources?.limits);
    for (const resource of ['cpu', 'memory']) {
      // Admission copies a limit into a missing request: the pod as read already has it.
      const request = requests[resource] ?? limits[resource];
      const limit = limits[resource];
      if (request !== undefined && request > 0n) any = true;
      if (limit !== undefined && limit > 0n) any = true;
      if (limit === undefined || request === undefined || request !== limit) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function changeCautions(change: Change, ctx: RuleContext, nodes: readonly string[]): FixCaution[] {
  switch (change.kind) {
    case 'tolerateTaint':
      return changeClass(change, ctx) === 'policy' ? [{ kind: 'taintKeepsOthersOff', taint: formatTaint(change.taint), nodes: [...nodes] }] : [];
    case 'tolerateDeviceTaint':
      return change.replaces ? [] : [{ kind: 'deviceTaintKeepsOthersOff', taint: formatTaint(change.taint as V1Taint), ...(change.rule !== undefined ? { rule: change.rule } : {}), nodes: [...nodes] }];
    case 'labelNodes': {
      if (changeClass(change, ctx) === 'correction') return [];
      const labels = Object.entries(change.set).map(([k, v]) => `${k}=${v}`);
      return labels.length > 0 ? [{ kind: 'labelStatesFact', labels, nodes: change.nodes }] : [];
    }
    case 'removeAffinityExpressions':
      return [{ kind: 'requirementDropped', requirements: change.expressions.map((e) => formatRequirement(e.requirement)) }];
    case 'setNodeSelector':
      return changeClass(change, ctx) === 'policy' ? [{ kind: 'selectorRetargeted', from: `${change.from.key}=${change.from.value}`, to: `${change.to.key}=${change.to.value}` }] : [];
    case 'setAffinityExpression':
      return changeClass(change, ctx) === 'policy' ? [{ kind: 'selectorRetargeted', from: formatRequirement(change.from), to: formatRequirement(change.to) }] : [];
    case 'uncordon':
      return [{ kind: 'cordoned', node: change.node, ...(change.since !== undefined ? { since: change.since } : {}), ...(change.by !== undefined ? { by: change.by } : {}) }];
    case 'setRequest': {
      const percent = change.from > 0n ? Number(((change.from - change.to) * 100n) / change.from) : 0;
      return percent > largeCutPercent ? [{ kind: 'largeCut', resource: change.resource, percent }] : [];
    }
    case 'setDeviceCapacity': {
      const percent = change.from > 0n ? Number(((change.from - change.to) * 100n) / change.from) : 0;
      return percent > largeCutPercent ? [{ kind: 'largeCut', resource: change.capacity, percent }] : [];
    }
    default:
      return [];
  }
}

/** The node short of `resource` by the least (only that resource failing it), and by how much: where freeing room fits the request as it is. */
function nearestToFitting(judgement: Judgement | undefined, resource: string): { node: string; free: bigint } | undefined {
  if (!judgement) return undefined;
  // Asked once per fix that cuts the resource, of the same 5,000 verdicts.
  let known = nearest.get(judgement);
  if (!known) nearest.set(judgement, (known = new Map()));
  if (!known.has(resource)) known.set(resource, nearestOf(judgement, resource));
  return known.get(resource);
}

const nearest = new WeakMap<Judgement, Map<string, { node: string; free: bigint } | undefined>>();

function nearestOf(judgement: Judgement, resource: string): { node: string; free: bigint } | undefined {
  let best: { node: string; free: bigint } | undefined;
  for (const node of failingOnlyOn(judgement, 'NodeResourcesFit')) {
    const short = node.reasons.filter((r) => r.detail.kind === 'insufficientResource');
    const only = short.length === 1 ? short[0]?.detail : undefined;
    if (only?.kind !== 'insufficientResource' || only.resource !== resource || only.exceedsAllocatable) continue;
    if (!best || only.short < best.free || (only.short === best.free && node.name < best.node)) best = { node: node.name, free: only.short };
  }
  return best;
}

/** What a person must weigh before making the fix: its policy changes, large cuts, a QoS class it changes. */
export function cautionsOf(changes: readonly Change[], ctx: RuleContext, makesFit: readonly string[], judgement?: Judgement): FixCaution[] {
  const cautions = changes.flatMap((c) => changeCautions(c, ctx, makesFit)).map((c): FixCaution => {
    if (c.kind !== 'largeCut') return c;
    const instead = nearestToFitting(judgement, c.resource);
    return instead ? { ...c, instead } : c;
  });
  if (changes.some((c) => c.kind === 'setRequest')) {
    const before = qosClassOf(ctx.pod.pod);
    const after = qosClassOf(podWith(ctx.pod.pod, changes));
    if (before !== after) cautions.push({ kind: 'qosChanges', from: before, to: after });
  }
  return cautions;
}
