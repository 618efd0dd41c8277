// The filter plugins of the scheduler's default profile, in the order the newest release runs
// them (v1.37, pkg/scheduler/apis/config/v1/default_plugins.go; a rule's meta.movedIn puts it
// back where an older release ran it, release.ts), as upstream keeps its plugins/names: a leaf
// that every other type can name without importing a rule or a word of English. The scheduler
// stops at a node's first failing plugin, so this order decides which reason it reports.
export const pluginNames = [
  'NodeName',
  'NodeUnschedulable',
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
  // Appended after DefaultBinder when its gate is on (default_plugins.go applyFeatureGates), so
  // after DynamicResources, which is inserted before DefaultPreemption: the last filter.
  'NodeDeclaredFeatures',
] as const;

export type PluginName = (typeof pluginNames)[number];

/**
 * The scheduler's status codes. `UnschedulableAndUnresolvable` tells the scheduler that
 * evicting pods from the node cannot help, so preemption skips it.
 */
export type StatusCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';
