// A triage as documented data (contract.ts, schema/triage.v1.json): the groups, largest first.
import type { Findings } from '../../engine/diagnosis.js';
import { formatLabelSelector } from '../../engine/match/labelSelector.js';
import type { Triage, TriageScope } from '../../engine/triage.js';
import type { Fix } from '../../engine/fixes/index.js';
import { fixText } from '../../messages/fixes.js';
import { summarySentence } from '../../messages/summary.js';
import type { Snapshot } from '../../snapshot/types.js';
import { toolVersion } from '../../version.js';
import type { TriageGroupV1, TriagePodV1, TriageV1 } from './contract.js';
import { groupByCause, ownersOf, type TriageGroup } from './group.js';

/** What the reporters need: the engine's triage and where it came from. */
export interface TriageResult extends Triage {
  scope: TriageScope;
  source: Snapshot['source'];
}

function podOf(d: Findings): TriagePodV1 {
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
function groupFixes(group: TriageGroup, diagnosisOf: Triage['diagnosisOf']): Fix[] {
  const first = group.findings[0];
  if (!first) return [];
  // One owner for the whole group: its template is the one change (a bare pod is its own owner).
  const owners = ownersOf(group);
  const oneOwner = owners.length === 1 && (owners[0]?.owner !== undefined || group.findings.length === 1);
  return diagnosisOf(first).fixes.filter((fix) => oneOwner || !fix.spec);
}

function groupOf(group: TriageGroup, diagnosisOf: Triage['diagnosisOf']): TriageGroupV1 {
  const first = group.findings[0];
  return {
    cause: group.cause,
    headline: first ? summarySentence(first) : '',
    count: group.findings.length,
    owners: ownersOf(group).map(({ owner, pods }) => ({ ...(owner ? { owner: { kind: owner.kind, namespace: owner.namespace, name: owner.name } } : {}), pods })),
    pods: group.findings.map(podOf),
    fixes: groupFixes(group, diagnosisOf).map((fix) => ({ class: fix.class, ...fixText(fix), makesFit: fix.makesFit.length })),
  };
}

export function presentTriage(result: TriageResult): TriageV1 {
  const groups = groupByCause(result.findings).map((g) => groupOf(g, result.diagnosisOf));
  const selector = formatLabelSelector(result.scope.selector);
  return {
    apiVersion: 'whypending/v1',
    kind: 'Triage',
    version: toolVersion,
    source: result.source,
    scope: { namespace: result.scope.namespace ?? null, ...(selector ? { selector } : {}) },
    counts: { pending: result.findings.length, groups: groups.length },
    groups,
  };
}
