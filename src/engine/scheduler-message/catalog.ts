// Every wording kube-scheduler has used, v1.20 to v1.37 (and a few older ones still seen in
// the wild), for the reasons it counts in FailedScheduling / PodScheduled messages. The table
// is explicit on purpose: wordings change between releases, so each entry says which releases
// print it and where it comes from (kubernetes/kubernetes, pkg/scheduler/framework/plugins/
// unless said otherwise). Patterns are anchored and match the reason as printed after its count.
import { filterPluginOrder, type PluginName, type StatusCode } from '../plugins.js';

export interface Wording {
  /** Named groups become the reason's `detail` (resource, taint key/value, claim name, ...). */
  pattern: RegExp;
  /** Absent when the framework, not one plugin, speaks; see `pluginsGroup`. */
  plugin?: PluginName;
  code?: StatusCode;
  /** PreFilter reasons fail the pod before any node is looked at. */
  stage: 'filter' | 'preFilter';
  versions: string;
  /** v1.20–v1.21 InterPodAffinity printed a generic reason beside the specific one for the
   * same node, so the generic one is not a node of its own when both appear. */
  companion?: true;
  /** Detail the wording implies without naming it ("Too many pods" is the `pods` resource). */
  impliedDetail?: Record<string, string>;
}

const filter = (pattern: RegExp, plugin: PluginName | undefined, code: StatusCode | undefined, versions: string): Wording => ({
  pattern,
  stage: 'filter',
  versions,
  ...(plugin ? { plugin } : {}),
  ...(code ? { code } : {}),
});
const preFilter = (pattern: RegExp, plugin: PluginName | undefined, versions: string): Wording => ({
  // Every PreFilter wording below is UnschedulableAndUnresolvable in current releases: no
  // eviction changes a missing claim or class, so preemption skips them.
  ...filter(pattern, plugin, 'UnschedulableAndUnresolvable', versions),
  stage: 'preFilter',
});
const U = 'Unschedulable';
const UU = 'UnschedulableAndUnresolvable';
// A claim or volume name as Go's %q prints it.
const Q = '"(?<claim>[^"]*)"';

