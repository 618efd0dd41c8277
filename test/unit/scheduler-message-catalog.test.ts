// The catalog, row by row: every reason string kube-scheduler prints, with the plugin that
// prints it, whether it is a Filter or a PreFilter reason, and the releases that print it
// (kubernetes/kubernetes, pkg/scheduler/framework/plugins/<plugin>/ unless said otherwise).
// Each row must be read by exactly the catalog entry that says so, and each catalog entry must
// have a row: a wording dropped from the catalog, or added without a row, fails here.
import { describe, expect, it } from 'vitest';
import { postFilterWords, preemptionStatements, wordingFor as wordingIn } from '../../src/engine/scheduler-message/catalog.js';
import { parseSchedulerMessage as parseWith } from '../../src/engine/scheduler-message/index.js';
import { ruleSet } from '../../src/messages/registry.js';

// The catalog the registry builds (src/messages/registry.ts): each plugin's wordings, then the framework's.
const { catalog } = ruleSet;
const { wordings } = catalog;
const wordingFor = (text: string) => wordingIn(catalog, text);
const parseSchedulerMessage = (message: string) => parseWith(catalog, message);

type Plugin = string | null; // null: the framework speaks, not one plugin
interface Row {
  plugin: Plugin;
  stage: 'filter' | 'preFilter';
  /** The reason as printed after its count (a Filter reason) or alone (a PreFilter one). */
  text: string;
  versions: string;
  source: string;
}

const row = (plugin: Plugin, stage: Row['stage'], text: string, versions: string, source: string): Row => ({ plugin, stage, text, versions, source });
const F = 'filter';
const P = 'preFilter';

