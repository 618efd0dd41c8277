// VolumeZone (volumezone/volume_zone.go, v1.34): the zone and region labels of the PVs bound to
// the pod's PVCs must match the node's. PreFilter looks the claims up (only `persistentVolumeClaim`
// volumes, not generic ephemeral ones, as upstream) and fails the pod, unresolvably, when a claim,
// its StorageClass or its PV is missing, or when an unbound claim is not WaitForFirstConsumer.
// Filter: a node with none of the four topology labels passes (single-zone clusters); otherwise
// each PV label must be present on the node (a beta PV label may be met by the GA node label) with
// one of the PV's values (`a__b` lists several zones). Unresolvable, as upstream.
import type { V1PersistentVolume } from '@kubernetes/client-node';
import type { CollectionName, Snapshot } from '../../snapshot/types.js';
import type { FilterRule, NodeFacts, PodFacts, RuleReason, RuleContext } from '../model.js';
import { oncePerCycle } from '../cycleState.js';
import { podPinAgainst, type PinAgainstVolume } from '../story/pin.js';
import { claimClassName, findClaim, findStorageClass, findVolume, pvcNames } from '../volumes.js';

const betaZone = 'failure-domain.beta.kubernetes.io/zone';
const betaRegion = 'failure-domain.beta.kubernetes.io/region';
const gaZone = 'topology.kubernetes.io/zone';
const gaRegion = 'topology.kubernetes.io/region';

/** In the scheduler's order. */
const volumeTopologyLabels = [betaZone, betaRegion, gaZone, gaRegion] as const;

export type VolumeZoneLookupCause = 'claimNotFound' | 'claimHasNoVolumeOrClass' | 'storageClassNotFound' | 'unboundImmediate' | 'volumeNotFound';

export interface VolumeZoneMismatch {
  claim: string;
  pv: string;
  /** The PV's label key. */
  label: string;
  /** The zones (or regions) the PV allows. */
  values: string[];
  /** The node label compared: the PV's key, or its GA equivalent when the node lacks the beta one. */
  nodeLabel: string;
  /** The node's value; absent when the node has neither label. */
  nodeValue?: string;
  /** The pod's own pin on that label (nodeSelector, required affinity), when it has one. */
  podPin?: PinAgainstVolume;
}

export type VolumeZoneDetail =
  | { kind: 'volumeZoneLookupFailed'; cause: VolumeZoneLookupCause; claim: string; storageClass?: string; pv?: string }
  | { kind: 'volumeZoneConflict'; mismatches: VolumeZoneMismatch[] };

type VolumeZoneReason = RuleReason<'VolumeZone', VolumeZoneDetail>;

interface PvTopology {
  claim: string;
  pv: string;
  key: string;
  values: Set<string>;
}

type Analysis = { state: 'failed'; reason: VolumeZoneReason } | { state: 'ready'; topologies: PvTopology[] };

// volumehelpers.LabelZonesToSet: `__`-separated; an empty element makes the label unusable.
function zonesOf(value: string): Set<string> | undefined {
  const zones = value.split('__').map((z) => z.trim());
  return zones.some((z) => z === '') ? undefined : new Set(zones);
}

function topologiesOf(claim: string, volume: V1PersistentVolume): PvTopology[] {
  const labels = volume.metadata?.labels ?? {};
  const out: PvTopology[] = [];
  for (const key of volumeTopologyLabels) {
    const value = labels[key];
    if (value === undefined) continue;
    const values = zonesOf(value);
    if (values) out.push({ claim, pv: volume.metadata?.name ?? '', key, values });
  }
  return out;
}

const analyze = oncePerCycle((ctx: RuleContext) => analyzeUncached(ctx.snapshot, ctx.pod));

