// The annotations the engine reads, each named once. A capture keeps these and drops every
// other annotation (sources/capture/redact.ts): a story that starts reading another one adds it
// here, or a shared capture silently loses what it needs.
export const readAnnotations = {
  /** The LimitRanger admission plugin's note of the defaults it filled (resources/origins.ts). */
  limitRanger: 'kubernetes.io/limit-ranger',
  /** What `kubectl apply` last wrote: whether a request came from the user (resources/originSources.ts). */
  lastApplied: 'kubectl.kubernetes.io/last-applied-configuration',
  /** The node a WaitForFirstConsumer claim was provisioned for (VolumeBinding). */
  selectedNode: 'volume.kubernetes.io/selected-node',
  /** The PV controller finished binding a claim (VolumeBinding). */
  bindCompleted: 'pv.kubernetes.io/bind-completed',
  /** Who provisions an unbound claim (story/claims.ts), and its pre-1.23 name. */
  storageProvisioner: 'volume.kubernetes.io/storage-provisioner',
  betaStorageProvisioner: 'volume.beta.kubernetes.io/storage-provisioner',
  /** A claim's or volume's class, before spec.storageClassName (volumes.ts). */
  betaStorageClass: 'volume.beta.kubernetes.io/storage-class',
  /** In-tree volume plugins a CSINode's driver took over (NodeVolumeLimits). */
  migratedPlugins: 'storage.alpha.kubernetes.io/migrated-plugins',
  /** The claim the scheduler wrote for a pod's DeviceClass-backed extended resources (dra/extended.ts). */
  extendedResourceClaim: 'resource.kubernetes.io/extended-resource-claim',
} as const;
