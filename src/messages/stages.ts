// What is said of each stage, one entry per stage in the order a pod meets them (engine/stage.ts
// `stageTraits`, the same order): the headline's first sentence, the few words a triage line
// and --watch use, and, for a triage, the cause a stage groups its pods by when that is not
// what the nodes say. `satisfies` makes the table complete: a new stage does not compile until
// it is told here (test/unit/stages.test.ts checks the order too).
import type { Findings } from '../engine/diagnosis.js';
import { withoutAggregation } from '../engine/events.js';
import type { Stage, StageDetail } from '../engine/stage.js';
import { boundSentence } from './bound.js';
import { deviceBindingSentence } from './deviceBinding.js';
import { diffKindsBriefly } from './differences.js';
import { list } from './format.js';
import { gangUnschedulableSentence, waitingForGangSentence } from './gang.js';
import { headlineLimit } from './limits.js';
import { notPossibleSentence, staleSentence, waitingSentence } from './scaleUp.js';
import { limitRangeSentence, quotaHeadline } from './story.js';

type DetailOf<S extends Stage> = Extract<StageDetail, { stage: S }>;

/** A triage's cause, but for its stage: the plugin and kind of detail, or the stage's own reason, and what tells causes apart. */
export interface StageCause {
  plugin?: string;
  reason?: string;
  key: string;
}

export interface StageWords<S extends Stage> {
  /** The headline's first sentence, for pod `pod` (namespace/name). */
  sentence: (pod: string, s: DetailOf<S>, d: Findings) => string;
  /** Where the pods are stuck, as a person says it (a triage line, --watch). */
  briefly: string;
  /**
   * The cause a triage groups the stage's pods by; undefined where the nodes' verdicts are the
   * cause (report/triage/group.ts then groups by the leading failure).
   */
  cause?: (s: DetailOf<S>, d: Findings) => StageCause | undefined;
  /** The nodes' leading failure, where there is one, comes before `cause`. */
  nodesFirst?: (s: DetailOf<S>, d: Findings) => boolean;
}

/**
 * What admission said no to, without the request echo: `exceeded quota: compute-quota` from
 * `Error creating: pods "web-" is forbidden: exceeded quota: compute-quota, requested: ...`.
 */
function admissionReason(message: string): string {
  const said = message.replace(/^.*? is (?:forbidden|invalid): /i, '');
  return said.replace(/, requested: .*$/, '').replace(/^(failed quota: [^:]+): .*$/, '$1');
}

