// What is already under way and will free room without anyone changing anything: the victims
// of the pod's own preemption terminating on its nominated node, or nodes an autoscaler is
// adding for it. Told as fixes of the `wait` class, ahead of any capacity or policy change:
// cutting a request while a preemption is about to free the room it needs is advice to ignore.
import { deletionAskedAt } from '../../snapshot/types.js';
import type { StageDetail } from '../stage.js';
import type { Fix } from './types.js';

/** The wait fixes the stage shows, none when nothing is under way. */
export function waitFixes(detail: StageDetail): Fix[] {
  if (detail.stage === 'PreemptionPending') {
    const victims = detail.pods
      .filter((p) => p.role === 'victim')
      .map((p) => {
        const since = deletionAskedAt(p.deletionTimestamp, p.deletionGracePeriodSeconds);
        return { namespace: p.namespace, name: p.name, ...(since !== undefined ? { since } : {}) };
      });
    if (victims.length === 0) return [];
    const node = detail.nominatedNodeName;
    return [{ class: 'wait', cause: 'NodeResourcesFit', changes: [{ kind: 'waitForVictims', cause: 'NodeResourcesFit', node, victims }], makesFit: [node], unproven: [], stillBlockedBy: {} }];
  }
  if (detail.stage === 'WaitingForScaleUp') {
    const a = detail.autoscaler;
    const targets = a.autoscaler === 'cluster-autoscaler' ? a.groups.map((g) => `${g.group} ${g.from}->${g.to}`) : [...(a.nodeClaim ? [`nodeclaim/${a.nodeClaim}`] : []), ...(a.node ? [`node/${a.node}`] : [])];
    const change = { kind: 'waitForScaleUp' as const, cause: 'NodeResourcesFit' as const, autoscaler: a.autoscaler, targets, ...(a.since !== undefined ? { since: a.since } : {}) };
    // The nodes it waits for do not exist yet: it makes none of those read fit (any that fit now already do).
    return [{ class: 'wait', cause: 'NodeResourcesFit', changes: [change], makesFit: [], unproven: [], stillBlockedBy: {} }];
  }
  return [];
}
