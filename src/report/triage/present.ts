// A triage as documented data (contract.ts, schema/triage.v1.json): the groups, largest first.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { formatLabelSelector } from '../../engine/match/labelSelector.js';
import type { TriageScope } from '../../engine/triage.js';
import type { Fix } from '../../engine/fixes/index.js';
import { fixText } from '../../messages/fixes.js';
import { summarySentence } from '../../messages/summary.js';
import type { Snapshot } from '../../snapshot/types.js';
import { toolVersion } from '../../version.js';
import type { TriageGroupV1, TriagePodV1, TriageV1 } from './contract.js';
import { groupByCause, ownersOf, type TriageGroup } from './group.js';

/** What the reporters need: the diagnoses and where they came from. */
export interface TriageResult {
  scope: TriageScope;
  source: Snapshot['source'];
  diagnoses: Diagnosis[];
}

function podOf(d: Diagnosis): TriagePodV1 {
  return {
    pod: { namespace: d.pod.namespace, name: d.pod.name ?? '' },
    stage: d.stage,
    ...(d.pod.nodeName ? { nodeName: d.pod.nodeName } : {}),
    ...(d.pod.nominatedNodeName ? { nominatedNodeName: d.pod.nominatedNodeName } : {}),
  };
}

/**
 * The first pod's fixes that hold for its whole group: a change to nodes (label, uncordon,
 * preemption) does; a change to a pod spec only when every pod of the group has the same
 * top owner, whose template the change edits.
 */
function groupFixes(group: TriageGroup): Fix[] {
  const first = group.diagnoses[0];
  if (!first) return [];
  // One owner for the whole group: its template is the one change (a bare pod is its own owner).
  const owners = ownersOf(group);
  const oneOwner = owners.length === 1 && (owners[0]?.owner !== undefined || group.diagnoses.length === 1);
  return first.fixes.filter((fix) => oneOwner || !fix.spec);
}

function groupOf(group: TriageGroup): TriageGroupV1 {
  const first = group.diagnoses[0];
  return {
    cause: group.cause,
    headline: first ? summarySentence(first) : '',
    count: group.diagnoses.length,
    owners: ownersOf(group).map(({ owner, pods }) => ({ ...(owner ? { owner: { kind: owner.kind, namespace: owner.namespace, name: owner.name } } : {}), pods })),
    pods: group.diagnoses.map(podOf),
    fixes: groupFixes(group).map((fix) => ({ class: fix.class, ...fixText(fix), makesFit: fix.makesFit.length })),
  };
}

export function presentTriage(result: TriageResult): TriageV1 {
  const groups = groupByCause(result.diagnoses).map(groupOf);
  const selector = formatLabelSelector(result.scope.selector);
  return {
    apiVersion: 'whypending/v1',
    kind: 'Triage',
    version: toolVersion,
    source: result.source,
    scope: { namespace: result.scope.namespace ?? null, ...(selector ? { selector } : {}) },
    counts: { pending: result.diagnoses.length, groups: groups.length },
    groups,
  };
}