export const stageWords = {
  AdmissionRejected: {
    sentence: (pod, s, d) => {
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
    },
    briefly: 'rejected at admission',
    cause: (s) => ({ reason: 'admission', key: `${s.owner.kind}/${s.owner.name}` }),
  },
  SchedulingGated: {
    sentence: (pod, s) => `Pod ${pod} is held before scheduling by gate${s.gates.length > 1 ? 's' : ''} ${list(s.gates)}: no scheduler looks at it until ${s.gates.length > 1 ? 'they are' : 'it is'} removed.`,
    briefly: 'held by scheduling gates',
    cause: (s) => ({ reason: 'gates', key: [...s.gates].sort().join(',') }),
  },
  WaitingForGang: {
    sentence: (pod, s) => waitingForGangSentence(pod, s),
    briefly: 'waiting for its gang',
    // The pods of one PodGroup are one group.
    cause: (s) => ({ reason: 'podGroup', key: s.podGroup }),
  },
  NoScheduler: {
    sentence: (pod, s) => {
      if (!s.eventsCaptured) {
        return `Pod ${pod} has not been considered by a scheduler yet; with no events in the input, whether scheduler "${s.schedulerName}" runs is unknown (kubectl get events -A -o yaml).`;
      }
      return s.schedulerSeenElsewhere
        ? `Pod ${pod} has not been looked at by its scheduler "${s.schedulerName}" yet (it has scheduled other pods; this one may be new or queued).`
        : `Pod ${pod} asks for scheduler "${s.schedulerName}", which has written nothing about any pod: it may not exist or not be running.`;
    },
    briefly: 'no scheduler has seen it',
    // Not seen by a scheduler yet, but judged: what the nodes say is the cause to group by.
    nodesFirst: (_s, d) => d.counts.fitting === 0,
    cause: (s) => ({ reason: 'schedulerName', key: s.schedulerName }),
  },
  NodeNameSet: {
    sentence: (pod, s) => {
      if (s.nodeExists !== false) return `Pod ${pod} names node ${s.nodeName} in spec.nodeName, bypassing the scheduler; the kubelet on that node decides.`;
      const missing = `Pod ${pod} names node ${s.nodeName} in spec.nodeName, which does not exist; the scheduler is bypassed and nothing will run it.`;
      const near = s.nearNodes?.[0];
      // Shorter after the near node, to leave room for the nodes' clause that follows in the headline.
      const told = near ? `Pod ${pod} names node ${s.nodeName} in spec.nodeName, which does not exist but nearly matches node ${near.name}${diffKindsBriefly(near.diff.kinds)}; nothing will run it.` : undefined;
      return told && told.length + 40 <= headlineLimit ? told : missing;
    },
    briefly: 'nodeName set by hand',
    cause: (s) => ({ reason: s.nodeExists === false ? 'nodeMissing' : 'nodeName', key: s.nodeName }),
  },
  Unschedulable: {
    sentence: (pod, s) => (s.autoscaler ? staleSentence(pod, s.autoscaler) : `Pod ${pod} cannot be scheduled.`),
    briefly: 'cannot be scheduled',
  },
  WaitingForScaleUp: {
    sentence: (pod, s) => waitingSentence(pod, s),
    briefly: 'waiting for a scale-up',
    // Waiting for nodes an autoscaler is adding is its own cause: it will pass by itself.
    cause: (s) => ({ reason: 'waitingForScaleUp', key: s.autoscaler.autoscaler }),
  },
  ScaleUpNotPossible: {
    sentence: (pod, s) => notPossibleSentence(pod, s),
    briefly: 'no scale-up coming',
    // A failed scale-up: the groups backed off. A refusal: what keeps the pod off the existing
    // nodes; the stage in the group's identity keeps it apart from plain Unschedulable.
    cause: (s) => (s.cause === 'backoff' ? { reason: 'scaleUpBackoff', key: `${s.autoscaler.autoscaler}:${s.backedOff.map((g) => g.name).sort().join(',')}` } : undefined),
  },
  PreemptionPending: {
    sentence: (pod, s) => {
      const victims = s.pods.filter((p) => p.role === 'victim').map((p) => `${p.namespace}/${p.name}`);
      const why =
        victims.length > 0
          ? `${victims.length === 1 ? 'its victim' : `its ${victims.length} victims`} ${list(victims)} ${victims.length === 1 ? 'is' : 'are'} still terminating`
          : s.podsKnown
            ? 'no lower-priority pod there is terminating any more'
            : 'the pods there were not read, so its victims are unknown';
      return `Pod ${pod} is waiting for preemption on node ${s.nominatedNodeName}: ${why}.`;
    },
    briefly: 'preemption under way',
    cause: (s) => ({ reason: 'nominatedNode', key: s.nominatedNodeName }),
  },
  WaitingForDeviceBinding: {
    sentence: (pod, s) => deviceBindingSentence(pod, s),
    briefly: 'devices being made ready',
    cause: (s) => ({ reason: 'bindingConditions', key: s.node }),
  },
  GangUnschedulable: {
    sentence: (pod, s) => gangUnschedulableSentence(pod, s),
    briefly: 'gang cannot be placed together',
    cause: (s) => ({ reason: 'podGroup', key: s.podGroup }),
  },
  ScheduledNotRunning: {
    sentence: (pod, s) => boundSentence(pod, s),
    briefly: 'scheduled, not running',
    cause: (s) => {
      if (s.nodeReady === false) return { reason: 'nodeNotReady', key: s.nodeName };
      const waiting = s.waiting[0];
      if (waiting) return { reason: 'containerWaiting', key: waiting.reason };
      const warning = s.warnings[0];
      if (warning) return { reason: 'warning', key: warning.reason };
      return { reason: s.containerStatusesReported ? 'notStarted' : 'notTakenUp', key: '' };
    },
  },
  NotPending: {
    sentence: (pod, s, d) =>
      s.phase === 'NoPods'
        ? `${d.pod.owners[0]?.kind ?? 'Owner'} ${d.pod.owners[0]?.name ?? d.pod.name} has no pods and no FailedCreate events: nothing is pending.`
        : `Pod ${pod} is not pending: its phase is ${s.phase}${s.reason ? ` (${s.reason})` : ''}.`,
    briefly: 'not pending',
    cause: (s) => ({ reason: s.phase, key: s.reason ?? '' }),
  },
} as const satisfies { readonly [S in Stage]: StageWords<S> };

/** The words of `s`'s stage, typed for it. */
function wordsOf<S extends Stage>(s: DetailOf<S>): StageWords<S> {
  return stageWords[s.stage] as unknown as StageWords<S>;
}

/** One sentence: where the pod is stuck, before the details. */
export function stageSentence(d: Findings): string {
  return wordsOf(d.stageDetail).sentence(`${d.pod.namespace}/${d.pod.name}`, d.stageDetail, d);
}

/** A triage's cause for the stage itself (`nodesFirst`: unless the nodes give one); undefined where the nodes' verdicts are the cause. */
export function stageCause(d: Findings): { cause: StageCause | undefined; nodesFirst: boolean } {
  const words = wordsOf(d.stageDetail);
  return { cause: words.cause?.(d.stageDetail, d), nodesFirst: words.nodesFirst?.(d.stageDetail, d) ?? false };
}

/** Where pods of `stage` are stuck, as a person says it (a triage line, --watch). */
export function stageBriefly(stage: Stage): string {
  return stageWords[stage].briefly;
}
