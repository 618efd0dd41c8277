// The engine's entry point: snapshot + query -> diagnosis. Pure: no I/O, no clock.
import type { V1Pod } from '@kubernetes/client-node';
import type { CollectionName, Snapshot } from '../snapshot/types.js';
import { compareWithScheduler, podsUnread, schedulerWords } from './agreement.js';
import { disagreementEvidence, disputedNodes } from './disagreement.js';
import { type Diagnosis, type Findings, type Note, type PodSummary } from './diagnosis.js';
import { judgedStages, schedulerJudgedStages, type StageDetail } from './stage.js';
import type { NodeVerdict } from './judge.js';
import { equivalenceKey, type EquivalenceCache } from './equivalence.js';
import { countVerdicts } from './verdictCounts.js';
import { eventsAbout, type ObjectRef } from './events.js';
import { buildContext } from './context.js';
import { ordered, proposeFixes } from './fixes/index.js';
import { waitFixes } from './fixes/wait.js';
import { relevantGaps, withDerivedGaps } from './gaps.js';
import { judge, type Judgement } from './judge.js';
import { karpenterCollections, withKarpenter } from './karpenter/index.js';
import type { RuleSet } from './reasons.js';
import { ownerAndAbove, ownerChain } from './owners.js';
import { clusterRelease, releaseOf } from './release.js';
import { forRelease } from './releaseRules.js';
import { originSources } from './resources/originSources.js';
import { requestOrigins } from './resources/origins.js';
import { decideStage } from './stages/index.js';
import { placeGang } from './gangReplay.js';
import { isGroupMessage, podGroupOf } from './story/gang.js';
import { admissionStory } from './story/admission.js';
import { reconcile } from './story/reconcile.js';
import { resolve, type Query } from './target.js';

export type Outcome =
  | { kind: 'diagnosis'; diagnosis: Diagnosis }
  /** `elsewhere`: other namespaces where one of that kind has the name asked for. */
  | { kind: 'notFound'; query: Query; what: string; suggestions: string[]; elsewhere: string[] };

/** Diagnoses the pod `query` names, replaying the filter rules of `plugins` (src/messages/registry.ts). */
export function diagnose(plugins: RuleSet, snapshot: Snapshot, query: Query): Outcome {
  const found = resolve(snapshot, query);
  switch (found.found) {
    case 'nothing':
      return { kind: 'notFound', query, what: found.kind, suggestions: found.suggestions, elsewhere: found.elsewhere };
    case 'admissionRejected':
      return {
        kind: 'diagnosis',
        diagnosis: withoutPod(snapshot, query, found.owner, {
          stage: 'AdmissionRejected',
          owner: found.owner,
          failures: found.failures,
          ...admissionStory(snapshot, found.owner, found.failures),
        }),
      };
    case 'ownerWithoutPods':
      return {
        kind: 'diagnosis',
        diagnosis: withoutPod(snapshot, query, found.owner, { stage: 'NotPending', phase: 'NoPods', reason: 'OwnerHasNoPods' }),
      };
    case 'pod': {
      const notes: Note[] = [];
      if (found.resolvedFrom) notes.push({ kind: 'resolvedFromOwner', data: { owner: found.resolvedFrom } });
      if (found.otherPending.length > 0) notes.push({ kind: 'otherPendingPods', data: { pods: found.otherPending } });
      return { kind: 'diagnosis', diagnosis: diagnosePod(plugins, snapshot, found.pod, notes) };
    }
  }
}

function summarize(pod: V1Pod, owners: ObjectRef[]): PodSummary & { name: string; schedulerName: string } {
  return {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}),
    phase: pod.status?.phase ?? 'Pending',
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    ...(pod.status?.nominatedNodeName ? { nominatedNodeName: pod.status.nominatedNodeName } : {}),
    schedulerName: pod.spec?.schedulerName || 'default-scheduler',
    ...(pod.spec?.priority !== undefined ? { priority: pod.spec.priority } : {}),
    owners,
  };
}

/** Diagnoses one Pod object of the snapshot, fixes included. */
export function diagnosePod(registry: RuleSet, input: Snapshot, pod: V1Pod, notes: Note[] = [], shared?: EquivalenceCache): Diagnosis {
  const replayed = replayPod(registry, input, pod, notes, shared);
  return { ...replayed.findings, ...replayed.propose() };
}

/** One pod's findings, and its fixes once asked for. */
interface Replayed {
  findings: Findings;
  propose(): Pick<Diagnosis, 'fixes' | 'podsToConfirmFixes'>;
}

/**
 * Replays one Pod object of the snapshot; its fixes are proposed when asked for (a triage
 * diagnoses every pending pod this way and shows one pod's fixes per group).
 */
