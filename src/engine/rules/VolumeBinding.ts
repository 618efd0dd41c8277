// VolumeBinding (volumebinding/volume_binding.go and binder.go, v1.34).
// PreFilter: every claim of the pod (PVC or generic ephemeral volume) must exist, not be lost or
// being deleted, and an ephemeral one must be owned by the pod; a claim that is not fully bound
// and not WaitForFirstConsumer is "unbound immediate" and fails the pod. Bound PVs whose node
// affinity names kubernetes.io/hostname values narrow the nodes (GetEligibleNodes).
// Filter: bound PVs' node affinity against the node's labels, then WaitForFirstConsumer claims:
// an available PV that matches on this node, or else a StorageClass that can provision here.
// Every Filter reason is UnschedulableAndUnresolvable, as upstream. The scheduler's words for
// `volumeNodeAffinityConflict` are "node(s) didn't match PersistentVolume's node affinity" since
// kubernetes#129887 (2025), "node(s) had volume node affinity conflict" before.
//
// Not modelled: the CSIStorageCapacity check ("node(s) did not have enough free storage"),
// which needs CSIDriver and CSIStorageCapacity objects the snapshot does not hold; in-tree to
// CSI translation of bound PVs (tryTranslatePVToCSI), which can add topology node affinity that
// only the translated PV carries; the scheduler's assume cache (PVs chosen for pods in flight).
import type {
  V1Node,
  V1NodeSelectorRequirement,
  V1Pod,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1TopologySelectorTerm,
} from '@kubernetes/client-node';
import type { CollectionName, Snapshot } from '../../snapshot/types.js';
import { matchesLabelSelector } from '../match/labelSelector.js';
import { evaluateNodeSelector } from '../match/nodeSelector.js';
import { hostnameKey } from '../match/pins.js';
import { claimClassName, findClaim, findStorageClass, findVolume, isControlledBy, podClaimRefs, volumeClassName } from '../volumes.js';
import type { FilterRule, NodeFacts, PodFacts, PreFilterOutcome, RuleReason, RuleContext } from '../model.js';
import { oncePerCycle } from '../cycleState.js';
import { claimProvisioning, type ClaimProvisioning } from '../story/claims.js';
import { podPinAgainst, type PinAgainstVolume } from '../story/pin.js';
import { compare, parseQuantity, type Quantity } from '../quantity/index.js';
import { readAnnotations } from '../annotations.js';

const notSupportedProvisioner = 'kubernetes.io/no-provisioner';

function quantityOf(text: string | undefined): Quantity {
  if (text === undefined) return { nanos: 0n };
  try {
    return parseQuantity(text);
  } catch {
    return { nanos: 0n };
  }
}

function claimRequest(claim: V1PersistentVolumeClaim): string | undefined {
  return claim.spec?.resources?.requests?.['storage'];
}

/** A node carrying only labels, as storagehelpers.CheckNodeAffinity builds it: matchFields never match. */
function labelsOnlyNode(labels: Record<string, string>): V1Node {
  return { metadata: { labels } };
}

// ---- details ----

export interface UnmetRequirement {
  /** `label` for matchExpressions; `field` for matchFields, which a PV's affinity can never meet. */
  source: 'label' | 'field';
  key: string;
  operator: string;
  values: string[];
  /** The node's value for the key, when it has the label. */
  nodeValue?: string;
  /** For an `In` requirement: the pod's own pin on the same label, when it has one. */
  podPin?: PinAgainstVolume;
}

export interface TermMiss {
  index: number;
  unmet: UnmetRequirement[];
}

/** A claim that must be bound before scheduling, why it is not, and who is meant to provision it. */
export type UnboundImmediateClaim = { claim: string; storageClass: string; cause: ImmediateCause; volumeName?: string } & ClaimProvisioning;

export type ImmediateCause = 'immediateMode' | 'noStorageClass' | 'storageClassNotFound' | 'bindingInProgress';

