// One sentence per stage: where the pod is stuck, before the details.
import type { Diagnosis } from '../engine/diagnosis.js';
import { withoutAggregation } from '../engine/events.js';
import { boundSentence } from './bound.js';
import { gangUnschedulableSentence, waitingForGangSentence } from './gang.js';
import { deviceBindingSentence } from './deviceBinding.js';
import { diffKindsBriefly } from './differences.js';
import { list } from './format.js';
import { limitRangeSentence, quotaHeadline } from './story.js';
import { headlineLimit } from './limits.js';
import { notPossibleSentence, staleSentence, waitingSentence } from './scaleUp.js';

export function stageSentence(d: Diagnosis): string {
  const pod = `${d.pod.namespace}/${d.pod.name}`;
  const s = d.stageDetail;
  switch (s.stage) {
    case 'AdmissionRejected': {
      const last = s.failures[s.failures.length - 1];
      // Asked for by owner (deploy/web), the pods have no name of their own yet.
      const top = d.pod.owners[d.pod.owners.length - 1] ?? s.owner;
      const subject = d.pod.name === undefined ? `No pod of ${top.kind} ${top.namespace}/${top.name} was ever created` : `Pod ${pod} was never created`;
      // The arithmetic, when the objects gave it, is the cause in a sentence; the refusal follows below.
      const worked = [...s.quota.map((q) => quotaHeadline(q)), ...s.limitRange.map(limitRangeSentence)];
      const told = worked.length > 0 ? `${subject}: admission refuses it: ${worked.join('; ')}.` : undefined;
      if (told && told.length <= headlineLimit) return told;
      const full = `${subject}: the API server rejected it at admission. ${s.owner.kind} ${s.owner.name} reports: ${last ? withoutAggregation(last.message) : 'FailedCreate'}`;
      // The whole message is in the events section; the headline keeps what the API said no to.
      return full.length <= headlineLimit ? full : `${subject}: the API server rejected it at admission (${last ? admissionReason(withoutAggregation(last.message)) : 'FailedCreate'}; see below).`;
    }
    case 'WaitingForGang':
      return waitingForGangSentence(pod, s);
    case 'WaitingForDeviceBinding':
      return deviceBindingSentence(pod, s);
    case 'GangUnschedulable':
      return gangUnschedulableSentence(pod, s);
    case 'SchedulingGated':
      return `Pod ${pod} is held before scheduling by gate${s.gates.length > 1 ? 's' : ''} ${list(s.gates)}: no scheduler looks at it until ${s.gates.length > 1 ? 'they are' : 'it is'} removed.`;
    case 'NoScheduler':
      if (!s.eventsCaptured) {
        return `Pod ${pod} has not been considered by a scheduler yet; with no events in the input, whether scheduler "${s.schedulerName}" runs is unknown (kubectl get events -A -o yaml).`;
      }
      return s.schedulerSeenElsewhere
        ? `Pod ${pod} has not been looked at by its scheduler "${s.schedulerName}" yet (it has scheduled other pods; this one may be new or queued).`
        : `Pod ${pod} asks for scheduler "${s.schedulerName}", which has written nothing about any pod: it may not exist or not be running.`;
    case 'NodeNameSet': {
      if (s.nodeExists !== false) return `Pod ${pod} names node ${s.nodeName} in spec.nodeName, bypassing the scheduler; the kubelet on that node decides.`;
      const missing = `Pod ${pod} names node ${s.nodeName} in spec.nodeName, which does not exist; the scheduler is bypassed and nothing will run it.`;
      const near = s.nearNodes?.[0];
      // Shorter after the near node, to leave room for the nodes' clause that follows in the headline.
      const told = near ? `Pod ${pod} names node ${s.nodeName} in spec.nodeName, which does not exist but nearly matches node ${near.name}${diffKindsBriefly(near.diff.kinds)}; nothing will run it.` : undefined;
      return told && told.length + 40 <= headlineLimit ? told : missing;
    }
    case 'Unschedulable':
      return s.autoscaler ? staleSentence(pod, s.autoscaler) : `Pod ${pod} cannot be scheduled.`;
    case 'WaitingForScaleUp':
      return waitingSentence(pod, s);
    case 'ScaleUpNotPossible':
      return notPossibleSentence(pod, s);
    case 'PreemptionPending': {
      const victims = s.pods.filter((p) => p.role === 'victim').map((p) => `${p.namespace}/${p.name}`);
      const why =
        victims.length > 0
          ? `${victims.length === 1 ? 'its victim' : `its ${victims.length} victims`} ${list(victims)} ${victims.length === 1 ? 'is' : 'are'} still terminating`
          : s.podsKnown
            ? 'no lower-priority pod there is terminating any more'
            : 'the pods there were not read, so its victims are unknown';
      return `Pod ${pod} is waiting for preemption on node ${s.nominatedNodeName}: ${why}.`;
    }
    case 'ScheduledNotRunning':
      return boundSentence(pod, s);
    case 'NotPending':
      return s.phase === 'NoPods'
        ? `${d.pod.owners[0]?.kind ?? 'Owner'} ${d.pod.owners[0]?.name ?? d.pod.name} has no pods and no FailedCreate events: nothing is pending.`
        : `Pod ${pod} is not pending: its phase is ${s.phase}${s.reason ? ` (${s.reason})` : ''}.`;
  }
}

/**
 * What admission said no to, without the request echo: `exceeded quota: compute-quota` from
 * `Error creating: pods "web-" is forbidden: exceeded quota: compute-quota, requested: ...`.
 */
function admissionReason(message: string): string {
  const said = message.replace(/^.*? is (?:forbidden|invalid): /i, '');
  return said.replace(/, requested: .*$/, '').replace(/^(failed quota: [^:]+): .*$/, '$1');
}