export function replayPod(registry: RuleSet, input: Snapshot, pod: V1Pod, notes: Note[] = [], shared?: EquivalenceCache): Replayed {
  // The rules of the cluster's release: a plugin its scheduler does not run is not replayed.
  const release = releaseOf(input);
  const plugins = forRelease(registry, release.minor);
  const snapshot = withDerivedGaps(input, pod);
  const summary = summarize(pod, ownerChain(snapshot, pod));
  const podEvents = eventsAbout(snapshot, { kind: 'Pod', namespace: summary.namespace, name: summary.name, ...(summary.uid ? { uid: summary.uid } : {}) });
  const ownerEvents = summary.owners.flatMap((owner) => eventsAbout(snapshot, owner).filter((e) => e.type === 'Warning'));
  const decided = withKarpenter(snapshot, pod, decideStage(snapshot, pod, podEvents));
  // A gang the scheduler could not place together: the group replayed, member after member, and
  // this pod judged at its turn, with the members before it bound (the group's cycle).
  const gang = decided.stage === 'GangUnschedulable' ? placeGang(plugins.rules, snapshot, pod) : undefined;
  const ctx = buildContext(gang?.atTurn ?? snapshot, pod);
  const judged = judgedStages.has(decided.stage);
  // Pods of one class (equivalence.ts) share the replay and its fixes: computed for the first.
  // A gang member is judged at its own turn in the group: no class shares it.
  const classKey = shared && !gang ? equivalenceKey(pod) : undefined;
  const once = <T>(what: string, compute: () => T): T => {
    if (!shared || classKey === undefined) return compute();
    const key = `${what}\u0000${classKey}`;
    if (!shared.has(key)) shared.set(key, compute());
    return shared.get(key) as T;
  };
  const judgement: Judgement = judged ? once('judgement', () => judge(plugins.rules, ctx)) : { preFilter: [], nodes: [], notChecked: [] };
  const replayed = withReplay(plugins, decided, judgement);
  const stageDetail: StageDetail = replayed.stage === 'GangUnschedulable' && gang ? { ...replayed, placement: gang.placement } : replayed;
  const counted = countVerdicts(judgement.nodes);
  let { fitting, unproven } = counted;
  const { byFirstPlugin, exceedEverywhere } = counted;
  if (exceedEverywhere) {
    notes.push({ kind: 'requestExceedsEveryNode', data: {} });
  }
  // A node not checked for want of namespace labels names the namespaces' gap, with its permission or capture command.
  const ruleCollections = judgement.notChecked.flatMap((n): CollectionName[] =>
    n.cause === 'gap' ? n.collections : n.cause === 'notModelledOnNodes' && n.kind === 'namespaceLabelsUnread' ? ['namespaces'] : [],
  );
  // Read for the stories, where they apply: which lower-priority pod on the nominated node a
  // budget protects, what cluster-autoscaler's status and Karpenter's objects say. Missing, they
  // are said; no filter reads them, so their gaps leave the replay whole (not partial).
  const storyCollections: CollectionName[] = [
    ...(budgetsMatter(stageDetail) ? ['podDisruptionBudgets' as const] : []),
    ...(hasClusterAutoscalerStory(stageDetail) ? ['clusterAutoscalerStatus' as const] : []),
    ...karpenterCollections(stageDetail),
    ...(podGroupOf(pod) ? ['podGroups' as const] : []),
  ];
  const gaps = relevantGaps(snapshot, pod, summary.owners, judged, [...ruleCollections, ...storyCollections]);
  const partial = gaps.some((g) => !storyOnlyCollections.has(g.collection)) || judgement.notChecked.length > 0;
  const nodesKnown = !snapshot.gaps.some((g) => g.collection === 'nodes');
  if (nodesKnown && ctx.nodes.length === 0 && judged) notes.push({ kind: 'noNodes', data: {} });
  // A member that fits reads the group's words ("pod group is unschedulable, ..."), not node counts.
  const groupWords = stageDetail.stage === 'GangUnschedulable' && isGroupMessage(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message);
  const schedulerJudged = nodesKnown && schedulerJudgedStages.has(stageDetail.stage) && !groupWords;
  const propose = (): Pick<Diagnosis, 'fixes' | 'podsToConfirmFixes'> => {
    // Fixes only where the scheduler decides (not for a nodeName set by hand), from proven failures.
    const proposed = judged && stageDetail.stage !== 'NodeNameSet' ? once('fixes', () => proposeFixes(plugins.rules, ctx, judgement, summary.owners)) : { fixes: [], podsToRead: [] };
    // What is under way comes first; while it is, no capacity change (a cut request, a preemption) is advice.
    const waits = judged ? waitFixes(stageDetail) : [];
    const fixes = waits.length > 0 ? ordered([...waits, ...proposed.fixes.filter((f) => f.class !== 'capacity')]) : proposed.fixes;
    return { fixes, podsToConfirmFixes: proposed.podsToRead };
  };
  const scheduler = compareWithScheduler(
    plugins.catalog,
    schedulerWords(pod, podEvents),
    judgement.nodes,
    judgement.preFilter,
    schedulerJudged,
    partial,
    () => disagreementEvidence(snapshot, pod, podEvents, judgement.nodes, judgement.notChecked),
    podsUnread(plugins.rules, ctx, snapshot.podsReadOn),
  );
  // Nodes the scheduler said do not fit, found to fit with nothing dated since to explain it: unknown.
  const disputed = disputedNodes(snapshot, pod, podEvents, judgement.nodes, scheduler.agrees, scheduler.parsed?.kind === 'nodeCounts');
  const nodes = disputed.size === 0 ? judgement.nodes : judgement.nodes.map((n): NodeVerdict => (disputed.has(n.name) ? { ...n, fits: false, verdict: 'unproven', disputed: true } : n));
  if (disputed.size > 0) {
    fitting -= disputed.size;
    unproven += disputed.size;
  }
  const stageShown = disputed.size > 0 && stageDetail.stage === 'WaitingForScaleUp' && stageDetail.fitsNow ? withoutDisputed(stageDetail, disputed) : stageDetail;
  const findings: Findings = {
    apiVersion: 'whypending/v1',
    kind: 'Diagnosis',
    pod: summary,
    cluster: clusterRelease(release),
    stage: stageShown.stage,
    stageDetail: stageShown,
    // Origins with the evidence only the snapshot holds: owners' templates, LimitRanges.
    requests: { ...ctx.pod.requests, origins: requestOrigins(pod, originSources(snapshot, pod)) },
    preFilter: judgement.preFilter,
    nodes,
    counts: { nodes: judgement.nodes.length, fitting, unproven, byFirstPlugin },
    notChecked: judgement.notChecked,
    scheduler,
    ownerEvents,
    notes: [...notes, ...sourceNotes(snapshot)],
    gaps,
  };
  return { findings, propose };
}