export type VolumeRejection =
  | { why: 'chosenForAnotherClaim' }
  | { why: 'boundToOtherClaim'; claimRef: string }
  | { why: 'tooSmall'; capacity: string; requested: string }
  | { why: 'volumeModeMismatch'; volumeMode: string; requested: string }
  | { why: 'beingDeleted' }
  | { why: 'notAvailable'; phase: string }
  | { why: 'selectorMismatch' }
  | { why: 'volumeAttributesClassMismatch'; volumeClass: string; requested: string }
  | { why: 'nodeAffinityMismatch'; prebound: boolean }
  | { why: 'accessModesMismatch'; volumeModes: string[]; requested: string[] };

export interface UnbindableClaim {
  claim: string;
  storageClass: string;
  /** Why no PV was matched: each PV of the claim's class and the first check it failed. */
  candidates: { pv: string; rejected: VolumeRejection }[];
  /** Why the class cannot provision one here instead. */
  cause: { why: 'selectedNodeElsewhere'; selectedNode: string } | { why: 'noProvisioner'; provisioner: string } | { why: 'topologyNotAllowed'; allowedTopologies: string[] };
}

export type VolumeBindingDetail =
  | { kind: 'bindingClaimNotFound'; claim: string; ephemeral: boolean }
  | { kind: 'bindingClaimLost'; claim: string; volume: string }
  | { kind: 'bindingClaimBeingDeleted'; claim: string }
  | { kind: 'ephemeralClaimNotForPod'; claim: string; pod: string }
  | { kind: 'unboundImmediateClaims'; claims: UnboundImmediateClaim[] }
  | { kind: 'localVolumesNoCommonNode'; volumes: { claim: string; pv: string; nodes: string[] }[] }
  | { kind: 'outsideLocalVolumeNodes'; nodes: string[]; volumes: { claim: string; pv: string }[] }
  | { kind: 'volumeNodeAffinityConflict'; claim: string; pv: string; terms: TermMiss[] }
  | { kind: 'noAvailableVolumeToBind'; claims: UnbindableClaim[] }
  | { kind: 'boundVolumeMissing'; claim: string; pv: string };

type VolumeBindingReason = RuleReason<'VolumeBinding', VolumeBindingDetail>;

// ---- PreFilter: claims and their classification ----

type Analysis =
  | { state: 'skip' }
  | { state: 'failed'; reason: VolumeBindingReason }
  | { state: 'ready'; bound: V1PersistentVolumeClaim[]; delayed: V1PersistentVolumeClaim[] };

function fail(detail: VolumeBindingDetail): Analysis {
  return { state: 'failed', reason: { plugin: 'VolumeBinding', code: 'UnschedulableAndUnresolvable', detail } };
}

function isFullyBound(claim: V1PersistentVolumeClaim): boolean {
  return Boolean(claim.spec?.volumeName) && Object.hasOwn(claim.metadata?.annotations ?? {}, readAnnotations.bindCompleted);
}

const analyze = oncePerCycle((ctx: RuleContext) => analyzeUncached(ctx.snapshot, ctx.pod));

