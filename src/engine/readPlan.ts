// What a source asks of the engine to plan its reads, in one place: sources/ imports no other
// engine module but types (test/architecture/imports.test.ts). Decides, from what is already
// read, what else is worth reading. Pure: no I/O.
// - Candidate nodes: those that pass the checks node objects alone settle, asked of the rules
//   themselves, in the scheduler's filter order: a rule that needs nothing for this pod
//   (`needs(pod)` is empty) decides from the node object; the first rule that needs the pods on
//   the node (NodePorts for a pod with host ports, NodeResourcesFit) is judged on the node
//   alone, keeping only the failures more pods cannot undo (`provenDespiteGaps`), and ends the
//   walk: a later rule's failure would no longer be the node's first. Rules whose PreFilter
//   narrows the nodes (`meta.narrowsNodes`) run first, once what they need is read. So a node
//   that is ruled out has its first failing plugin known without its pods; only candidates'
//   pods are read.
// - Pod selections: the label selectors (and namespaces) of the pod's required pod affinity and
//   anti-affinity terms and of its DoNotSchedule spread constraints, whose matching pods count
//   wherever they run.
// - Below: the engine's own answers a reader sequences its stages by (the stage, the events
//   about an object, the owner a query names...), the same functions the diagnosis uses.
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import { hasRequiredAntiAffinity, nodeFacts, podFacts } from './facts.js';
import { selectsNamespacesByLabel } from './namespaces.js';
import { formatLabelSelector, matchesLabelSelector, mergeLabelKeys } from './match/labelSelector.js';
import type { NodeFacts, PodFacts, RuleContext } from './model.js';
import type { Rule } from './reasons.js';
import { releaseOf, requestRulesFor } from './release.js';
import { runsIn } from './releaseRules.js';
import { podClaimRefs } from './volumes.js';
import { isGap, type CollectionName, type NodeRecord, type Snapshot } from '../snapshot/types.js';
import { asksDraExtendedResource } from './dra/extended.js';
import { eventsAbout, type ObjectRef } from './events.js';
import { judgedStages, type StageDetail } from './stage.js';
import { decideStage } from './stages/index.js';
import { isClusterAutoscalerEvent } from './story/autoscaler.js';
import { podGroupOf } from './story/gang.js';

export interface Candidates {
  /** Names of the nodes whose pods can change the verdict. */
  names: string[];
  /** The pod fails a PreFilter that node objects settle: no node's pods matter. */
  failsPreFilter: boolean;
}

function emptyNodeFacts(node: NodeRecord): NodeFacts | undefined {
  try {
    return nodeFacts(node, []);
  } catch {
    return undefined; // an unreadable allocatable: keep the node, the engine will say why
  }
}

/**
 * The collections the rules read for this pod (`needs`), so that a reader fetches what they
 * need and no more. `needs` looks at the pod's spec only, so a pod whose requests do not parse
 * (which the engine reports) is asked about with none.
 */
export function neededCollections(rules: readonly Rule[], pod: V1Pod): Set<CollectionName> {
  let facts: PodFacts;
  try {
    facts = podFacts(pod);
  } catch {
    const none = {};
    const parts = { containers: none, sidecars: none, initPeak: none, podLevel: none, overhead: none };
    facts = { pod, namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '', requests: { total: none, parts } };
  }
  return new Set(rules.flatMap((rule) => rule.needs(facts)));
}

/**
 * Whether the rule's input for this pod is read whole: the nodes (which the planner is given)
 * and collections read without a gap. The pods on the nodes are what is still to be read.
 */
function readWhole(rule: Rule, pod: PodFacts, snapshot: Snapshot): boolean {
  return rule.needs(pod).every((c: CollectionName) => c === 'nodes' || (c !== 'pods' && !isGap(snapshot, c)));
}

/**
 * The rules that settle a node before its pods are read, in filter order, and which of their
 * failures stand: every failure of a rule that needs nothing but the node; for the first rule
 * that needs the node's pods, the failures it keeps when the pods are a gap, and none after it.
 */
