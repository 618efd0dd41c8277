// A triage as documented data (contract.ts, schema/triage.v1.json): the groups, largest first.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { formatLabelSelector } from '../../engine/match/labelSelector.js';
import type { Triage, TriageScope } from '../../engine/triage.js';
import type { Fix } from '../../engine/fixes/index.js';
import { fixText } from '../../messages/fixes.js';
import { summarySentence } from '../../messages/summary.js';
import type { Snapshot } from '../../snapshot/types.js';
import { toolVersion } from '../../version.js';
import type { TriageGroupV1, TriageV1 } from './contract.js';
import { groupByCause, ownersOf, type TriageEntry, type TriageGroup } from './group.js';

/** What the reporters need: the engine's triage (an entry kept of each pod) and where it came from. */
export interface TriageResult extends Triage<TriageEntry> {
  scope: TriageScope;
  source: Snapshot['source'];
}

/**
 * The first pod's fixes that hold for its whole group: a change to nodes (label, uncordon,
 * preemption) does; a change to a pod spec only when every pod of the group has the same
 * top owner, whose template the change edits.
 */
function groupFixes(group: TriageGroup, first: Diagnosis): Fix[] {
  // One owner for the whole group: its template is the one change (a bare pod is its own owner).
  const owners = ownersOf(group);
  const oneOwner = owners.length === 1 && (owners[0]?.owner !== undefined || group.entries.length === 1);
  return first.fixes.filter((fix) => oneOwner || !fix.spec);
}

function groupOf(group: TriageGroup, diagnosisOf: Triage<TriageEntry>['diagnosisOf']): TriageGroupV1 {
  const first = diagnosisOf(group.first);
  return {
    cause: group.cause,
    headline: summarySentence(first),
    count: group.entries.length,
    owners: ownersOf(group).map(({ owner, pods }) => ({ ...(owner ? { owner: { kind: owner.kind, namespace: owner.namespace, name: owner.name } } : {}), pods })),
    pods: group.entries.map((e) => e.pod),
    fixes: groupFixes(group, first).map((fix) => ({ class: fix.class, ...fixText(fix), makesFit: fix.makesFit.length })),
  };
}

export function presentTriage(result: TriageResult): TriageV1 {
  const groups = groupByCause(result.kept).map((g) => groupOf(g, result.diagnosisOf));
  const selector = formatLabelSelector(result.scope.selector);
  return {
    apiVersion: 'whypending/v1',
    kind: 'Triage',
    version: toolVersion,
    source: result.source,
    scope: { namespace: result.scope.namespace ?? null, ...(selector ? { selector } : {}) },
    counts: { pending: result.kept.length, groups: groups.length },
    groups,
  };
}
