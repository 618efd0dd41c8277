// Builders for storage objects (PVCs, PVs, StorageClasses, CSINodes) and pod volumes, in the
// style of builders.ts.
import type {
  V1CSINode,
  V1LabelSelector,
  V1NodeSelectorRequirement,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1StorageClass,
  V1Volume,
} from '@kubernetes/client-node';
import { ObjectBuilder } from './builders.js';

export class PvcBuilder extends ObjectBuilder<V1PersistentVolumeClaim> {
  constructor(name: string, namespace = 'default') {
    super({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace, uid: `uid-pvc-${namespace}-${name}` },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Pending' },
    });
  }
  private get spec() {
    return this.value.spec!;
  }
  storageClass(name: string): this {
    this.spec.storageClassName = name;
    return this;
  }
  request(storage: string): this {
    this.spec.resources = { requests: { storage } };
    return this;
  }
  accessModes(...modes: string[]): this {
    this.spec.accessModes = modes;
    return this;
  }
  selector(selector: V1LabelSelector): this {
    this.spec.selector = selector;
    return this;
  }
  volumeMode(mode: string): this {
    this.spec.volumeMode = mode;
    return this;
  }
  /** Bound by the PV controller: volumeName, the bind-completed annotation, phase Bound. */
  boundTo(pv: string): this {
    this.spec.volumeName = pv;
    this.annotate({ 'pv.kubernetes.io/bind-completed': 'yes' });
    this.value.status = { phase: 'Bound' };
    return this;
  }
  /** Names a PV without the binding being complete (pre-bound by a user). */
  volumeName(pv: string): this {
    this.spec.volumeName = pv;
    return this;
  }
  selectedNode(node: string): this {
    return this.annotate({ 'volume.kubernetes.io/selected-node': node });
  }
  phase(phase: string): this {
    this.value.status = { ...this.value.status, phase };
    return this;
  }
  deleting(): this {
    this.value.metadata!.deletionTimestamp = new Date('2026-01-01T00:00:00Z');
    return this;
  }
  /** Controlled by the pod, as the ephemeral volume controller creates it. */
  ownedBy(pod: V1Pod): this {
    this.value.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '', controller: true }];
    return this;
  }
}

export class PvBuilder extends ObjectBuilder<V1PersistentVolume> {
  constructor(name: string) {
    super({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'] },
      status: { phase: 'Available' },
    });
  }
  private get spec() {
    return this.value.spec!;
  }
  capacity(storage: string): this {
    this.spec.capacity = { storage };
    return this;
  }
  storageClass(name: string): this {
    this.spec.storageClassName = name;
    return this;
  }
  accessModes(...modes: string[]): this {
    this.spec.accessModes = modes;
    return this;
  }
  csi(driver: string, volumeHandle: string): this {
    this.spec.csi = { driver, volumeHandle };
    return this;
  }
  ebs(volumeID: string): this {
    this.spec.awsElasticBlockStore = { volumeID };
    return this;
  }
  gcePd(pdName: string): this {
    this.spec.gcePersistentDisk = { pdName };
    return this;
  }
  zone(zone: string): this {
    return this.labels({ 'topology.kubernetes.io/zone': zone });
  }
  /** Adds one required node-affinity term made of these requirements. */
  affinityTerm(...matchExpressions: V1NodeSelectorRequirement[]): this {
    const affinity = (this.spec.nodeAffinity ??= {});
    const required = (affinity.required ??= { nodeSelectorTerms: [] });
    required.nodeSelectorTerms.push({ matchExpressions });
    return this;
  }
  /** A local PV: one term, `kubernetes.io/hostname In (nodes)`. */
  onHost(...nodes: string[]): this {
    return this.affinityTerm({ key: 'kubernetes.io/hostname', operator: 'In', values: nodes });
  }
  claimRef(namespace: string, name: string, uid?: string): this {
    this.spec.claimRef = { namespace, name, ...(uid ? { uid } : {}) };
    this.value.status = { phase: 'Bound' };
    return this;
  }
  phase(phase: string): this {
    this.value.status = { phase };
    return this;
  }
}

class StorageClassBuilder extends ObjectBuilder<V1StorageClass> {
  constructor(name: string, provisioner: string) {
    super({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner, volumeBindingMode: 'Immediate' });
  }
  waitForFirstConsumer(): this {
    this.value.volumeBindingMode = 'WaitForFirstConsumer';
    return this;
  }
  /** Adds one allowedTopologies term: every key must have one of its values. */
  allowedTopology(requirements: Record<string, string[]>): this {
    (this.value.allowedTopologies ??= []).push({ matchLabelExpressions: Object.entries(requirements).map(([key, values]) => ({ key, values })) });
    return this;
  }
}

class CsiNodeBuilder extends ObjectBuilder<V1CSINode> {
  constructor(nodeName: string) {
    super({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: nodeName }, spec: { drivers: [] } });
  }
  driver(name: string, count?: number): this {
    this.value.spec.drivers.push({ name, nodeID: `${this.value.metadata?.name ?? ''}-${name}`, ...(count !== undefined ? { allocatable: { count } } : {}) });
    return this;
  }
  migrated(...plugins: string[]): this {
    this.value.metadata = { ...this.value.metadata, annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': plugins.join(',') } };
    return this;
  }
}

export const pvc = (name: string, namespace?: string) => new PvcBuilder(name, namespace);
export const pv = (name: string) => new PvBuilder(name);
export const storageClass = (name: string, provisioner: string) => new StorageClassBuilder(name, provisioner);
export const csiNode = (nodeName: string) => new CsiNodeBuilder(nodeName);

// Pod mutators, for PodBuilder.with(...).

/** A `persistentVolumeClaim` volume; the volume is named after the claim unless told. */
export function claimVolume(claimName: string, volumeName = claimName, readOnly?: boolean) {
  return (pod: V1Pod) => {
    (pod.spec!.volumes ??= []).push({ name: volumeName, persistentVolumeClaim: { claimName, ...(readOnly ? { readOnly } : {}) } });
  };
}

/** A generic ephemeral volume; its claim is `<pod>-<volume>`. */
export function ephemeralVolume(volumeName: string, storageClassName?: string) {
  return (pod: V1Pod) => {
    (pod.spec!.volumes ??= []).push({
      name: volumeName,
      ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], ...(storageClassName ? { storageClassName } : {}), resources: { requests: { storage: '1Gi' } } } } },
    });
  };
}

/** Any inline volume source (GCE PD, EBS, RBD, iSCSI, ...). */
export function inlineVolume(volume: V1Volume) {
  return (pod: V1Pod) => {
    (pod.spec!.volumes ??= []).push(volume);
  };
}

/** A `spec.resourceClaims` entry naming a ResourceClaim or a ResourceClaimTemplate. */
export function resourceClaim(name: string, source: { claim?: string; template?: string }) {
  return (pod: V1Pod) => {
    (pod.spec!.resourceClaims ??= []).push({
      name,
      ...(source.claim ? { resourceClaimName: source.claim } : {}),
      ...(source.template ? { resourceClaimTemplateName: source.template } : {}),
    });
  };
}

/** The pod status entry the resourceclaim controller writes once it created (or skipped) a claim. */
export function resourceClaimStatus(name: string, claimName?: string) {
  return (pod: V1Pod) => {
    const status = (pod.status ??= {});
    (status.resourceClaimStatuses ??= []).push({ name, ...(claimName ? { resourceClaimName: claimName } : {}) });
  };
}