const catalogTable: Row[] = [
  row('NodeUnschedulable', F, 'node(s) were unschedulable', 'all', 'nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable'),
  row('NodeUnschedulable', F, 'node(s) had unknown conditions', 'all', 'nodeunschedulable/node_unschedulable.go ErrReasonUnknownCondition'),
  row('NodeName', F, "node(s) didn't match the requested node name", 'v1.18+', 'nodename/node_name.go ErrReason'),
  row('NodeName', F, "node(s) didn't match the requested hostname", '<= v1.17 (HostName predicate)', 'algorithm/predicates ErrHostName'),
  row('TaintToleration', F, 'node(s) had untolerated taint(s)', 'v1.35+, v1.34 patch releases from Nov 2025', 'tainttoleration/taint_toleration.go Filter (PR #134740, #135023)'),
  row('TaintToleration', F, 'node(s) had untolerated taint {dedicated: gpu}', 'v1.25-v1.34', 'tainttoleration/taint_toleration.go Filter (PR #109119)'),
  row('TaintToleration', F, "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate", 'v1.18-v1.24', 'tainttoleration/taint_toleration.go Filter (PR #87250)'),
  row('TaintToleration', F, "node(s) had taints that the pod didn't tolerate", '<= v1.17', 'tainttoleration/taint_toleration.go ErrReasonNotMatch'),
  row('NodeAffinity', F, "node(s) didn't match Pod's node affinity/selector", 'v1.22+', 'nodeaffinity/node_affinity.go ErrReasonPod'),
  row('NodeAffinity', F, "node(s) didn't match Pod's node affinity", 'v1.21', 'nodeaffinity/node_affinity.go ErrReasonPod'),
  row('NodeAffinity', F, "node(s) didn't match node selector", '<= v1.20', 'nodeaffinity/node_affinity.go ErrReason (MatchNodeSelector)'),
  row('NodeAffinity', F, "node(s) didn't match scheduler-enforced node affinity", 'v1.21+', 'nodeaffinity/node_affinity.go errReasonEnforced'),
  row('NodeAffinity', P, 'pod affinity terms conflict', 'v1.24+ (matchFields metadata.name terms that name no common node)', 'nodeaffinity/node_affinity.go errReasonConflict'),
  row('NodePorts', F, "node(s) didn't have free ports for the requested pod ports", 'all', 'nodeports/node_ports.go ErrReason'),
  row('NodeResourcesFit', F, 'Insufficient cpu', 'all', 'noderesources/fit.go fitsRequest "Insufficient %v"'),
  row('NodeResourcesFit', F, 'Insufficient nvidia.com/gpu', 'all', 'noderesources/fit.go fitsRequest "Insufficient %v"'),
  row('NodeResourcesFit', F, 'Too many pods', 'v1.18+', 'noderesources/fit.go fitsRequest'),
  row(
    'NodeResourcesFit',
    P,
    'Pod has a restartable init container and the SidecarContainers feature is disabled',
    'v1.28+ (SidecarContainers off; on by default from v1.29)',
    'noderesources/fit.go PreFilter',
  ),
  row('VolumeRestrictions', F, 'node(s) had no available disk', 'all', 'volumerestrictions/volume_restrictions.go ErrReasonDiskConflict'),
  row(
    'VolumeRestrictions',
    F,
    'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode',
    'v1.22+',
    'volumerestrictions/volume_restrictions.go ErrReasonReadWriteOncePodConflict',
  ),
  row('VolumeRestrictions', P, 'persistentvolumeclaim "data" not found', 'v1.27+ (VolumeBinding before)', 'the PVC lister\'s NotFound, volumerestrictions PreFilter'),
  row('NodeVolumeLimits', F, 'node(s) exceed max volume count', 'all', 'nodevolumelimits/csi.go ErrReasonMaxVolumeCountExceeded'),
  row('NodeVolumeLimits', F, 'ebs.csi.aws.com CSI driver is not installed on the node', 'v1.35+ (VolumeLimitScaling; on by default from v1.37)', 'nodevolumelimits/csi.go, test/e2e/storage "%s CSI driver is not installed on the node"'),
  row('VolumeBinding', F, "node(s) didn't find available persistent volumes to bind", 'all', 'volumebinding/binder.go ErrReasonBindConflict'),
  row('VolumeBinding', F, "node(s) didn't match PersistentVolume's node affinity", 'v1.33+', 'volumebinding/binder.go ErrReasonNodeConflict (PR #129887)'),
  row('VolumeBinding', F, 'node(s) had volume node affinity conflict', '<= v1.32', 'volumebinding/binder.go ErrReasonNodeConflict'),
  row('VolumeBinding', F, 'node(s) did not have enough free storage', 'v1.19+', 'volumebinding/binder.go ErrReasonNotEnoughSpace'),
  row('VolumeBinding', F, 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)', 'v1.21+', 'volumebinding/binder.go ErrReasonPVNotExist'),
  row('VolumeBinding', P, 'pod has unbound immediate PersistentVolumeClaims', 'all', 'volumebinding/volume_binding.go PreFilter'),
  row('VolumeBinding', P, 'persistentvolumeclaim "data" is being deleted', 'all', 'volumebinding/volume_binding.go podHasPVCs'),
  row('VolumeBinding', P, 'persistentvolumeclaim "data" bound to non-existent persistentvolume "pv-1"', 'v1.2x+', 'volumebinding/volume_binding.go podHasPVCs'),
  row('VolumeBinding', P, 'waiting for ephemeral volume controller to create the persistentvolumeclaim "web-0-scratch"', 'v1.22+', 'volumebinding/volume_binding.go podHasPVCs'),
  row('VolumeBinding', P, 'persistentvolumeclaim "web-0-scratch" was not created for the pod', 'v1.19-v1.2x', 'component-helpers ephemeral.VolumeIsForPod'),
  row('VolumeZone', F, 'node(s) had no available volume zone', 'all', 'volumezone/volume_zone.go ErrReasonConflict'),
  row('PodTopologySpread', F, "node(s) didn't match pod topology spread constraints", 'all', 'podtopologyspread/filtering.go ErrReasonConstraintsNotMatch'),
  row('PodTopologySpread', F, "node(s) didn't match pod topology spread constraints (missing required label)", 'all', 'podtopologyspread/filtering.go ErrReasonNodeLabelNotMatch'),
  row('InterPodAffinity', F, "node(s) didn't satisfy existing pods anti-affinity rules", 'all', 'interpodaffinity/filtering.go ErrReasonExistingAntiAffinityRulesNotMatch'),
  row('InterPodAffinity', F, "node(s) didn't match pod affinity rules", 'all', 'interpodaffinity/filtering.go ErrReasonAffinityRulesNotMatch'),
  row('InterPodAffinity', F, "node(s) didn't match pod anti-affinity rules", 'all', 'interpodaffinity/filtering.go ErrReasonAntiAffinityRulesNotMatch'),
  row('InterPodAffinity', F, "node(s) didn't match pod affinity/anti-affinity", '<= v1.20', 'interpodaffinity/filtering.go ErrReasonAffinityNotMatch'),
  row('InterPodAffinity', F, "node(s) didn't match pod affinity/anti-affinity rules", 'v1.21', 'interpodaffinity/filtering.go ErrReasonAffinityNotMatch (PR #102518 dropped it in v1.22)'),
  row('DynamicResources', F, 'cannot allocate all claims', 'v1.30+ (structured parameters)', 'dynamicresources/dynamicresources.go Filter'),
  row('DynamicResources', F, 'resourceclaim not available on the node', 'v1.26+', 'dynamicresources/dynamicresources.go Filter'),
  row('DynamicResources', F, 'resourceclaim cannot be allocated for the node (unsuitable)', 'v1.26-v1.31 (control-plane controller)', 'dynamicresources/dynamicresources.go Filter'),
  row('DynamicResources', F, 'cannot schedule extended resource claim', 'v1.34+ (DRAExtendedResource)', 'dynamicresources/extendeddynamicresources.go'),
  row('DynamicResources', F, 'cannot fit resource', 'v1.34+ (DRAExtendedResource)', 'dynamicresources/extendeddynamicresources.go filterExtendedResources'),
  row('DynamicResources', F, 'timed out trying to allocate devices', 'v1.34+ (DRASchedulerFilterTimeout)', 'dynamicresources/dynamicresources.go Filter'),
  row('DynamicResources', F, 'claim default/my-pod-my-resource: selector #0: CEL runtime error: no such key: healthy', 'releases that report allocation errors per node', 'dynamicresources_test.go "CEL-runtime-error" (Filter status of the allocator\'s error)'),
  row('DynamicResources', P, 'resourceclaim in use', 'v1.26+', 'dynamicresources/dynamicresources.go PreFilter'),
  row('DynamicResources', P, 'resource claim gpu-claim is in the process of being allocated', 'v1.31+', 'dynamicresources/dynamicresources.go PreFilter'),
  row('DynamicResources', P, 'request gpu: device class gpu.example.com does not exist', 'v1.31+', 'dynamicresources/dynamicresources.go PreFilter'),
  row('DynamicResources', P, 'resourceclaim.resource.k8s.io "gpu-claim" not found', 'v1.26+', 'the claim lister\'s NotFound, dynamicresources PreFilter'),
  row('DynamicResources', P, 'ResourceClaim ml/p-gpu-x7k2 was not created for pod ml/p (pod is not owner)', 'v1.28+', 'dynamic-resource-allocation/resourceclaim IsForPod, dynamicresources PreFilter'),
  row('NodeDeclaredFeatures', F, "node(s) didn't match Pod's required features", 'v1.36+', 'nodedeclaredfeatures/nodedeclaredfeatures.go errReasonUnsatisfiedRequirements'),
  row(
    'NodeDeclaredFeatures',
    F,
    'node declared features check failed - unsatisfied requirements: RestartAllContainersOnContainerExits',
    'v1.35 (NodeDeclaredFeatures alpha gate)',
    'nodedeclaredfeatures/nodedeclaredfeatures.go Filter (v1.35.x, fmt.Sprintf of MatchNodeFeatureSet\'s UnsatisfiedRequirements)',
  ),
  row(null, F, 'node is filtered out by the prefilter result', 'v1.24-v1.29', 'schedule_one.go (PR #108648)'),
  row(null, F, "node(s) didn't satisfy plugin(s) [NodeAffinity]", 'v1.30+', 'schedule_one.go (PR #122251)'),
  row(null, P, "node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] simultaneously", 'v1.24+', 'runtime/framework.go RunPreFilterPlugins'),
  row(null, P, "node(s) didn't satisfy plugin NodeAffinity", 'v1.24+', 'runtime/framework.go RunPreFilterPlugins'),
];