function nodeOnlyRules(rules: readonly Rule[], pod: PodFacts): { rule: Rule; standsWithoutPods: boolean }[] {
  const out: { rule: Rule; standsWithoutPods: boolean }[] = [];
  for (const rule of rules) {
    if (rule.notEvaluated?.(pod)) break;
    const needs = rule.needs(pod);
    if (needs.length === 0) {
      out.push({ rule, standsWithoutPods: false });
      continue;
    }
    if (needs.every((c) => c === 'pods')) out.push({ rule, standsWithoutPods: true });
    break;
  }
  return out;
}

/**
 * The nodes that pass every node-only check of `rules` (the registry's, in filter order).
 * `snapshot` supplies claims, volumes and classes for the PreFilters that narrow the nodes;
 * they run only when what they need was read without a gap.
 */
export function candidateNodes(rules: readonly Rule[], pod: V1Pod, nodes: readonly NodeRecord[], snapshot: Snapshot): Candidates {
  let facts: PodFacts | undefined;
  try {
    facts = podFacts(pod, requestRulesFor(snapshot));
  } catch {
    facts = undefined;
  }
  // Only the rules of the cluster's release, as the engine replays them (release.ts).
  const minor = releaseOf(snapshot).minor;
  const released = rules.filter((rule) => runsIn(rule, minor));
  const all = nodes.map((node) => ({ node, facts: emptyNodeFacts(node) }));
  if (!facts) return { names: all.map((n) => n.node.metadata?.name ?? ''), failsPreFilter: false };
  const podOnly = facts;
  const known = all.flatMap((n) => (n.facts ? [n.facts] : []));
  const ctx: RuleContext = { snapshot: { ...snapshot, objects: { ...snapshot.objects, pods: [] } }, pod: podOnly, nodes: known };
  let allowed: Set<string> | undefined;
  for (const rule of released.filter((r) => r.meta.narrowsNodes && readWhole(r, podOnly, snapshot))) {
    const outcome = rule.preFilter?.(ctx);
    if ((outcome?.reasons ?? []).length > 0) return { names: [], failsPreFilter: true };
    const names = outcome?.nodeNames;
    if (names) allowed = allowed ? new Set([...allowed].filter((n) => names.has(n))) : new Set(names);
  }
  const settling = nodeOnlyRules(released, podOnly);
  const fails = (nf: NodeFacts) =>
    settling.some(({ rule, standsWithoutPods }) =>
      rule.filter(ctx, nf).some((reason) => !standsWithoutPods || (rule.provenDespiteGaps?.(reason.detail, ['pods']) ?? false)),
    );
  const names = all
    .filter(({ node, facts: nf }) => {
      const name = node.metadata?.name ?? '';
      if (allowed && !allowed.has(name)) return false;
      return !nf || !fails(nf);
    })
    .map(({ node }) => node.metadata?.name ?? '');
  return { names, failsPreFilter: false };
}

interface PodSelection {
  /** undefined: every namespace. */
  namespace?: string;
  /** A server-side label selector ('' selects every pod). */
  labelSelector: string;
  selector: V1LabelSelector;
}