function analyzeUncached(snapshot: Snapshot, pod: PodFacts): Analysis {
  const failed = (detail: VolumeZoneDetail): Analysis => ({ state: 'failed', reason: { plugin: 'VolumeZone', code: 'UnschedulableAndUnresolvable', detail } });
  const topologies: PvTopology[] = [];
  for (const name of pvcNames(pod.pod)) {
    const claim = findClaim(snapshot, pod.namespace, name);
    if (!claim) return failed({ kind: 'volumeZoneLookupFailed', cause: 'claimNotFound', claim: name });
    const pvName = claim.spec?.volumeName ?? '';
    if (!pvName) {
      const className = claimClassName(claim);
      if (!className) return failed({ kind: 'volumeZoneLookupFailed', cause: 'claimHasNoVolumeOrClass', claim: name });
      const storageClass = findStorageClass(snapshot, className);
      if (!storageClass) return failed({ kind: 'volumeZoneLookupFailed', cause: 'storageClassNotFound', claim: name, storageClass: className });
      // The API defaults volumeBindingMode to Immediate, so a missing one is read as Immediate.
      if (storageClass.volumeBindingMode === 'WaitForFirstConsumer') continue;
      return failed({ kind: 'volumeZoneLookupFailed', cause: 'unboundImmediate', claim: name, storageClass: className });
    }
    const volume = findVolume(snapshot, pvName);
    if (!volume) return failed({ kind: 'volumeZoneLookupFailed', cause: 'volumeNotFound', claim: name, pv: pvName });
    topologies.push(...topologiesOf(name, volume));
  }
  return { state: 'ready', topologies };
}

function toGA(label: string): string {
  if (label === betaRegion) return gaRegion;
  if (label === betaZone) return gaZone;
  return label;
}

function filterNode(ctx: RuleContext, node: NodeFacts): VolumeZoneReason[] {
  const analysis = analyze(ctx);
  if (analysis.state !== 'ready' || analysis.topologies.length === 0) return [];
  if (!volumeTopologyLabels.some((key) => Object.hasOwn(node.labels, key))) return [];
  const mismatches: VolumeZoneMismatch[] = [];
  for (const t of analysis.topologies) {
    let nodeLabel = t.key;
    if (!Object.hasOwn(node.labels, nodeLabel)) nodeLabel = toGA(t.key);
    const nodeValue = Object.hasOwn(node.labels, nodeLabel) ? node.labels[nodeLabel] : undefined;
    if (nodeValue !== undefined && t.values.has(nodeValue)) continue;
    const mismatch: VolumeZoneMismatch = { claim: t.claim, pv: t.pv, label: t.key, values: [...t.values].sort(), nodeLabel };
    if (nodeValue !== undefined) mismatch.nodeValue = nodeValue;
    // A beta PV label is held against the pod's pin on it or on its GA twin, the label this
    // Filter falls back to; a node that carries both normally gives them one value.
    const pin = podPinAgainst(ctx.pod.pod, [...new Set([t.key, toGA(t.key)])], mismatch.values);
    if (pin) mismatch.podPin = pin;
    mismatches.push(mismatch);
  }
  // Upstream stops at the first mismatch; all are kept here, the first being the scheduler's.
  if (mismatches.length === 0) return [];
  return [{ plugin: 'VolumeZone', code: 'UnschedulableAndUnresolvable', detail: { kind: 'volumeZoneConflict', mismatches } }];
}

const rule: FilterRule<'VolumeZone', VolumeZoneDetail> = {
  meta: { name: 'VolumeZone', kinds: ['volumeZoneLookupFailed', 'volumeZoneConflict'] },
  needs: (pod) => (pvcNames(pod.pod).length > 0 ? ['nodes', 'persistentVolumeClaims', 'persistentVolumes', 'storageClasses'] : []),
  // A zone conflict read off a PV found stands; a lookup that failed on an absence needs that
  // collection whole.
  provenDespiteGaps(detail, gaps) {
    if (detail.kind !== 'volumeZoneLookupFailed') return true;
    const needed: Record<VolumeZoneLookupCause, CollectionName | undefined> = {
      claimNotFound: 'persistentVolumeClaims',
      claimHasNoVolumeOrClass: undefined,
      storageClassNotFound: 'storageClasses',
      unboundImmediate: 'storageClasses',
      volumeNotFound: 'persistentVolumes',
    };
    const collection = needed[detail.cause];
    return collection === undefined || !gaps.includes(collection);
  },
  preFilter(ctx) {
    // No claim: nothing to filter (upstream's Skip).
    if (pvcNames(ctx.pod.pod).length === 0) return { skip: true };
    const analysis = analyze(ctx);
    return analysis.state === 'failed' ? { reasons: [analysis.reason] } : {};
  },
  filter: filterNode,
};

export default rule;
