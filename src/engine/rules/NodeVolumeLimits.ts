// NodeVolumeLimits (nodevolumelimits/csi.go, v1.34): per CSI driver, the unique volumes the
// node's pods already use plus the pod's new ones must not exceed the driver's
// `allocatable.count` on the node's CSINode. A volume is `<driver>/<volumeHandle>`: a bound PVC's
// PV gives both (a CSI PV directly, an in-tree PV through CSI migration); an unbound PVC counts as
// one new volume of its StorageClass's provisioner. A volume already used on the node is not
// counted twice. Unschedulable, as upstream: evicting pods with volumes frees attach slots.
//
// Simplified or not modelled:
// - In-tree to CSI migration: csi-translation-lib is reduced to a table of the five plugins the
//   scheduler migrates (AWS EBS, GCE PD, Azure Disk, Cinder: on whenever the node has a CSINode;
//   Portworx: when the CSINode's migrated-plugins annotation lists it) and their driver names.
//   Volume handles are the in-tree IDs (GCE PD: the disk name, not the projects/... path); they
//   only serve to recognise the same disk on two pods, which they still do.
// - VolumeAttachment objects: the v1.34 scheduler also counts volumes still attached to the
//   node through VolumeAttachments (kubernetes#127757; e.g. those of pods just deleted). The
//   snapshot holds none, so the count here can be lower than the scheduler's, never higher.
// - A new claim that does not exist: upstream's Filter rejects every node with "persistentvolumeclaim
//   not found", but VolumeRestrictions' (PVC) or VolumeBinding's (ephemeral) PreFilter always
//   rejects such a pod first, so no per-node reason is repeated here.
// - Limits from Node `status.allocatable` (`attachable-volumes-csi-*`), read by older schedulers,
//   are not read: CSINode is the source.
import type { V1CSINode, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1Volume } from '@kubernetes/client-node';
import type { Snapshot } from '../../snapshot/types.js';
import type { FilterRule, NodeFacts, RuleReason, RuleContext } from '../model.js';
import { claimClassName, findClaim, findStorageClass, findVolume, isControlledBy, podClaimRefs } from '../volumes.js';
import { readAnnotations } from '../annotations.js';

export interface NewVolume {
  /** The pod's volume name. */
  volume: string;
  /** The claim, for PVC and generic ephemeral volumes. */
  claim?: string;
  /** `<driver>/<volumeHandle>`; for an unbound claim, `unbound:<namespace>/<claim>`. */
  handle: string;
}

export interface NodeVolumeLimitsDetail {
  kind: 'csiVolumeLimitExceeded';
  driver: string;
  /** CSINode `spec.drivers[].allocatable.count`. */
  limit: number;
  /** Unique volumes of this driver the node's pods already use. */
  attached: number;
  /** The pod's volumes of this driver not already on the node. */
  adding: NewVolume[];
}

type NodeVolumeLimitsReason = RuleReason<'NodeVolumeLimits', NodeVolumeLimitsDetail>;


interface InTreePlugin {
  plugin: string;
  driver: string;
  /** The migration is on whenever a CSINode exists; otherwise the annotation must list it. */
  alwaysOn: boolean;
}

const ebs: InTreePlugin = { plugin: 'kubernetes.io/aws-ebs', driver: 'ebs.csi.aws.com', alwaysOn: true };
const gcePd: InTreePlugin = { plugin: 'kubernetes.io/gce-pd', driver: 'pd.csi.storage.gke.io', alwaysOn: true };
const azureDisk: InTreePlugin = { plugin: 'kubernetes.io/azure-disk', driver: 'disk.csi.azure.com', alwaysOn: true };
const cinder: InTreePlugin = { plugin: 'kubernetes.io/cinder', driver: 'cinder.csi.openstack.org', alwaysOn: true };
const portworx: InTreePlugin = { plugin: 'kubernetes.io/portworx-volume', driver: 'pxd.portworx.com', alwaysOn: false };
const inTreePlugins = [ebs, gcePd, azureDisk, cinder, portworx];
// Migratable by csi-translation-lib, but the scheduler never counts them (isCSIMigrationOn is false).
const uncountedPlugins = ['kubernetes.io/azure-file', 'kubernetes.io/vsphere-volume'];