export const wordings: readonly Wording[] = [
  // nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable, ErrReasonUnknownCondition
  // (the legacy NodeUnschedulable / NodeUnknownCondition predicates before v1.18).
  filter(/^node\(s\) were unschedulable$/, 'NodeUnschedulable', UU, 'all'),
  filter(/^node\(s\) had unknown conditions$/, 'NodeUnschedulable', UU, 'all'),

  // nodename/node_name.go ErrReason; the legacy HostName predicate said "hostname".
  filter(/^node\(s\) didn't match the requested node name$/, 'NodeName', UU, 'v1.18+'),
  filter(/^node\(s\) didn't match the requested hostname$/, 'NodeName', UU, '<= v1.17 (HostName predicate)'),

  // tainttoleration/taint_toleration.go Filter. Three wordings since v1.20:
  // PR #87250 (v1.18) "had taint {%s: %s}, that the pod didn't tolerate";
  // PR #109119 (v1.25) "had untolerated taint {%s: %s}";
  // PR #134740 (v1.35; cherry-picked to release-1.34 as #135023) "had untolerated taint(s)",
  // because taint keys and values can be sensitive.
  filter(/^node\(s\) had untolerated taint\(s\)$/, 'TaintToleration', UU, 'v1.35+, v1.34 patch releases from Nov 2025'),
  filter(/^node\(s\) had untolerated taint \{(?<key>[^{}]*?): (?<value>[^{}]*)\}$/, 'TaintToleration', UU, 'v1.25-v1.34'),
  filter(/^node\(s\) had taint \{(?<key>[^{}]*?): (?<value>[^{}]*)\}, that the pod didn't tolerate$/, 'TaintToleration', UU, 'v1.18-v1.24'),
  // ErrReasonNotMatch; the legacy PodToleratesNodeTaints predicate.
  filter(/^node\(s\) had taints that the pod didn't tolerate$/, 'TaintToleration', UU, '<= v1.17'),

  // nodeaffinity/node_affinity.go ErrReasonPod (was ErrReason, the legacy MatchNodeSelector
  // predicate's words), errReasonEnforced (NodeAffinityArgs.addedAffinity), errReasonConflict.
  filter(/^node\(s\) didn't match Pod's node affinity\/selector$/, 'NodeAffinity', UU, 'v1.22+'),
  filter(/^node\(s\) didn't match Pod's node affinity$/, 'NodeAffinity', UU, 'v1.21'),
  filter(/^node\(s\) didn't match node selector$/, 'NodeAffinity', UU, '<= v1.20'),
  filter(/^node\(s\) didn't match scheduler-enforced node affinity$/, 'NodeAffinity', UU, 'v1.21+'),
  preFilter(/^pod affinity terms conflict$/, 'NodeAffinity', 'v1.24+ (matchFields metadata.name terms that name no common node)'),

  // nodeports/node_ports.go ErrReason.
  filter(/^node\(s\) didn't have free ports for the requested pod ports$/, 'NodePorts', U, 'all'),

  // noderesources/fit.go fitsRequest: "Insufficient %v" per resource (every failing one is
  // kept, so one node can count several times), "Too many pods" since v1.18 (the legacy
  // predicate said "Insufficient pods"). Unschedulable; since PR #131345 (v1.34)
  // UnschedulableAndUnresolvable when the request exceeds the node's whole allocatable,
  // which the wording does not show, hence no code here.
  filter(/^Insufficient (?<resource>\S+)$/, 'NodeResourcesFit', undefined, 'all'),
  { ...filter(/^Too many pods$/, 'NodeResourcesFit', undefined, 'v1.18+'), impliedDetail: { resource: 'pods' } },

  // volumerestrictions/volume_restrictions.go ErrReasonDiskConflict,
  // ErrReasonReadWriteOncePodConflict (PreFilter-time check before v1.27, Filter since).
  filter(/^node\(s\) had no available disk$/, 'VolumeRestrictions', U, 'all'),
  filter(/^node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode$/, 'VolumeRestrictions', U, 'v1.22+'),
  // The PVC lister's NotFound error. VolumeRestrictions' PreFilter reads every PVC first since
  // ReadWriteOncePod is on by default (v1.27); before that VolumeBinding's podHasPVCs said it.
  preFilter(new RegExp(`^persistentvolumeclaim ${Q} not found$`), 'VolumeRestrictions', 'v1.27+ (VolumeBinding before)'),

  // nodevolumelimits/csi.go (and the retired non-CSI limits) ErrReasonMaxVolumeCountExceeded.
  filter(/^node\(s\) exceed max volume count$/, 'NodeVolumeLimits', U, 'all'),
  // csi.go with VolumeLimitScaling (alpha v1.35, beta and on by default v1.37): a CSIDriver with
  // spec.preventPodSchedulingIfMissing whose driver the node's CSINode does not list. The
  // driver's name comes first ("%s CSI driver is not installed on the node", as the e2e test
  // test/e2e/storage/... waits for it). No code here: not confirmed from csi.go itself.
  filter(/^(?<driver>\S+) CSI driver is not installed on the node$/, 'NodeVolumeLimits', undefined, 'v1.35+ (VolumeLimitScaling; on by default from v1.37)'),

  // volumebinding/binder.go ConflictReasons (a node can get several) and volume_binding.go
  // PreFilter / podHasPVCs. ErrReasonNodeConflict was renamed by PR #129887.
  filter(/^node\(s\) didn't find available persistent volumes to bind$/, 'VolumeBinding', UU, 'all'),
  filter(/^node\(s\) didn't match PersistentVolume's node affinity$/, 'VolumeBinding', UU, 'v1.33+'),
  filter(/^node\(s\) had volume node affinity conflict$/, 'VolumeBinding', UU, '<= v1.32'),
  filter(/^node\(s\) did not have enough free storage$/, 'VolumeBinding', UU, 'v1.19+'),
  filter(/^node\(s\) unavailable due to one or more pvc\(s\) bound to non-existent pv\(s\)$/, 'VolumeBinding', UU, 'v1.21+'),
  preFilter(/^pod has unbound immediate PersistentVolumeClaims$/, 'VolumeBinding', 'all'),
  preFilter(new RegExp(`^persistentvolumeclaim ${Q} is being deleted$`), 'VolumeBinding', 'all'),
  preFilter(new RegExp(`^persistentvolumeclaim ${Q} bound to non-existent persistentvolume "(?<volume>[^"]*)"$`), 'VolumeBinding', 'v1.2x+'),
  preFilter(new RegExp(`^waiting for ephemeral volume controller to create the persistentvolumeclaim ${Q}$`), 'VolumeBinding', 'v1.22+'),
  preFilter(new RegExp(`^persistentvolumeclaim ${Q} was not created for the pod$`), 'VolumeBinding', 'v1.19-v1.2x'),

  // volumezone/volume_zone.go ErrReasonConflict.
  filter(/^node\(s\) had no available volume zone$/, 'VolumeZone', UU, 'all'),

  // podtopologyspread/filtering.go ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch.
  filter(/^node\(s\) didn't match pod topology spread constraints$/, 'PodTopologySpread', U, 'all'),
  filter(/^node\(s\) didn't match pod topology spread constraints \(missing required label\)$/, 'PodTopologySpread', UU, 'all'),

  // interpodaffinity/filtering.go. ErrReasonAffinityNotMatch came with every specific reason
  // until PR #102518 (v1.22) dropped it.
  filter(/^node\(s\) didn't satisfy existing pods anti-affinity rules$/, 'InterPodAffinity', U, 'all'),
  filter(/^node\(s\) didn't match pod affinity rules$/, 'InterPodAffinity', UU, 'all'),
  filter(/^node\(s\) didn't match pod anti-affinity rules$/, 'InterPodAffinity', U, 'all'),
  { ...filter(/^node\(s\) didn't match pod affinity\/anti-affinity$/, 'InterPodAffinity', undefined, '<= v1.20'), companion: true },
  { ...filter(/^node\(s\) didn't match pod affinity\/anti-affinity rules$/, 'InterPodAffinity', undefined, 'v1.21'), companion: true },

  // dynamicresources/dynamicresources.go, statusUnschedulable (always UnschedulableAndUnresolvable).
  filter(/^cannot allocate all claims$/, 'DynamicResources', UU, 'v1.30+ (structured parameters)'),
  filter(/^resourceclaim not available on the node$/, 'DynamicResources', UU, 'v1.26+'),
  filter(/^resourceclaim cannot be allocated for the node \((?:unsuitable|not suitable)\)$/, 'DynamicResources', UU, 'v1.26-v1.31 (control-plane controller)'),
  // DRAExtendedResource (alpha v1.34, beta v1.36, GA v1.37): a claim the scheduler made for an
  // extended resource in an earlier cycle; PostFilter deletes it and the pod is retried.
  filter(/^cannot schedule extended resource claim$/, 'DynamicResources', UU, 'v1.34+ (DRAExtendedResource)'),
  // DRASchedulerFilterTimeout: the allocator ran out of its per-node time (10 s by default).
  filter(/^timed out trying to allocate devices$/, 'DynamicResources', UU, 'v1.34+ (DRASchedulerFilterTimeout)'),
  preFilter(/^resourceclaim in use$/, 'DynamicResources', 'v1.26+'),
  preFilter(/^resource claim (?<claim>\S+) is in the process of being allocated$/, 'DynamicResources', 'v1.31+'),
  preFilter(/^request (?<request>\S+): device class (?<deviceClass>\S+) does not exist$/, 'DynamicResources', 'v1.31+'),
  preFilter(new RegExp(`^resourceclaim(?:\\.resource\\.k8s\\.io)? ${Q} (?:not found|is being deleted)$`), 'DynamicResources', 'v1.26+'),

  // The framework's own words for nodes a PreFilterResult left out (schedule_one.go):
  // "node is filtered out by the prefilter result" (v1.24, PreFilterResult in PR #108648),
  // replaced by naming the plugins (PR #122251). NodeAffinity (matchFields metadata.name, as
  // DaemonSet pods have) and, v1.25-v1.31, VolumeBinding (bound local PVs) narrow nodes.
  filter(/^node is filtered out by the prefilter result$/, undefined, UU, 'v1.24-v1.29'),
  filter(/^node\(s\) didn't satisfy plugin\(s\) \[(?<plugins>[^\]]*)\]$/, undefined, UU, 'v1.30+'),
  // runtime/framework.go RunPreFilterPlugins: the PreFilterResults have no node in common.
  preFilter(/^node\(s\) didn't satisfy plugin\(s\) \[(?<plugins>[^\]]*)\] simultaneously$/, undefined, 'v1.24+'),
  preFilter(/^node\(s\) didn't satisfy plugin (?<plugins>\S+)$/, undefined, 'v1.24+'),
];

/** The plugin a framework reason names ("didn't satisfy plugin(s) [NodeAffinity]"), when just one. */
export function pluginsGroup(detail: Record<string, string> | undefined): PluginName | undefined {
  const [only, ...more] = detail?.['plugins']?.split(' ').filter(Boolean) ?? [];
  return more.length === 0 ? filterPluginOrder.find((plugin) => plugin === only) : undefined;
}

// framework/preemption/preemption.go and defaultpreemption/default_preemption.go, printed
// after "preemption: 0/N nodes are available: " since PR #107775 (v1.24); PR #108705 (also
// v1.24) made the per-node "No victims found on node X for preemptor pod Y" countable.
export const preemptionWords = {
  notHelpful: 'Preemption is not helpful for scheduling',
  noVictims: 'No preemption victims found for incoming pod',
} as const;

// DefaultPreemption's status when it found a node and evicts victims, v1.37+ (PR #140180:
// fwk.NewStatus(fwk.Success, fmt.Sprintf("found a potential placement for pod on node %v,
// preempting %d victims", ...))). Before v1.37 a successful preemption left no PostFilter words.
// The message has no final period.
export const preemptionPlacement = /^found a potential placement for pod on node (?<node>\S+), preempting (?<victims>\d+) victims$/;

/** What can follow "preemption: ", besides the per-node counts, and since when. */
export const preemptionStatements: readonly { pattern: RegExp; versions: string }[] = [
  { pattern: /^0\/\d+ nodes are available: /, versions: 'v1.24+' },
  // PodEligibleToPreemptOthers.
  { pattern: /^not eligible due to preemptionPolicy=Never\.?$/, versions: 'v1.24+' },
  { pattern: /^not eligible due to a terminating pod on the nominated node\.?$/, versions: 'v1.24+' },
  { pattern: preemptionPlacement, versions: 'v1.37+' },
];

// Other PostFilter plugins speak before preemption, joined with ", " (RunPostFilterPlugins):
// DynamicResources' PostFilter, in the default profile since DRA went GA (v1.34). From v1.37 it
// says nothing for a pod without claims, so "no new claims to deallocate" is gone from every
// message (seen on a real v1.37.2 control plane); it still speaks for pods with claims.
export const postFilterWords: readonly string[] = [
  'no new claims to deallocate',
  'still not schedulable',
  'deallocation of ResourceClaim completed',
  'deletion of ResourceClaim completed',
  // v1.34 after a PreFilter rejection: DynamicResources' PostFilter finds no state of its own
  // (its PreFilter never ran) and answers with the CycleState lookup's error, "not found".
  'not found',
];

// core/v1 PodReasonSchedulingGated's message, set by the apiserver (pkg/registry/core/pod).
export const gatedMessage = 'Scheduling is blocked due to non-empty scheduling gates';
// scheduler.go / schedule_one.go ErrNoNodesAvailable: the cluster has no nodes at all.
export const noNodesMessage = 'no nodes available to schedule pods';

/** The catalog entry a reason text (as printed after its count) matches, first match wins. */
export function wordingFor(text: string): Wording | undefined {
  return wordings.find((wording) => wording.pattern.test(text));
}