function analyzeUncached(snapshot: Snapshot, pod: PodFacts): Analysis {
  const refs = podClaimRefs(pod.pod);
  if (refs.length === 0) return { state: 'skip' };
  // podHasPVCs: the first volume whose claim is unusable fails the pod.
  const claims: V1PersistentVolumeClaim[] = [];
  for (const ref of refs) {
    const claim = findClaim(snapshot, pod.namespace, ref.claim);
    if (!claim) return fail({ kind: 'bindingClaimNotFound', claim: ref.claim, ephemeral: ref.ephemeral });
    if (claim.status?.phase === 'Lost') return fail({ kind: 'bindingClaimLost', claim: ref.claim, volume: claim.spec?.volumeName ?? '' });
    if (claim.metadata?.deletionTimestamp) return fail({ kind: 'bindingClaimBeingDeleted', claim: ref.claim });
    if (ref.ephemeral && ((claim.metadata?.namespace ?? 'default') !== pod.namespace || !isControlledBy(claim.metadata, pod.pod))) {
      return fail({ kind: 'ephemeralClaimNotForPod', claim: ref.claim, pod: `${pod.namespace}/${pod.name}` });
    }
    claims.push(claim);
  }
  // GetPodVolumeClaims: bound, WaitForFirstConsumer (delayed), or immediate but unbound.
  const bound: V1PersistentVolumeClaim[] = [];
  const delayed: V1PersistentVolumeClaim[] = [];
  const immediate: UnboundImmediateClaim[] = [];
  for (const claim of claims) {
    if (isFullyBound(claim)) {
      bound.push(claim);
      continue;
    }
    const className = claimClassName(claim);
    const storageClass = className ? findStorageClass(snapshot, className) : undefined;
    const delayBinding = storageClass?.volumeBindingMode === 'WaitForFirstConsumer';
    const volumeName = claim.spec?.volumeName;
    if (delayBinding && !volumeName) {
      delayed.push(claim);
      continue;
    }
    const name = claim.metadata?.name ?? '';
    const story = claimProvisioning(snapshot, claim, storageClass);
    if (volumeName) immediate.push({ claim: name, storageClass: className, cause: 'bindingInProgress', volumeName, ...story });
    else if (!className) immediate.push({ claim: name, storageClass: className, cause: 'noStorageClass', ...story });
    else if (!storageClass) immediate.push({ claim: name, storageClass: className, cause: 'storageClassNotFound', ...story });
    else immediate.push({ claim: name, storageClass: className, cause: 'immediateMode', ...story });
  }
  if (immediate.length > 0) return fail({ kind: 'unboundImmediateClaims', claims: immediate });
  return { state: 'ready', bound, delayed };
}

/** util.GetLocalPersistentVolumeNodeNames: hostname values of `kubernetes.io/hostname In` requirements. */
function localVolumeNodeNames(volume: V1PersistentVolume): string[] {
  const terms = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return [];
  const result = new Set<string>();
  for (const term of terms) {
    let nodes: Set<string> | undefined;
    for (const expression of term.matchExpressions ?? []) {
      if (expression.key !== hostnameKey || expression.operator !== 'In') continue;
      const values = new Set(expression.values ?? []);
      nodes = nodes ? new Set([...nodes].filter((n) => values.has(n))) : values;
    }
    for (const n of nodes ?? []) result.add(n);
  }
  return [...result].sort();
}

// GetEligibleNodes: intersect the named nodes of every bound local PV; a missing PV cancels it.
function preFilterNarrowing(snapshot: Snapshot, bound: V1PersistentVolumeClaim[]): PreFilterOutcome<'VolumeBinding', VolumeBindingDetail> {
  let eligible: Set<string> | undefined;
  const volumes: { claim: string; pv: string; nodes: string[] }[] = [];
  for (const claim of bound) {
    const pvName = claim.spec?.volumeName ?? '';
    const volume = findVolume(snapshot, pvName);
    if (!volume) return {};
    const names = localVolumeNodeNames(volume);
    if (names.length === 0) continue;
    volumes.push({ claim: claim.metadata?.name ?? '', pv: pvName, nodes: names });
    eligible = eligible ? new Set([...eligible].filter((n) => names.includes(n))) : new Set(names);
  }
  if (!eligible) return {};
  if (eligible.size === 0) {
    // The framework turns an empty PreFilterResult into "node(s) didn't satisfy plugin VolumeBinding".
    return { reasons: [{ plugin: 'VolumeBinding', code: 'UnschedulableAndUnresolvable', detail: { kind: 'localVolumesNoCommonNode', volumes } }] };
  }
  return {
    nodeNames: eligible,
    outsideDetail: { kind: 'outsideLocalVolumeNodes', nodes: [...eligible].sort(), volumes: volumes.map(({ claim, pv }) => ({ claim, pv })) },
  };
}

// ---- Filter ----