describe('the catalog, one row per reason string', () => {
  it.each(catalogTable.map((r) => [`${r.plugin ?? 'framework'} (${r.versions}): ${r.text}`, r] as const))('%s', (_name, r) => {
    const wording = wordingFor(r.text);
    expect(wording, `no catalog entry reads "${r.text}" (${r.source})`).toBeDefined();
    expect(wording?.plugin ?? null).toBe(r.plugin);
    expect(wording?.stage).toBe(r.stage);
    expect(wording?.versions).toBe(r.versions);
  });

  it('every catalog entry has a row', () => {
    const covered = new Set(catalogTable.map((r) => wordingFor(r.text)));
    const missing = wordings.filter((w) => !covered.has(w)).map((w) => w.pattern.source);
    expect(missing).toEqual([]);
  });

  it.each(catalogTable.filter((r) => r.stage === 'filter').map((r) => [r.text, r] as const))('reads as a counted reason: %s', (_text, r) => {
    const parsed = parseSchedulerMessage(`0/2 nodes are available: 2 ${r.text}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.`);
    expect(parsed.unknownReasons).toEqual([]);
    expect(parsed.reasons[0]?.count).toBe(2);
    expect(parsed.truncated).toBe(false);
  });

  it.each(catalogTable.filter((r) => r.stage === 'preFilter').map((r) => [r.text, r] as const))('reads as a PreFilter rejection: %s', (_text, r) => {
    const parsed = parseSchedulerMessage(`0/2 nodes are available: ${r.text}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.`);
    expect(parsed.kind).toBe('preFilter');
    expect(parsed.preFilterReason?.text).toBe(r.text);
  });
});

// What follows "preemption: ", and the other PostFilter words before it.
const preemptionTable: [string, string][] = [
  ['0/3 nodes are available: 3 Preemption is not helpful for scheduling', 'v1.24+'],
  ['not eligible due to preemptionPolicy=Never.', 'v1.24+'],
  ['not eligible due to a terminating pod on the nominated node.', 'v1.24+'],
  ['found a potential placement for pod on node worker-1, preempting 1 victims', 'v1.37+'],
];

describe('the preemption statements, with the releases that print them', () => {
  it.each(preemptionTable)('%s', (text, versions) => {
    const matched = preemptionStatements.filter((s) => s.pattern.test(text));
    expect(matched.map((s) => s.versions)).toEqual([versions]);
  });

  it('every statement has a row', () => {
    expect(preemptionStatements.filter((s) => !preemptionTable.some(([text]) => s.pattern.test(text)))).toEqual([]);
  });

  it('the DynamicResources PostFilter words (v1.34+; none for a pod without claims from v1.37)', () => {
    expect(postFilterWords).toEqual(['no new claims to deallocate', 'still not schedulable', 'deallocation of ResourceClaim completed', 'deletion of ResourceClaim completed', 'not found']);
  });
});
