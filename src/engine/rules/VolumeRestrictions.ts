// VolumeRestrictions (volumerestrictions/volume_restrictions.go, v1.34).
// PreFilter: looks up every PVC the pod names (`persistentVolumeClaim` volumes only); a missing
// one fails the pod, unresolvably. It notes which of them are ReadWriteOncePod and already used
// by a pod bound to any node.
// Filter, on every node: a disk conflict (the same GCE PD, AWS EBS volume, RBD image or iSCSI
// IQN used by a pod on this node, unless both mount it read-only; EBS conflicts even then), then
// the ReadWriteOncePod conflict, which is cluster-wide and so fails every node alike. Both are
// Unschedulable: evicting the pod that holds the disk or the claim would free it.
import type { V1Pod, V1Volume } from '@kubernetes/client-node';
import { podKey } from '../facts.js';
import type { FilterRule, NodeFacts, RuleReason, RuleContext } from '../model.js';
import { oncePerCycle } from '../cycleState.js';
import { findClaim, pvcNames } from '../volumes.js';

export interface DiskRef {
  type: 'gcePersistentDisk' | 'awsElasticBlockStore' | 'rbd' | 'iscsi';
  /** PD name, EBS volume ID, `pool/image` for RBD, IQN for iSCSI. */
  id: string;
}

export interface DiskConflict {
  /** The pending pod's volume. */
  volume: string;
  disk: DiskRef;
  /** The pod on the node that uses the same disk, `namespace/name`. */
  pod: string;
}

export interface ReadWriteOncePodUse {
  claim: string;
  usedBy: { pod: string; node: string }[];
}

export type VolumeRestrictionsDetail =
  | { kind: 'restrictionsClaimNotFound'; claim: string }
  | { kind: 'diskConflict'; conflicts: DiskConflict[] }
  | { kind: 'readWriteOncePodInUse'; claims: ReadWriteOncePodUse[] };

type VolumeRestrictionsReason = RuleReason<'VolumeRestrictions', VolumeRestrictionsDetail>;

type Analysis = { state: 'failed'; reason: VolumeRestrictionsReason } | { state: 'ready'; readWriteOncePod: ReadWriteOncePodUse[] };

function needsRestrictionsCheck(volume: V1Volume): boolean {
  return Boolean(volume.gcePersistentDisk || volume.awsElasticBlockStore || volume.rbd || volume.iscsi);
}

const analyze = oncePerCycle(analyzeUncached);

function analyzeUncached(ctx: RuleContext): Analysis {
  const { pod, snapshot } = ctx;
  const rwop: string[] = [];
  for (const name of pvcNames(pod.pod)) {
    const claim = findClaim(snapshot, pod.namespace, name);
    if (!claim) {
      return { state: 'failed', reason: { plugin: 'VolumeRestrictions', code: 'UnschedulableAndUnresolvable', detail: { kind: 'restrictionsClaimNotFound', claim: name } } };
    }
    if ((claim.spec?.accessModes ?? []).includes('ReadWriteOncePod') && !rwop.includes(name)) rwop.push(name);
  }
  // The scheduler's snapshot counts a claim as used when a pod bound to a known node mounts it.
  const uses = rwop.map((claim): ReadWriteOncePodUse => ({ claim, usedBy: [] }));
  if (uses.length === 0) return { state: 'ready', readWriteOncePod: [] };
  for (const node of ctx.nodes) {
    for (const other of node.pods) {
      if ((other.metadata?.namespace ?? 'default') !== pod.namespace) continue;
      for (const use of uses) {
        if (pvcNames(other).includes(use.claim)) use.usedBy.push({ pod: podKey(other), node: node.name });
      }
    }
  }
  return { state: 'ready', readWriteOncePod: uses.filter((u) => u.usedBy.length > 0) };
}

function haveOverlap(a: string[], b: string[]): boolean {
  return a.some((x) => b.includes(x));
}