/** storagehelpers.CheckNodeAffinity against the node's labels; the unmet requirements when it fails. */
function volumeAffinityMisses(volume: V1PersistentVolume, labels: Record<string, string>, pod?: V1Pod): TermMiss[] | undefined {
  const required = volume.spec?.nodeAffinity?.required;
  if (!required) return undefined;
  const result = evaluateNodeSelector(required, labelsOnlyNode(labels));
  if (result.matched) return undefined;
  return result.terms.map((term, index) => ({
    index,
    unmet: term.requirements.filter((r) => !r.matched).map((r) => unmet(r.requirement, r.field, labels, pod)),
  }));
}

function unmet(requirement: V1NodeSelectorRequirement, source: 'label' | 'field', labels: Record<string, string>, pod: V1Pod | undefined): UnmetRequirement {
  const out: UnmetRequirement = { source, key: requirement.key, operator: requirement.operator, values: requirement.values ?? [] };
  if (source === 'label' && Object.hasOwn(labels, requirement.key)) out.nodeValue = labels[requirement.key];
  const pin = pod && source === 'label' && requirement.operator === 'In' ? podPinAgainst(pod, [requirement.key], out.values) : undefined;
  if (pin) out.podPin = pin;
  return out;
}

function matchesTopology(terms: V1TopologySelectorTerm[] | undefined, labels: Record<string, string>): boolean {
  // v1helper.MatchTopologySelectorTerms: no terms match everything; an empty term matches nothing.
  if (!terms || terms.length === 0) return true;
  return terms.some((term) => {
    const expressions = term.matchLabelExpressions ?? [];
    return expressions.length > 0 && expressions.every((e) => Object.hasOwn(labels, e.key) && e.values.includes(labels[e.key] ?? ''));
  });
}

function formatTopologyTerm(term: V1TopologySelectorTerm): string {
  const expressions = term.matchLabelExpressions ?? [];
  if (expressions.length === 0) return '<empty term>';
  return expressions.map((e) => `${e.key} in (${e.values.join(', ')})`).join(', ');
}

function isVolumeBoundToClaim(volume: V1PersistentVolume, claim: V1PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || (ref.namespace ?? '') !== (claim.metadata?.namespace ?? 'default')) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

// storagehelpers.FindMatchingVolume on the scheduler path (node set, delayBinding true), with the
// reason each PV was passed over. VolumeAttributesClass is GA in v1.34 and checked.
function findMatchingVolume(
  claim: V1PersistentVolumeClaim,
  volumes: V1PersistentVolume[],
  labels: Record<string, string>,
  excluded: Set<string>,
): { match?: V1PersistentVolume; rejected: { pv: string; rejected: VolumeRejection }[] } {
  const rejected: { pv: string; rejected: VolumeRejection }[] = [];
  const requestText = claimRequest(claim) ?? '0';
  const requested = quantityOf(requestText);
  const requestedMode = claim.spec?.volumeMode ?? 'Filesystem';
  let smallest: { volume: V1PersistentVolume; size: Quantity } | undefined;
  for (const volume of volumes) {
    const pv = volume.metadata?.name ?? '';
    const reject = (r: VolumeRejection) => rejected.push({ pv, rejected: r });
    if (excluded.has(pv)) {
      reject({ why: 'chosenForAnotherClaim' });
      continue;
    }
    const ref = volume.spec?.claimRef;
    if (ref && !isVolumeBoundToClaim(volume, claim)) {
      reject({ why: 'boundToOtherClaim', claimRef: `${ref.namespace ?? ''}/${ref.name ?? ''}` });
      continue;
    }
    const capacityText = volume.spec?.capacity?.['storage'];
    const size = quantityOf(capacityText);
    if (compare(size, requested) < 0) {
      reject({ why: 'tooSmall', capacity: capacityText ?? '0', requested: requestText });
      continue;
    }
    const mode = volume.spec?.volumeMode ?? 'Filesystem';
    if (mode !== requestedMode) {
      reject({ why: 'volumeModeMismatch', volumeMode: mode, requested: requestedMode });
      continue;
    }
    if (volume.metadata?.deletionTimestamp) {
      reject({ why: 'beingDeleted' });
      continue;
    }
    const affinityValid = volumeAffinityMisses(volume, labels) === undefined;
    if (isVolumeBoundToClaim(volume, claim)) {
      // A PV pre-bound to this claim is the only candidate: if it does not fit the node, nothing does.
      if (!affinityValid) return { rejected: [...rejected, { pv, rejected: { why: 'nodeAffinityMismatch', prebound: true } }] };
      return { match: volume, rejected };
    }
    const phase = volume.status?.phase ?? '';
    if (phase !== 'Available') {
      reject({ why: 'notAvailable', phase });
      continue;
    }
    const selector = claim.spec?.selector;
    if (selector && !matchesLabelSelector(selector, volume.metadata?.labels)) {
      reject({ why: 'selectorMismatch' });
      continue;
    }
    const volumeVac = volume.spec?.volumeAttributesClassName ?? '';
    const claimVac = claim.spec?.volumeAttributesClassName ?? '';
    if (volumeVac !== claimVac) {
      reject({ why: 'volumeAttributesClassMismatch', volumeClass: volumeVac, requested: claimVac });
      continue;
    }
    if (!affinityValid) {
      reject({ why: 'nodeAffinityMismatch', prebound: false });
      continue;
    }
    const volumeModes = volume.spec?.accessModes ?? [];
    const wanted = claim.spec?.accessModes ?? [];
    if (!wanted.every((m) => volumeModes.includes(m))) {
      reject({ why: 'accessModesMismatch', volumeModes, requested: wanted });
      continue;
    }
    if (!smallest || compare(smallest.size, size) > 0) smallest = { volume, size };
  }
  return smallest ? { match: smallest.volume, rejected } : { rejected };
}