/** A scale-up's nodes that fit now, without those in dispute. */
function withoutDisputed(detail: Extract<StageDetail, { stage: 'WaitingForScaleUp' }>, disputed: ReadonlySet<string>): StageDetail {
  const fitsNow = (detail.fitsNow ?? []).filter((n) => !disputed.has(n));
  const { fitsNow: _dropped, ...rest } = detail;
  return fitsNow.length > 0 ? { ...rest, fitsNow } : rest;
}

/** The autoscaler's stages with our replay's side: existing nodes where the pod fits, and the reasons side by side. */
function withReplay(plugins: RuleSet, detail: StageDetail, judgement: Judgement): StageDetail {
  if (detail.stage === 'WaitingForScaleUp') {
    const fitsNow = judgement.nodes.filter((n) => n.verdict === 'fits').map((n) => n.name);
    return fitsNow.length > 0 ? { ...detail, fitsNow } : detail;
  }
  if (detail.stage !== 'ScaleUpNotPossible') return detail;
  // A backoff's reasons are the cloud provider's, not the scheduler's: only the replay's side.
  const reasons = detail.cause === 'noScaleUp' ? detail.autoscaler.reasons : [];
  return { ...detail, reconciliation: reconcile(plugins.catalog, reasons, judgement.nodes) };
}

// What no filter reads (only the stories above): see storyCollections.
const storyOnlyCollections: ReadonlySet<CollectionName> = new Set<CollectionName>(['podDisruptionBudgets', 'clusterAutoscalerStatus', 'nodePools', 'nodeClaims', 'podGroups']);

function hasClusterAutoscalerStory(detail: StageDetail): boolean {
  return (detail.stage === 'Unschedulable' || detail.stage === 'WaitingForScaleUp' || detail.stage === 'ScaleUpNotPossible') && detail.autoscaler?.autoscaler === 'cluster-autoscaler';
}

function budgetsMatter(detail: StageDetail): boolean {
  return detail.stage === 'PreemptionPending' && detail.pods.some((p) => p.role === 'lowerPriority');
}

function withoutPod(snapshot: Snapshot, query: Query, owner: ObjectRef, stageDetail: StageDetail): Diagnosis {
  const ownerEvents = eventsAbout(snapshot, owner);
  return {
    apiVersion: 'whypending/v1',
    kind: 'Diagnosis',
    // No Pod object: the name asked for when it was a pod's (never an owner's kind/name), and
    // the owner; no invented scheduler.
    pod: { namespace: owner.namespace, ...(query.name.includes('/') ? {} : { name: query.name }), owners: ownerAndAbove(snapshot, owner) },
    cluster: clusterRelease(releaseOf(snapshot)),
    stage: stageDetail.stage,
    stageDetail,
    preFilter: [],
    nodes: [],
    counts: { nodes: 0, fitting: 0, unproven: 0, byFirstPlugin: {} },
    notChecked: [],
    scheduler: { source: 'none', truncated: false, agrees: null, schedulerTally: {}, engineTally: {}, differences: [], likelyCauses: [] },
    ownerEvents,
    notes: sourceNotes(snapshot),
    gaps: relevantGaps(snapshot, undefined, [owner], false, []),
    fixes: [],
    podsToConfirmFixes: [],
  };
}

/** What the source noticed (repeated objects, conflicting versions), as notes of the diagnosis. */
function sourceNotes(snapshot: Snapshot): Note[] {
  return (snapshot.notes ?? []).map((n): Note => {
    switch (n.kind) {
      case 'repeatedObjects':
        return { kind: n.kind, data: { ...n } };
      case 'conflictingVersions':
        return { kind: n.kind, data: { ...n } };
    }
  });
}
