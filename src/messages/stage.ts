// One sentence per stage: where the pod is stuck, before the details.
import type { Diagnosis } from '../engine/diagnosis.js';
import { boundSentence } from './bound.js';
import { list } from './format.js';

export function stageSentence(d: Diagnosis): string {
  const pod = `${d.pod.namespace}/${d.pod.name}`;
  const s = d.stageDetail;
  switch (s.stage) {
    case 'AdmissionRejected': {
      const last = s.failures[s.failures.length - 1];
      // Asked for by owner (deploy/web), the pods have no name of their own yet.
      const top = d.pod.owners[d.pod.owners.length - 1] ?? s.owner;
      const subject = d.pod.name === undefined ? `No pod of ${top.kind} ${top.namespace}/${top.name} was ever created` : `Pod ${pod} was never created`;
      return `${subject}: the API server rejected it at admission. ${s.owner.kind} ${s.owner.name} reports: ${last ? withoutAggregation(last.message) : 'FailedCreate'}`;
    }
    case 'SchedulingGated':
      return `Pod ${pod} is held before scheduling by scheduling gate${s.gates.length > 1 ? 's' : ''} ${list(s.gates)}; the scheduler will not look at it until they are removed.`;
    case 'NoScheduler':
      if (!s.eventsCaptured) {
        return `Pod ${pod} has no PodScheduled condition: no scheduler has judged it yet. The input has no events, so whether scheduler "${s.schedulerName}" runs at all is unknown (capture them with: kubectl get events -A -o yaml).`;
      }
      return s.schedulerSeenElsewhere
        ? `Pod ${pod} has not been looked at by its scheduler "${s.schedulerName}" yet (it has scheduled other pods; this one may be new or queued).`
        : `Pod ${pod} asks for scheduler "${s.schedulerName}", which has written nothing about this or any other pod: it may not exist or not be running.`;
    case 'NodeNameSet':
      return s.nodeExists === false
        ? `Pod ${pod} names node ${s.nodeName} in spec.nodeName, which does not exist; the scheduler is bypassed and nothing will run it.`
        : `Pod ${pod} names node ${s.nodeName} in spec.nodeName, bypassing the scheduler; the kubelet on that node decides.`;
    case 'Unschedulable':
      return `Pod ${pod} cannot be scheduled.`;
    case 'PreemptionPending':
      return `Pod ${pod} is waiting for preemption on node ${s.nominatedNodeName} (victims are terminating).`;
    case 'ScheduledNotRunning':
      return boundSentence(pod, s);
    case 'NotPending':
      return s.phase === 'NoPods'
        ? `${d.pod.owners[0]?.kind ?? 'Owner'} ${d.pod.owners[0]?.name ?? d.pod.name} has no pods and no FailedCreate events: nothing is pending.`
        : `Pod ${pod} is not pending: its phase is ${s.phase}${s.reason ? ` (${s.reason})` : ''}.`;
  }
}

/**
 * client-go's event correlator rewrites the message of an event that keeps recurring with small
 * differences as "(combined from similar events): <message>"; the reader wants the message.
 */
function withoutAggregation(message: string): string {
  return message.replace(/^\(combined from similar events\): /, '');
}