// isVolumeConflict: the disk of `volume` as it conflicts with a volume of `other`, if it does.
function conflictingDisk(volume: V1Volume, other: V1Pod): DiskRef | undefined {
  for (const existing of other.spec?.volumes ?? []) {
    const gce = volume.gcePersistentDisk;
    const otherGce = existing.gcePersistentDisk;
    if (gce && otherGce && gce.pdName === otherGce.pdName && !(gce.readOnly && otherGce.readOnly)) {
      return { type: 'gcePersistentDisk', id: gce.pdName };
    }
    const ebs = volume.awsElasticBlockStore;
    if (ebs && existing.awsElasticBlockStore && ebs.volumeID === existing.awsElasticBlockStore.volumeID) {
      return { type: 'awsElasticBlockStore', id: ebs.volumeID };
    }
    const iscsi = volume.iscsi;
    const otherIscsi = existing.iscsi;
    if (iscsi && otherIscsi && iscsi.iqn === otherIscsi.iqn && !(iscsi.readOnly && otherIscsi.readOnly)) {
      return { type: 'iscsi', id: iscsi.iqn };
    }
    const rbd = volume.rbd;
    const otherRbd = existing.rbd;
    // The API defaults the pool to "rbd"; an unset pool is read as the scheduler would see it.
    if (
      rbd &&
      otherRbd &&
      haveOverlap(rbd.monitors, otherRbd.monitors) &&
      (rbd.pool ?? 'rbd') === (otherRbd.pool ?? 'rbd') &&
      rbd.image === otherRbd.image &&
      !(rbd.readOnly && otherRbd.readOnly)
    ) {
      return { type: 'rbd', id: `${rbd.pool ?? 'rbd'}/${rbd.image}` };
    }
  }
  return undefined;
}

function diskConflicts(pod: V1Pod, node: NodeFacts): DiskConflict[] {
  const out: DiskConflict[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    if (!needsRestrictionsCheck(volume)) continue;
    for (const other of node.pods) {
      const disk = conflictingDisk(volume, other);
      if (disk) out.push({ volume: volume.name, disk, pod: podKey(other) });
    }
  }
  return out;
}

function filterNode(ctx: RuleContext, node: NodeFacts): VolumeRestrictionsReason[] {
  const reasons: VolumeRestrictionsReason[] = [];
  // Upstream returns the disk conflict alone when both apply; both are kept, disk first.
  const conflicts = diskConflicts(ctx.pod.pod, node);
  if (conflicts.length > 0) reasons.push({ plugin: 'VolumeRestrictions', code: 'Unschedulable', detail: { kind: 'diskConflict', conflicts } });
  const analysis = analyze(ctx);
  if (analysis.state === 'ready' && analysis.readWriteOncePod.length > 0) {
    reasons.push({ plugin: 'VolumeRestrictions', code: 'Unschedulable', detail: { kind: 'readWriteOncePodInUse', claims: analysis.readWriteOncePod } });
  }
  return reasons;
}

const hasClaims = (pod: V1Pod) => pvcNames(pod).length > 0;
const hasDisks = (pod: V1Pod) => (pod.spec?.volumes ?? []).some(needsRestrictionsCheck);

const rule: FilterRule<'VolumeRestrictions', VolumeRestrictionsDetail> = {
  meta: { name: 'VolumeRestrictions', kinds: ['restrictionsClaimNotFound', 'diskConflict', 'readWriteOncePodInUse'] },
  // A conflict found with a pod that holds the disk or claim stays; a claim "not found" in a
  // partial input proves nothing.
  provenDespiteGaps: (detail, gaps) => detail.kind !== 'restrictionsClaimNotFound' || !gaps.includes('persistentVolumeClaims'),
  needs: (pod) => {
    if (hasClaims(pod.pod)) return ['pods', 'persistentVolumeClaims'];
    return hasDisks(pod.pod) ? ['pods'] : [];
  },
  preFilter(ctx) {
    // Neither a claim nor a disk that can conflict: nothing to filter (upstream's Skip).
    if (!hasClaims(ctx.pod.pod) && !hasDisks(ctx.pod.pod)) return { skip: true };
    const analysis = analyze(ctx);
    return analysis.state === 'failed' ? { reasons: [analysis.reason] } : {};
  },
  filter: filterNode,
};

export default rule;