function unboundClaims(snapshot: Snapshot, delayed: V1PersistentVolumeClaim[], node: NodeFacts): UnbindableClaim[] {
  const name = (c: V1PersistentVolumeClaim) => c.metadata?.name ?? '';
  // A claim already handed to a provisioner for another node can only go there (fast path).
  const elsewhere = delayed.filter((c) => {
    const selected = c.metadata?.annotations?.[readAnnotations.selectedNode];
    return selected !== undefined && selected !== node.name;
  });
  if (elsewhere.length > 0) {
    return elsewhere.map((c) => ({
      claim: name(c),
      storageClass: claimClassName(c),
      candidates: [],
      cause: { why: 'selectedNodeElsewhere', selectedNode: c.metadata?.annotations?.[readAnnotations.selectedNode] ?? '' },
    }));
  }
  const toProvision: { claim: V1PersistentVolumeClaim; candidates: UnbindableClaim['candidates'] }[] = [];
  const toMatch: V1PersistentVolumeClaim[] = [];
  for (const claim of delayed) {
    if (claim.metadata?.annotations?.[readAnnotations.selectedNode] !== undefined) toProvision.push({ claim, candidates: [] });
    else toMatch.push(claim);
  }
  // Smallest request first, so that each claim gets the smallest PV that fits (byPVCSize).
  toMatch.sort((a, b) => compare(quantityOf(claimRequest(a)), quantityOf(claimRequest(b))));
  const chosen = new Set<string>();
  for (const claim of toMatch) {
    const className = claimClassName(claim);
    const volumes = snapshot.objects.persistentVolumes.filter((v) => volumeClassName(v) === className);
    const found = findMatchingVolume(claim, volumes, node.labels, chosen);
    if (found.match) chosen.add(found.match.metadata?.name ?? '');
    else toProvision.push({ claim, candidates: found.rejected });
  }
  // checkVolumeProvisions: a claim without a matching PV needs a provisioner allowed on this node.
  const failing: UnbindableClaim[] = [];
  for (const { claim, candidates } of toProvision) {
    const className = claimClassName(claim);
    const storageClass = findStorageClass(snapshot, className);
    const provisioner = storageClass?.provisioner ?? '';
    const base = { claim: name(claim), storageClass: className, candidates };
    if (!provisioner || provisioner === notSupportedProvisioner) {
      failing.push({ ...base, cause: { why: 'noProvisioner', provisioner } });
    } else if (!matchesTopology(storageClass?.allowedTopologies, node.labels)) {
      failing.push({ ...base, cause: { why: 'topologyNotAllowed', allowedTopologies: (storageClass?.allowedTopologies ?? []).map(formatTopologyTerm) } });
    }
  }
  return failing;
}

