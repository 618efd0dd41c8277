// Words for why the replay and the scheduler may differ, each with the evidence the input shows
// (engine/disagreement.ts), most likely first.
import type { LikelyCause } from '../engine/agreement.js';
import type { ChangeSince, DisagreementEvidence } from '../engine/disagreement.js';
import { instant } from './bound.js';
import { list } from './format.js';

function changeText(c: ChangeSince): string {
  const who = c.kind === 'Pod' ? `pod ${c.namespace ?? 'default'}/${c.name}` : `node ${c.name}`;
  switch (c.what) {
    case 'created':
      return `${who} created ${instant(c.at)}`;
    case 'deleting':
      return `${who} deleted ${instant(c.at)}`;
    case 'condition':
      return `${who} turned ${c.condition ?? 'a condition'} ${instant(c.at)}`;
  }
}

function lastAttempt(e: DisagreementEvidence | undefined): string {
  return e?.lastAttempt !== undefined ? `the scheduler last tried at ${instant(e.lastAttempt)}` : 'the time of the scheduler\'s last attempt is not in the input';
}

/** One line per likely cause, with what the input shows for it. */
export function likelyCauseText(cause: LikelyCause, e: DisagreementEvidence | undefined): string {
  switch (cause) {
    case 'nominatedPods':
      return `pods nominated to ${list(e?.nominatedOn ?? [])} hold room there; the scheduler may have tried before or after they were nominated`;
    case 'namespacesUnread':
      return 'an existing pod\'s anti-affinity selects namespaces by label, and this pod\'s namespace could not be read (see below)';
    case 'notModelled':
      return `why-pending does not model all of ${list(e?.notModelled ?? [])} for this pod (see below)`;
    case 'nodeCountDiffers':
      return 'the scheduler saw a different number of nodes than the input holds';
    case 'unknownWording':
      return 'the message has reasons we do not recognise (a plugin we do not model, or a scheduler profile that is not the default)';
    case 'nonDefaultScheduler':
      return `the pod uses ${e?.schedulerName ?? 'a scheduler other than default-scheduler'}, whose profile may differ from the default`;
    case 'partialData':
      return 'part of the cluster could not be read (see below)';
    case 'podsUnread':
      return "the pods of nodes that node objects alone rule out were not read (they cannot change those nodes' verdicts): there the scheduler also counts the reasons their pods add, such as Insufficient memory or Too many pods beside a request over the node's whole allocatable";
    case 'newerThanAttempt': {
      const shown = (e?.changes ?? []).map(changeText);
      const more = (e?.changeCount ?? 0) > shown.length ? ` and ${(e?.changeCount ?? 0) - shown.length} more` : '';
      return `the input changed after the scheduler's attempt (${lastAttempt(e)}): ${shown.join('; ')}${more}`;
    }
    case 'clusterChanged':
      return `the cluster changed since the scheduler last tried, in a way the input does not date (${lastAttempt(e)})`;
    case 'truncatedEvent':
      return 'the event was cut at 1 KiB, so only its first reasons could be compared';
  }
}