/** Where the pods that the pod's required (anti-)affinity terms and spread constraints count live. */
function podSelections(pod: V1Pod): PodSelection[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const labels = pod.metadata?.labels ?? {};
  const out: PodSelection[] = [];
  const add = (selector: V1LabelSelector | undefined, namespaces: (string | undefined)[]) => {
    const text = formatLabelSelector(selector);
    if (text === null || !selector) return; // a nil selector matches nothing
    for (const ns of namespaces) out.push({ ...(ns !== undefined ? { namespace: ns } : {}), labelSelector: text, selector });
  };
  const affinity = pod.spec?.affinity;
  const terms = [...(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...(affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])];
  for (const term of terms) {
    const merged = mergeLabelKeys(mergeLabelKeys(term.labelSelector, term.matchLabelKeys, 'In', labels), term.mismatchLabelKeys, 'NotIn', labels);
    // A namespaceSelector may select any namespace: read them all and let the engine decide.
    const namespaces = term.namespaceSelector ? [undefined] : (term.namespaces ?? []).length > 0 ? [...new Set(term.namespaces)] : [namespace];
    add(merged, namespaces);
  }
  for (const constraint of pod.spec?.topologySpreadConstraints ?? []) {
    if (constraint.whenUnsatisfiable !== 'DoNotSchedule') continue;
    add(mergeLabelKeys(constraint.labelSelector, constraint.matchLabelKeys, 'In', labels), [namespace]);
  }
  // One read per (namespace, selector); a cluster-wide read covers the namespaced ones.
  const clusterWide = new Set(out.filter((s) => s.namespace === undefined).map((s) => s.labelSelector));
  const seen = new Set<string>();
  return out.filter((s) => {
    if (s.namespace !== undefined && clusterWide.has(s.labelSelector)) return false;
    const key = `${s.namespace ?? '*'}\u0000${s.labelSelector}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function inSelection(pod: V1Pod, selections: readonly PodSelection[]): boolean {
  const namespace = pod.metadata?.namespace ?? 'default';
  return selections.some((s) => (s.namespace === undefined || s.namespace === namespace) && matchesLabelSelector(s.selector, pod.metadata?.labels));
}

/** Whether the pod has volumes NodeVolumeLimits counts (claims, or in-tree attachable disks). */
function hasAttachableVolumes(pod: V1Pod): boolean {
  return (pod.spec?.volumes ?? []).some(
    (v) => v.persistentVolumeClaim || v.ephemeral || v.awsElasticBlockStore || v.gcePersistentDisk || v.azureDisk || v.cinder || v.portworxVolume,
  );
}

/**
 * What a reader still needs for `pod`, from what it has read so far (`read`; before anything
 * around the pod is read, a snapshot of the pod alone): the collections the rules read for it
 * (its claims' volumes and classes, devices, its gang, namespace labels), and, once its events
 * are read, the stage they put it in and what that stage asks for beside the nodes (an
 * autoscaler's objects, the scheduler's activity elsewhere, the nominated node's pods); once
 * the nodes are read, the candidate nodes, whose pods matter, and the pods that count wherever
 * they run. The reader only sequences what the plan names.
 */
export interface ReadPlan {
  pending: boolean;
  stage: StageDetail;
  /** The nodes are judged in this stage: their pods, and what the rules read, are worth reading. */
  judged: boolean;
  volumes: boolean;
  devices: boolean;
  gang: boolean;
  /** Every namespace's labels: the pod's own affinity terms select namespaces by label. */
  namespaces: boolean;
  /**
   * The pod's own namespace's labels: a pod already read has required anti-affinity whose
   * namespaceSelector the scheduler matches against this namespace.
   */
  ownNamespace(): boolean;
  /** cluster-autoscaler wrote about the pod: its status ConfigMap. */
  autoscalerStatus: boolean;
  /** Karpenter's word answers the pod's last failure: its NodePools and NodeClaims. */
  karpenter: boolean;
  /** Whether the pod's scheduler wrote anything anywhere (NoScheduler). */
  schedulerActivity: boolean;
  /** The node a pending preemption waits on: its pods and their budgets. */
  nominatedNode?: string;
  /** The claims the pod's volumes name. */
  claims: string[];
  /** Those of its claims read as ReadWriteOncePod: another pod using one, wherever it runs, blocks it. */
  exclusiveClaims: string[];
  /**
   * The nodes read whose pods can change the verdict (`candidateNodes` over the nodes read),
   * computed once asked. Like `ownNamespace` and `volumeLimited`, it looks at `read` when called:
   * a reader that keeps adding to the snapshot it planned with asks after the reads they need.
   */
  candidates(): Candidates;
  /** The selectors of pods that count wherever they run: the pod's required (anti-)affinity and spread. */
  selections: PodSelection[];
  /** Whether a pod bound elsewhere still counts for this one: matched by a selection, or with required anti-affinity of its own. */
  countedAnywhere(other: V1Pod): boolean;
  /** The pod has volumes NodeVolumeLimits counts: the volumes of pods on limited nodes matter. */
  attachableVolumes: boolean;
  /** Of `nodes`, those whose pods' volumes NodeVolumeLimits counts (a CSINode with a limit), for a pod with such volumes. */
  volumeLimited(nodes: readonly string[]): string[];
}

// Read together (a source's podVolumes, podDevices) when a rule needs any of them for the pod.
const volumeCollections: readonly CollectionName[] = ['persistentVolumeClaims', 'persistentVolumes', 'storageClasses', 'csiNodes'];
const deviceCollections: readonly CollectionName[] = ['resourceClaims', 'deviceClasses', 'resourceSlices'];

export function planReads(rules: readonly Rule[], pod: V1Pod, read: Snapshot): ReadPlan {
  const needed = neededCollections(rules, pod);
  const namespace = pod.metadata?.namespace ?? 'default';
  const ref: ObjectRef = { kind: 'Pod', namespace, name: pod.metadata?.name ?? '', ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}) };
  const podEvents = eventsAbout(read, ref);
  const stage = decideStage(read, pod, podEvents);
  const claims = [...new Set(podClaimRefs(pod).map((r) => r.claim))];
  const exclusiveClaims = claims.filter((name) =>
    read.objects.persistentVolumeClaims.some((c) => c.metadata?.name === name && (c.metadata.namespace ?? 'default') === namespace && c.spec?.accessModes?.includes('ReadWriteOncePod')),
  );
  const selections = podSelections(pod);
  let candidates: Candidates | undefined;
  return {
    pending: (pod.status?.phase ?? 'Pending') === 'Pending',
    stage,
    judged: judgedStages.has(stage.stage),
    volumes: volumeCollections.some((c) => needed.has(c)),
    // An extended resource a DeviceClass serves is allocated from devices on nodes without it.
    devices: deviceCollections.some((c) => needed.has(c)) || asksDraExtendedResource(pod),
    gang: podGroupOf(pod) !== undefined,
    namespaces: needed.has('namespaces'),
    ownNamespace: () =>
      !read.objects.namespaces.some((n) => n.metadata?.name === namespace) &&
      read.objects.pods.some((p) => p !== pod && hasRequiredAntiAffinity(p) && selectsNamespacesByLabel(p)),
    autoscalerStatus: podEvents.some(isClusterAutoscalerEvent),
    karpenter: 'autoscaler' in stage && stage.autoscaler?.autoscaler === 'karpenter',
    schedulerActivity: stage.stage === 'NoScheduler',
    ...(stage.stage === 'PreemptionPending' ? { nominatedNode: stage.nominatedNodeName } : {}),
    claims,
    exclusiveClaims,
    candidates: () => (candidates ??= candidateNodes(rules, pod, read.objects.nodes, read)),
    selections,
    countedAnywhere: (other) => hasRequiredAntiAffinity(other) || inSelection(other, selections),
    attachableVolumes: hasAttachableVolumes(pod),
    volumeLimited: (nodes) => {
      if (!hasAttachableVolumes(pod)) return [];
      const limited = new Set(read.objects.csiNodes.filter((c) => (c.spec?.drivers ?? []).some((d) => d.allocatable?.count != null)).map((c) => c.metadata?.name ?? ''));
      return nodes.filter((n) => limited.has(n));
    },
  };
}

// The engine's answers a reader sequences its reads by: the same functions the diagnosis runs.
export { eventsAbout } from './events.js';
export { priorityOf } from './facts.js';
export { formatLabelSelector } from './match/labelSelector.js';
export { selectsNamespacesByLabel } from './namespaces.js';
export { rules } from './rules/index.js';
export { isClusterAutoscalerEvent, isKarpenterEvent } from './story/autoscaler.js';
export { podGroupOf } from './story/gang.js';
export { parseQuery, resolve } from './target.js';
export { claimClassName, podClaimRefs, volumeClassName } from './volumes.js';