function filterNode(ctx: RuleContext, node: NodeFacts): VolumeBindingReason[] {
  const analysis = analyze(ctx);
  if (analysis.state !== 'ready') return [];
  const reason = (detail: VolumeBindingDetail): VolumeBindingReason => ({ plugin: 'VolumeBinding', code: 'UnschedulableAndUnresolvable', detail });
  let conflict: VolumeBindingReason | undefined;
  let missing: VolumeBindingReason | undefined;
  // checkBoundClaims stops at the first bound claim whose PV is missing or does not fit.
  for (const claim of analysis.bound) {
    const pvName = claim.spec?.volumeName ?? '';
    const volume = findVolume(ctx.snapshot, pvName);
    if (!volume) {
      missing = reason({ kind: 'boundVolumeMissing', claim: claim.metadata?.name ?? '', pv: pvName });
      break;
    }
    const terms = volumeAffinityMisses(volume, node.labels, ctx.pod.pod);
    if (terms) {
      conflict = reason({ kind: 'volumeNodeAffinityConflict', claim: claim.metadata?.name ?? '', pv: pvName, terms });
      break;
    }
  }
  const unbindable = analysis.delayed.length > 0 ? unboundClaims(ctx.snapshot, analysis.delayed, node) : [];
  // The scheduler's order of reasons: node conflict, bind conflict, (not enough space), PV missing.
  const reasons: VolumeBindingReason[] = [];
  if (conflict) reasons.push(conflict);
  if (unbindable.length > 0) reasons.push(reason({ kind: 'noAvailableVolumeToBind', claims: unbindable }));
  if (missing) reasons.push(missing);
  return reasons;
}

const rule: FilterRule<'VolumeBinding', VolumeBindingDetail> = {
  meta: { name: 'VolumeBinding', kinds: ['bindingClaimNotFound', 'bindingClaimLost', 'bindingClaimBeingDeleted', 'ephemeralClaimNotForPod', 'unboundImmediateClaims', 'localVolumesNoCommonNode', 'outsideLocalVolumeNodes', 'volumeNodeAffinityConflict', 'noAvailableVolumeToBind', 'boundVolumeMissing'], narrowsNodes: true },
  needs: (pod) => (podClaimRefs(pod.pod).length > 0 ? ['nodes', 'persistentVolumeClaims', 'persistentVolumes', 'storageClasses'] : []),
  // A failure drawn from an object found (the claim's own state, a bound PV's node affinity)
  // stands; one drawn from an absence ("not found", "no PV to bind") needs that collection whole.
  provenDespiteGaps(detail, gaps) {
    const whole = (c: CollectionName) => !gaps.includes(c);
    switch (detail.kind) {
      case 'bindingClaimNotFound':
        return whole('persistentVolumeClaims');
      case 'boundVolumeMissing':
        return whole('persistentVolumes');
      case 'noAvailableVolumeToBind':
        return whole('persistentVolumes') && whole('storageClasses');
      case 'unboundImmediateClaims':
        return whole('storageClasses') || detail.claims.every((c) => c.cause === 'noStorageClass' || c.cause === 'bindingInProgress');
      default:
        return true;
    }
  },
  preFilter(ctx) {
    const analysis = analyze(ctx);
    if (analysis.state === 'failed') return { reasons: [analysis.reason] };
    // No claim: nothing to filter (upstream's Skip).
    if (analysis.state === 'skip') return { skip: true };
    return preFilterNarrowing(ctx.snapshot, analysis.bound);
  },
  filter: filterNode,
};

export default rule;
