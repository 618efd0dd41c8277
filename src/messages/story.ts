// The words for the story the objects tell: where a request came from, the arithmetic of an
// admission refusal, and what preemption is doing (or will not do) for the pod.
import type { QuotaArithmetic, LimitRangeBreach } from '../engine/story/admission.js';
import type { NeverPreempts, NominatedNodePod } from '../engine/story/preemption.js';
import type { RequestOrigin } from '../engine/resources/origins.js';
import { list, quantitiesAlike, quantity } from './format.js';

/** "cpu request 2 of container app was copied from its limit by the API (Deployment web's pod template sets no request)" */
export function originSentence(o: RequestOrigin): string {
  const subject = `${o.resource} request ${o.quantity} of container ${o.container}`;
  if (o.from === 'limitRange') {
    return o.limitRange
      ? `${subject} was set by LimitRange ${o.limitRange.name} (its default request for ${o.resource} is ${o.limitRange.defaultRequest})`
      : `${subject} was set by a LimitRange default (kubernetes.io/limit-ranger)`;
  }
  switch (o.evidence) {
    case 'podSpec':
      return `${subject} is its limit: the pod sets no request, and the API copies the limit into it`;
    case 'managedFields':
      return `${subject} was copied from its limit by the API (no field manager wrote a request)`;
    case 'ownerTemplate':
      return `${subject} was copied from its limit by the API (${o.source?.kind ?? 'the owner'} ${o.source?.name ?? ''}'s pod template sets no request)`;
    case 'lastApplied':
      return `${subject} was copied from its limit by the API (the last-applied-configuration of ${o.source?.kind ?? 'the object'} ${o.source?.name ?? ''} sets no request)`;
    case 'limitRangerAnnotation':
      return `${subject} was set by a LimitRange default`;
  }
}

function base(resource: string): string {
  return resource.replace(/^(requests|limits)\./, '');
}

/** "each pod asks requests.cpu 2; quota q has used 0 of hard 1: no replica can ever be admitted" */
export function quotaSentence(q: QuotaArithmetic, template: { kind: string; name: string } | undefined): string {
  const f = (v: bigint) => quantity(base(q.resource), v);
  const from = q.asksFrom === 'template' && template ? ` (${template.kind} ${template.name}'s pod template, as admission counts it)` : ' (as the refusal printed it)';
  const head = `each pod asks ${q.resource} ${f(q.asks)}${from}; quota ${q.quota} has used ${f(q.used)} of hard ${f(q.hard)}${q.usedFrom === 'event' ? ' (at the refusal)' : ''}`;
  switch (q.verdict) {
    case 'neverAdmitted':
      return `${head}: no replica can ever be admitted (one pod asks more than the whole quota)`;
    case 'fullNow':
      return `${head}: the quota is full now; a pod is admitted once ${f(q.used + q.asks - q.hard)} of the quota's usage is freed`;
    case 'roomNow':
      return `${head}: the quota has room now (the refusal is older than its current usage); the next create should pass`;
  }
}

/** For the headline: "each pod asks 2 cpu, quota q allows 1 in all: no replica can ever be admitted". */
export function quotaHeadline(q: QuotaArithmetic): string {
  const [asks = '', used = '', hard = '', freed = ''] = quantitiesAlike(base(q.resource), [q.asks, q.used, q.hard, q.used + q.asks - q.hard]);
  switch (q.verdict) {
    case 'neverAdmitted':
      return `each pod asks ${q.resource} ${asks} and quota ${q.quota} allows ${hard} in all, so no replica can ever be admitted`;
    case 'fullNow':
      return `quota ${q.quota} has ${used} of ${hard} ${q.resource} used and each pod asks ${asks}, so none fits until ${freed} is freed`;
    case 'roomNow':
      return `quota ${q.quota} refused a pod asking ${q.resource} ${asks} earlier, and has room now (${used} of ${hard} used)`;
  }
}

/** "container app limit cpu 2 is above the LimitRange lr max 1" */
export function limitRangeSentence(b: LimitRangeBreach): string {
  const who = b.scope === 'Pod' ? 'the pod (all containers together)' : b.container ? `container ${b.container}` : 'a container';
  const range = b.limitRange ? `LimitRange ${b.limitRange}` : 'a LimitRange';
  if (b.bound === 'maxLimitRequestRatio') {
    return `${who} ${b.resource} limit to request ratio ${b.actual} is above the ${range} maxLimitRequestRatio ${b.allowed}`;
  }
  const side = b.bound === 'max' ? 'above' : 'below';
  return `${who} ${b.field} ${b.resource} ${b.actual} is ${side} the ${range} ${b.bound} ${b.allowed} (per ${b.scope})`;
}

/** One pod on the nominated node and what preemption can do with it. */
export function nominatedPodSentence(p: NominatedNodePod): string {
  const who = `${p.namespace}/${p.name} (priority ${p.priority})`;
  switch (p.role) {
    case 'victim': {
      const since = p.deletionTimestamp ? ` since ${p.deletionTimestamp}` : '';
      const grace = p.deletionGracePeriodSeconds ?? p.terminationGracePeriodSeconds;
      const graceText = grace !== undefined ? `, grace period ${grace}s` : '';
      const held = p.finalizers.length > 0 ? `; finalizers keep it until removed: ${list(p.finalizers)}` : '';
      return `victim ${who}: terminating${since}${graceText}${held}`;
    }
    case 'lowerPriority': {
      const budget = p.budgets.length > 0
        ? `; protected by PodDisruptionBudget ${list(p.budgets.map((b) => `${b.name} (${b.disruptionsAllowed} disruptions allowed)`))}: the scheduler evicts it only as a last resort`
        : '';
      return `${who}: lower priority, not terminating (not chosen as a victim)${budget}`;
    }
    case 'equalPriority':
      return `${who}: same priority, cannot be preempted`;
    case 'higherPriority':
      return `${who}: higher priority, cannot be preempted`;
  }
}

/** Why the scheduler will not preempt for a pod with preemptionPolicy Never. */
export function neverPreemptsSentence(n: NeverPreempts): string {
  const rule = 'the scheduler will not evict lower-priority pods for it ("not eligible due to preemptionPolicy=Never"); it waits until a node fits';
  if (!n.priorityClass) return `The pod's preemptionPolicy is Never: ${rule}.`;
  if (n.classPolicy === undefined) return `The pod's preemptionPolicy is Never, set from PriorityClass ${n.priorityClass} (not read): ${rule}.`;
  const value = n.classValue !== undefined ? `, value ${n.classValue}` : '';
  if (n.classPolicy !== 'Never') {
    return `The pod's preemptionPolicy is Never, though PriorityClass ${n.priorityClass}${value} now says ${n.classPolicy} (the pod keeps what it was admitted with): ${rule}.`;
  }
  return `PriorityClass ${n.priorityClass} (preemptionPolicy Never${value}) forbids preemption: ${rule}.`;
}