function migrationOn(csiNode: V1CSINode | undefined, plugin: InTreePlugin): boolean {
  if (!csiNode) return false;
  if (plugin.alwaysOn) return true;
  const listed = csiNode.metadata?.annotations?.[readAnnotations.migratedPlugins] ?? '';
  return listed.split(',').includes(plugin.plugin);
}

// KubernetesVolumeIDToEBSVolumeID: `aws://<zone>/<id>` names the same volume as `<id>`.
function ebsVolumeId(id: string): string {
  return id.startsWith('aws://') ? (id.split('/').pop() ?? id) : id;
}

type InTreeSource = Pick<V1Volume, 'awsElasticBlockStore' | 'gcePersistentDisk' | 'azureDisk' | 'cinder' | 'portworxVolume'>;

function inTreeVolume(source: InTreeSource): { plugin: InTreePlugin; handle: string } | undefined {
  if (source.awsElasticBlockStore) return { plugin: ebs, handle: ebsVolumeId(source.awsElasticBlockStore.volumeID) };
  if (source.gcePersistentDisk) return { plugin: gcePd, handle: source.gcePersistentDisk.pdName };
  if (source.azureDisk) return { plugin: azureDisk, handle: source.azureDisk.diskURI };
  if (source.cinder) return { plugin: cinder, handle: source.cinder.volumeID };
  if (source.portworxVolume) return { plugin: portworx, handle: source.portworxVolume.volumeID };
  return undefined;
}

function volumeKey(driver: string, handle: string): string {
  return `${driver}/${handle}`;
}

// getCSIDriverInfo: the driver and handle of a PVC's volume, or nothing when it is not counted.
function claimVolume(snapshot: Snapshot, csiNode: V1CSINode | undefined, claim: V1PersistentVolumeClaim): { driver: string; key: string } | undefined {
  const pvName = claim.spec?.volumeName ?? '';
  const volume: V1PersistentVolume | undefined = pvName ? findVolume(snapshot, pvName) : undefined;
  if (!volume) return storageClassVolume(snapshot, csiNode, claim);
  const csi = volume.spec?.csi;
  if (csi) return { driver: csi.driver, key: volumeKey(csi.driver, csi.volumeHandle) };
  const inTree = volume.spec ? inTreeVolume(volume.spec) : undefined;
  if (!inTree || !migrationOn(csiNode, inTree.plugin)) return undefined;
  return { driver: inTree.plugin.driver, key: volumeKey(inTree.plugin.driver, inTree.handle) };
}

// getCSIDriverInfoFromSC: an unbound claim will get a volume from its class's provisioner.
function storageClassVolume(snapshot: Snapshot, csiNode: V1CSINode | undefined, claim: V1PersistentVolumeClaim): { driver: string; key: string } | undefined {
  const className = claimClassName(claim);
  if (!className) return undefined;
  const storageClass = findStorageClass(snapshot, className);
  if (!storageClass) return undefined;
  const handle = `unbound:${claim.metadata?.namespace ?? 'default'}/${claim.metadata?.name ?? ''}`;
  const provisioner = storageClass.provisioner;
  if (uncountedPlugins.includes(provisioner)) return undefined;
  const inTree = inTreePlugins.find((p) => p.plugin === provisioner);
  if (inTree) return migrationOn(csiNode, inTree) ? { driver: inTree.driver, key: volumeKey(inTree.driver, handle) } : undefined;
  return { driver: provisioner, key: volumeKey(provisioner, handle) };
}

interface Counted {
  driver: string;
  volume: NewVolume;
}

/** filterAttachableVolumes; undefined when a claim of the pod cannot be read (see the header). */
function attachableVolumes(snapshot: Snapshot, csiNode: V1CSINode | undefined, pod: V1Pod, newPod: boolean): Map<string, Counted> | undefined {
  const out = new Map<string, Counted>();
  const namespace = pod.metadata?.namespace ?? 'default';
  const claimRefs = new Map(podClaimRefs(pod).map((r) => [r.volume, r]));
  for (const volume of pod.spec?.volumes ?? []) {
    const ref = claimRefs.get(volume.name);
    if (!ref) {
      const inTree = inTreeVolume(volume);
      if (inTree && migrationOn(csiNode, inTree.plugin)) {
        const key = volumeKey(inTree.plugin.driver, inTree.handle);
        out.set(key, { driver: inTree.plugin.driver, volume: { volume: volume.name, handle: key } });
      }
      continue;
    }
    const claim = findClaim(snapshot, namespace, ref.claim);
    if (!claim) {
      if (newPod) return undefined;
      continue;
    }
    if (ref.ephemeral && !isControlledBy(claim.metadata, pod)) return undefined;
    const found = claimVolume(snapshot, csiNode, claim);
    if (found) out.set(found.key, { driver: found.driver, volume: { volume: volume.name, claim: ref.claim, handle: found.key } });
  }
  return out;
}

