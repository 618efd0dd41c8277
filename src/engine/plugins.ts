// The default profile's filter plugins in the order kube-scheduler runs them (v1.34,
// pkg/scheduler/apis/config/v1/default_plugins.go). The scheduler stops at a node's first
// failing plugin, so this order decides which reason it reports for that node.
export const filterPluginOrder = [
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'VolumeRestrictions',
  'NodeVolumeLimits',
  'VolumeBinding',
  'VolumeZone',
  'PodTopologySpread',
  'InterPodAffinity',
  'DynamicResources',
] as const;

export type PluginName = (typeof filterPluginOrder)[number];

/**
 * The scheduler's status codes. `UnschedulableAndUnresolvable` tells the scheduler that
 * evicting pods from the node cannot help, so preemption skips it.
 */
export type StatusCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';