function driverLimits(csiNode: V1CSINode | undefined): Map<string, number> {
  const limits = new Map<string, number>();
  for (const driver of csiNode?.spec?.drivers ?? []) {
    const count = driver.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(driver.name, count);
  }
  return limits;
}

function hasCountableVolume(pod: V1Pod): boolean {
  return (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim || v.ephemeral || inTreeVolume(v));
}

// A cluster has a CSINode per node: looking one up by a search on each of 5,000 nodes is quadratic.
const csiNodesByName = new WeakMap<readonly V1CSINode[], Map<string, V1CSINode>>();

function csiNodeNamed(csiNodes: readonly V1CSINode[], name: string): V1CSINode | undefined {
  let byName = csiNodesByName.get(csiNodes);
  if (!byName) {
    byName = new Map();
    // The first of a name wins, as a search from the start would find it.
    for (const c of csiNodes) if (!byName.has(c.metadata?.name ?? '')) byName.set(c.metadata?.name ?? '', c);
    csiNodesByName.set(csiNodes, byName);
  }
  return byName.get(name);
}

function filterNode(ctx: RuleContext, node: NodeFacts): NodeVolumeLimitsReason[] {
  const pod = ctx.pod.pod;
  if (!hasCountableVolume(pod)) return [];
  const csiNode = csiNodeNamed(ctx.snapshot.objects.csiNodes, node.name);
  const fresh = attachableVolumes(ctx.snapshot, csiNode, pod, true);
  if (!fresh || fresh.size === 0) return [];
  const limits = driverLimits(csiNode);
  if (limits.size === 0) return [];
  const attached = new Map<string, string>();
  for (const other of node.pods) {
    for (const [key, counted] of attachableVolumes(ctx.snapshot, csiNode, other, false) ?? new Map<string, Counted>()) attached.set(key, counted.driver);
  }
  const attachedCount = new Map<string, number>();
  for (const [key, driver] of attached) {
    fresh.delete(key);
    attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
  }
  const adding = new Map<string, NewVolume[]>();
  for (const { driver, volume } of fresh.values()) adding.set(driver, [...(adding.get(driver) ?? []), volume]);
  const reasons: NodeVolumeLimitsReason[] = [];
  // Upstream reports the first driver over its limit in map order; all are kept, by driver name.
  for (const driver of [...adding.keys()].sort()) {
    const limit = limits.get(driver);
    const volumes = adding.get(driver) ?? [];
    const current = attachedCount.get(driver) ?? 0;
    if (limit === undefined || current + volumes.length <= limit) continue;
    reasons.push({ plugin: 'NodeVolumeLimits', code: 'Unschedulable', detail: { kind: 'csiVolumeLimitExceeded', driver, limit, attached: current, adding: volumes } });
  }
  return reasons;
}

const rule: FilterRule<'NodeVolumeLimits', NodeVolumeLimitsDetail> = {
  meta: { name: 'NodeVolumeLimits', kinds: ['csiVolumeLimitExceeded'] },
  needs: (pod) => (hasCountableVolume(pod.pod) ? ['pods', 'persistentVolumeClaims', 'persistentVolumes', 'storageClasses', 'csiNodes'] : []),
  // No volume that counts against a limit: nothing to filter (upstream's Skip).
  preFilter: ({ pod }) => (hasCountableVolume(pod.pod) ? {} : { skip: true }),
  filter: filterNode,
  // What is missing (pods, their claims and volumes) can only attach more: a limit found
  // exceeded stays exceeded.
  provenDespiteGaps: () => true,
};

export default rule;
